"""Build Three-Thirteen scenario states directly, keeping every card of the decks accounted for.

`scenario()` starts from a real `new_game` (and deals the asked-for round), then overwrites the
zones a test cares about. Cards the test does not place come from the game's own seeded deal, in
order: first to fill the hands left unspecified, then the stock; when the test fixes the stock too,
the cards left over go under the discard pile. So `sorted(all_items)` is always the full set.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pytest

from rules import Action, Event, IllegalAction, get_engine
from rules.core.cards import parse_card
from rules.three_thirteen.engine import full_deck, hand_size

ENG = get_engine("three_thirteen")
Cards = str | Sequence[str]


def cards(text: Cards) -> list[str]:
    """`"10h qs jk"` -> `['10H', 'QS', 'JK']`."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def full_set(state: dict[str, Any]) -> list[str]:
    return sorted(full_deck(state["options"]["jokers"]))


def act(state: dict[str, Any], seat: int, command: str | Action) -> tuple[dict[str, Any], list[Event]]:
    """Apply a command (text goes through the grammar); check conservation and that the input is untouched."""
    action = ENG.parse(command) if isinstance(command, str) else command
    before = snapshot(state)
    new, events = ENG.apply(state, seat, action)
    assert snapshot(state) == before
    assert sorted(ENG.all_items(new)) == full_set(new)
    return new, events


def rejected(state: dict[str, Any], seat: int, command: str | Action, code: str) -> IllegalAction:
    """Assert the command is refused with `code` and the state is exactly as it was (T13-28)."""
    before, text = copy.deepcopy(state), snapshot(state)
    action = ENG.parse(command) if isinstance(command, str) else command
    with pytest.raises(IllegalAction) as info:
        ENG.apply(state, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code} {info.value.params}"
    assert state == before and snapshot(state) == text
    return info.value


def play_match(state: dict[str, Any], move: Callable[[int, dict[str, Any], int], dict[str, Any]],
               max_steps: int = 3000) -> dict[str, Any]:
    """Play `state` to its match's end: on each turn `move(step, state, seat)` returns the next
    state; a round's end goes on to the next round. Fails when the match does not end."""
    for step in range(max_steps):
        seat = ENG.current_seat(state)
        if seat is None:
            if state["match_over"]:
                return state
            state = ENG.next_round(state)
            continue
        state = move(step, state, seat)
    raise AssertionError("no end")


def event_types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def scenario(
    players: int = 3,
    round_number: int = 1,
    hands: Mapping[int, Cards] | None = None,
    stock: Cards | None = None,
    discard: Cards | None = None,
    turn: int = 0,
    phase: str = "draw",
    taken: str | None = None,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
    dealer: int | None = None,
) -> dict[str, Any]:
    """A game in round `round_number` restaged with the given hands, stock (front = next draw),
    discard pile (last = top), seat on turn and phase; the dealer is the seat before the one on turn
    unless given (the round may be under way)."""
    state = ENG.new_game(players, options=dict(options or {}), seed=seed)
    if round_number != 1:
        ENG._deal(state, round_number, dealer=(turn - 1) % players)
    n = hand_size(round_number)
    given_hands = {seat: cards(h) for seat, h in (hands or {}).items()}
    given_stock = None if stock is None else cards(stock)
    given_discard = None if discard is None else cards(discard)
    used: Counter[str] = Counter()
    for h in given_hands.values():
        used.update(h)
    used.update(given_stock or [])
    used.update(given_discard or [])
    full = Counter(full_set(state))
    over = used - full
    if over:
        raise ValueError(f"scenario names more copies than the decks hold: {sorted(over.elements())}")
    left = full - used
    rest: list[str] = []
    for c in ENG.all_items(state):
        if left[c] > 0:
            left[c] -= 1
            rest.append(c)
    new_hands = []
    for seat in range(players):
        if seat in given_hands:
            new_hands.append(given_hands[seat])
        else:
            new_hands.append(rest[:n])
            rest = rest[n:]
    if given_discard is None:
        given_discard, rest = rest[:1], rest[1:]
    if given_stock is None:
        given_stock, rest = rest, []
    state.update(
        hands=new_hands,
        stock=given_stock,
        discard=rest + given_discard,
        turn=turn,
        dealer=(turn - 1) % players if dealer is None else dealer,
        phase=phase,
        taken=taken,
        drawn=None,
        out=None,
        last_turns=None,
        round_over=None,
        pile_log=[],  # a restaged position: its public record of the pile starts now
    )
    assert sorted(ENG.all_items(state)) == full_set(state)
    return state
