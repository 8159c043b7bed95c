"""Every game's hint (issue 16) over many seeded positions, the way tests/test_engine_contract.py
plays: the hint is a command of the game's own grammar (`parse(format(a)) == a`) that the engine
accepts for the seat on turn, it is computed from that seat's view only (the same whatever the
hidden tiles are), and the Rummikub hint is the solver's best."""

from __future__ import annotations

import json
import os
from collections import Counter
from importlib import import_module
from random import Random

import pytest

from rules import Engine, State, engine_names, get_engine
from rules.core.hints import Hint
from rules.rummikub.actions import Draw, Play
from rules.rummikub.solver import solve
from tests.test_engine_contract import reshuffle_hidden

GAMES = int(os.environ.get("HINT_GAMES", "12"))
MAX_ACTIONS = 3000
LEVELS = ("easy", "normal")
STRONG_EVERY = 6  # seeds 0 and 6: seat 0 plays the strong level (a search: the costliest player by far)


def hint_of(engine: Engine, state: State, seat: int) -> Hint:
    return import_module(f"rules.{engine.name}.hints").hint(engine.view(state, seat), state["options"])


def positions(engine: Engine, seed: int, every: int) -> list[tuple[State, int]]:
    """Every `every`-th position of a seeded AI game (levels mixed, so the play varies) until the match ends."""
    seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
    options = {"rounds": 1 + seed % 3} if engine.name == "three_thirteen" else None
    state = engine.new_game(seats, options=options, seed=seed)
    found = []
    for step in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is None or result.match_over:
                return found
            state = engine.next_round(state)
            continue
        if step % every == 0:
            found.append((state, seat))
        level = "strong" if seed % STRONG_EVERY == 0 and seat == 0 else LEVELS[(seed + seat) % 2]
        action = engine.ai_action(state, seat, Random(f"{seed}/{step}"), level)
        state, _ = engine.apply(state, seat, action)
    raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("name", engine_names())
def test_every_hint_parses_and_is_legal(name: str) -> None:
    engine = get_engine(name)
    every = 5 if name == "rummikub" else 3
    reasons: Counter[str] = Counter()
    checked = 0
    for seed in range(GAMES):
        rng = Random(seed)
        for state, seat in positions(engine, seed, every):
            hint = hint_of(engine, state, seat)
            text = engine.format(hint.action)
            assert engine.parse(text) == hint.action, text
            before = json.dumps(state, sort_keys=True)
            engine.apply(state, seat, engine.parse(text))  # raises IllegalAction if the hint is illegal
            assert json.dumps(state, sort_keys=True) == before, "a hint changed the state"
            assert all(isinstance(v, (int, str, type(None))) for v in hint.params.values()), hint
            reasons[hint.reason] += 1
            checked += 1
            if checked % 9 == 0:  # from the seat's view alone: hidden tiles dealt otherwise, same hint
                other = reshuffle_hidden(engine, state, seat, set(), rng)
                assert hint_of(engine, other, seat) == hint
    assert checked >= 50, checked
    assert len(reasons) >= 3, reasons  # several kinds of move were hinted, not one over and over


def test_the_rummikub_hint_places_as_many_tiles_as_the_solver() -> None:
    engine = get_engine("rummikub")
    opened_seen = 0
    for seed in range(6):
        for state, seat in positions(engine, 100 + seed, 4):
            view = engine.view(state, seat)
            hint = hint_of(engine, state, seat)
            if not view["opened"][seat]:
                continue
            best = solve(view["table"], view["rack"])
            if best is None:
                assert isinstance(hint.action, Draw) or hint.reason == "nothing_fits"
                continue
            opened_seen += 1
            assert isinstance(hint.action, Play) and hint.params["tiles"] == len(best.placed)
    assert opened_seen >= 10, opened_seen
