"""The legal-moves contract (rules/core/moves.py) for every engine, over many seeded AI-played
positions, for the seat on turn and for seats waiting: every template composes to text the engine
parses; a template marked available has a filling the engine accepts, one marked unavailable has
none (a no-op at most); the game's own AI never makes a move whose verb no offered template has;
and moves depend only on the seat's view (hidden zones dealt differently change nothing).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from itertools import combinations, islice, permutations, product
from random import Random
from typing import Any

import pytest

from rules import Engine, IllegalAction, State, engine_names, get_engine
from rules.core.moves import Filling, MoveTemplate, Slot, compose
from tests.test_engine_contract import reshuffle_hidden

GAMES = int(os.environ.get("MOVES_GAMES", "12"))
MAX_STEPS = 160
OTHER_SEAT_EVERY = 9
TRIES_AVAILABLE = 3000  # fillings tried before a template marked available is called a lie
TRIES_UNAVAILABLE = 25
JOKERS = {"j", "JK"}


def hand_of(view: dict[str, Any]) -> list[str]:
    draft = view.get("draft")
    if isinstance(draft, dict):
        return list(draft["rack"])
    return list(view.get("rack") or view.get("hand") or [])


def slot_values(slot: Slot, hand: list[str]) -> list[Filling]:
    """What the test tries in a slot: every option, or bounded sets of the items it can hold."""
    if slot.kind == "items":
        pool = list(slot.fits if slot.fits is not None else hand)
        out: list[Filling] = []
        for size in range(slot.min, min(slot.max, slot.min + 2) + 1):
            for combo in islice(combinations(pool, size), 400):
                out.append(list(combo))
                if JOKERS & set(combo):  # where a joker stands is the player's choice, in pick order
                    out += [list(p) for p in dict.fromkeys(permutations(combo)) if list(p) != list(combo)]
        return out
    if slot.kind == "melds":
        return [[list(c)] for c in islice(combinations(hand, 3), 40)]
    return list(slot.options)


def fillings(tpl: MoveTemplate, hand: list[str], rng: Random) -> Iterator[list[Filling]]:
    per_slot = [slot_values(s, hand) for s in tpl.open_slots()]
    for values in per_slot:
        rng.shuffle(values)
    yield from (list(f) for f in product(*per_slot))


def accepted(engine: Engine, state: State, seat: int, text: str) -> bool | None:
    """True if applied, False if refused, None if accepted without changing anything."""
    try:
        new, _ = engine.apply(state, seat, engine.parse(text))
    except IllegalAction:
        return False
    return None if new == state else True


def check_position(engine: Engine, state: State, seat: int, rng: Random) -> list[MoveTemplate]:
    view = engine.view(state, seat)
    templates = engine.moves(view)
    json.dumps([t.model_dump() for t in templates])  # JSON-able, like the rest of the contract
    hand = hand_of(view)
    for tpl in templates:
        tries = TRIES_AVAILABLE if tpl.available else TRIES_UNAVAILABLE
        found = False
        for filled in islice(fillings(tpl, hand, rng), tries):
            text = compose(tpl, filled)
            assert engine.format(engine.parse(text)).split()[0] == tpl.verb, text
            if tpl.available is None:
                continue  # the engine cannot say before the items are picked; parsing is the contract
            outcome = accepted(engine, state, seat, text)
            if tpl.available and outcome:
                found = True
                break
            if tpl.available is False:
                assert not outcome, f"{engine.name}: {tpl.name} is marked unavailable but {text!r} was accepted"
        if tpl.available:
            assert found, f"{engine.name}: {tpl.name} is marked available but no filling was accepted: {view}"
    return templates


def check_privacy(engine: Engine, state: State, seat: int, templates: list[MoveTemplate], rng: Random) -> None:
    other = reshuffle_hidden(engine, state, seat, set(), rng)
    assert engine.moves(engine.view(other, seat)) == templates


def covered(templates: list[MoveTemplate], verb: str) -> bool:
    return any(t.verb == verb and t.available is not False for t in templates)


def play_positions(engine: Engine, seed: int) -> None:
    rng = Random(seed)
    seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
    state = engine.new_game(seats, seed=seed)
    names = [t.name for t in engine.moves(engine.view(state, 0))]
    for step in range(MAX_STEPS):
        seat = engine.current_seat(state)
        if seat is None:
            if engine.result(state).match_over:
                return
            state = engine.next_round(state)
            continue
        templates = check_position(engine, state, seat, rng)
        assert [t.name for t in templates] == names, "every position lists the same templates, in one order"
        check_privacy(engine, state, seat, templates, rng)
        for choose in (engine.ai_action, engine.stand_in_action):
            action = choose(state, seat, Random(f"{seed}/{step}"))
            if not type(action).service_only:
                verb = engine.format(action).split()[0]
                assert covered(templates, verb), f"{engine.name}: the AI plays {engine.format(action)!r}, no template"
        if step % OTHER_SEAT_EVERY == 0:
            waiting = (seat + 1) % seats
            assert not any(t.available for t in check_position(engine, state, waiting, rng))
        action = engine.ai_action(state, seat, Random(f"{seed}/{step}"))
        state, _ = engine.apply(state, seat, action)


@pytest.mark.parametrize("seed", range(GAMES))
@pytest.mark.parametrize("game", engine_names())
def test_moves_contract(game: str, seed: int) -> None:
    play_positions(get_engine(game), seed)
