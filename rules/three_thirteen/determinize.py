"""A full Three-Thirteen state from one seat's view, its hidden zones dealt at random
(rules/core/search_pimc.py).

The seat sees its hand and, through the public record (`pile_log`), every card in the discard pile
and the cards each other seat took from it and still holds. The rest of the two decks goes to the
other hands (their known cards first) and the stock, in the sizes the view shows. A record that
starts late (a state stored before it existed) leaves the pile below its top card unknown: those
places are dealt from the unseen cards too.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.core.cards import card_deck
from rules.core.engine import State
from rules.core.search_pimc import deal_hidden, unseen
from rules.three_thirteen.options import ThreeThirteenOptions
from rules.three_thirteen.pile_record import known_held, pile_cards


def known_pile(view: dict[str, Any]) -> list[str]:
    """The discard pile, bottom to top, as far as the record shows it (all of it when it is whole)."""
    pile = pile_cards(view["pile_log"])
    if len(pile) != view["discard_size"]:
        top = view["discard_top"]
        return [top] if top is not None else []
    return pile


def determinize(view: dict[str, Any], rng: Random) -> State:
    """A state `view`'s seat could be in: what it sees as it is, every card it cannot see dealt at
    random to the other hands (those known from the record kept there), the stock and the unknown
    part of the pile."""
    me, seats = view["you"], view["seats"]
    pile = known_pile(view)
    pool = unseen(card_deck(decks=2, jokers=view["jokers"]), [*view["hand"], *pile])
    others = [s for s in range(seats) if s != me]
    hidden_pile = view["discard_size"] - len(pile)
    sizes = [view["hand_sizes"][s] for s in others] + [view["stock"], hidden_pile]
    known = [known_held(view["pile_log"], s) for s in others] + [Counter(), Counter()]
    zones = deal_hidden(pool, sizes, known, rng)
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[me] = list(view["hand"])
    for s, zone in zip(others, zones, strict=False):
        hands[s] = zone
    options = ThreeThirteenOptions(jokers=view["jokers"], ace_high=view["ace_high"], rounds=view["rounds"])
    return {
        "game": "three_thirteen",
        "options": options.model_dump(),
        "seed": 0,
        "deck": None,
        "seats": seats,
        "round": view["round"],
        "dealer": view["dealer"],
        "totals": list(view["totals"]),
        "history": [list(h) for h in view["history"]],
        "match_over": view["match_over"],
        "match_winners": list(view["match_winners"]),
        "turn": view["turn"],
        "phase": view["phase"],
        "hands": hands,
        "discard": zones[-1] + pile,
        "stock": zones[-2],
        "taken": view["taken"],
        "drawn": view["drawn"],
        "out": view["out"],
        "last_turns": view["last_turns_left"],
        "rebuilds": 0,
        "round_over": None,
        "pile_log": [list(e) for e in view["pile_log"]],
    }
