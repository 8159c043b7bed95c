"""The public record of the discard pile in one round (`pile_log` in the state and every view).

Every player at a real table sees each card turned up, thrown and taken (the `CardDiscarded` and
`CardDrawn` events are public), so the record holds no secret: entries `[seat, verb, card]` with the
verbs below, in play order, from the deal's up-card on. States stored before the record existed
have none; their record starts with the next action, so what is read from it is true but partial.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

UP = "up"  # the deal's up-card (seat None)
TAKE = "take"  # a seat took the top discard (T13-20)
DISCARD = "discard"  # a seat threw a card on the pile (T13-21)
REBUILD = "rebuild"  # every card but the top (the card named) went back into the stock (T13-26)

Entry = Sequence[Any]


def pile_cards(log: Sequence[Entry]) -> list[str]:
    """The cards in the discard pile now, bottom to top, as far as the record goes back."""
    pile: list[str] = []
    for _, verb, card in log:
        if verb in (UP, DISCARD):
            pile.append(card)
        elif verb == TAKE:
            if pile and pile[-1] == card:
                pile.pop()
        elif verb == REBUILD:
            pile = [card]  # the top card stays (T13-26)
    return pile


def known_held(log: Sequence[Entry], seat: int) -> Counter[str]:
    """Cards `seat` is known to hold: taken from the pile and not thrown since (copies counted)."""
    held: Counter[str] = Counter()
    for who, verb, card in log:
        if who != seat:
            continue
        if verb == TAKE:
            held[card] += 1
        elif verb == DISCARD and held[card] > 0:
            held[card] -= 1
    return +held


def thrown(log: Sequence[Entry], seat: int) -> list[str]:
    """The cards `seat` discarded this round, in order."""
    return [card for who, verb, card in log if who == seat and verb == DISCARD]
