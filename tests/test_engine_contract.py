"""The engine contract (ARCHITECTURE.md) for every registered engine, over many seeded AI games:
nothing appears or vanishes, state round-trips through JSON, seed + options + deck + log replays
to the same state, `parse(format(a)) == a`, a rejected action changes nothing, and no view or
event for a seat depends on tiles that seat may not see.
"""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

import pytest

from rules import Engine, IllegalAction, State, engine_names, get_engine

GAMES = int(os.environ.get("CONTRACT_GAMES", "200"))
MAX_ACTIONS = 3000


def snapshot(state: State) -> str:
    return json.dumps(state, sort_keys=True)


def reshuffle_hidden(engine: Engine, state: State, viewer: int | None, keep: set[int], rng: Random) -> State:
    """The same game as `viewer` sees it, with everything hidden from it dealt differently."""
    hands_key, stock_key = engine.hidden_zones
    other = json.loads(json.dumps(state))
    seats = [s for s in range(len(other[hands_key])) if s != viewer and s not in keep]
    pool = list(other[stock_key]) + [t for s in seats for t in other[hands_key][s]]
    rng.shuffle(pool)
    for s in seats:
        n = len(other[hands_key][s])
        other[hands_key][s], pool = pool[:n], pool[n:]
    other[stock_key] = pool
    return other


def visible_events(events: list[Any], seat: int | None) -> list[dict]:
    return [e.to_json() for e in events if e.visible_to(seat)]


def check_view_shape(engine: Engine, view: dict) -> None:
    hands_key, stock_key = engine.hidden_zones
    text = json.dumps(view)
    for secret in ('"seed"', '"deck"', f'"{hands_key}"'):
        assert secret not in text
    assert not isinstance(view.get(stock_key), list), "the stock order is secret"


# Options varied by seed, for coverage; Three-Thirteen's match length also keeps the 200 games
# (each up to 11 rounds with an expected-deadwood AI) within the CI budget.
VARIED_OPTIONS: dict[str, Any] = {
    "three_thirteen": lambda seed: {"rounds": 1 + seed % 11, "jokers": (0, 2, 4)[seed % 3], "ace_high": seed % 2 == 0},
}


def play_one(engine: Engine, seed: int) -> None:
    rng = Random(seed)
    seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
    options = VARIED_OPTIONS[engine.name](seed) if engine.name in VARIED_OPTIONS else None
    state = engine.new_game(seats, options=options, seed=seed)
    full_set = sorted(engine.all_items(state))
    log: list[tuple[int | None, str]] = []
    for step in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            assert result is not None
            assert len(result.round_scores) == len(result.totals) == seats
            if result.match_over:
                break
            state = engine.next_round(state)
            log.append((None, "next_round"))
            continue
        action = engine.ai_action(state, seat, Random(f"{seed}/{step}"))
        text = engine.format(action)
        assert engine.parse(text) == action, text
        # Someone else trying to move is refused and changes nothing.
        other = (seat + 1) % seats
        before = snapshot(state)
        with pytest.raises(IllegalAction) as err:
            engine.apply(state, other, action)
        # Rummy 500's spec folds "not your turn" into E_PHASE (R500-26); the others name it.
        assert err.value.code in ("E_NOT_YOUR_TURN", "E_PHASE") and snapshot(state) == before
        new_state, events = engine.apply(state, seat, action)
        assert snapshot(state) == before, "apply mutated its input"
        if step % 7 == 0 and engine.result(new_state) is None:
            # (At a round's end every hand is revealed on purpose, RK-74.)
            check_privacy(engine, state, seat, action, events, rng)
        state = new_state
        log.append((seat, text))
        assert sorted(engine.all_items(state)) == full_set
        assert json.loads(json.dumps(state)) == state
    else:
        raise AssertionError(f"seed {seed}: no end after {MAX_ACTIONS} actions")
    replayed = engine.new_game(seats, options=options, seed=seed)
    for seat, text in log:
        replayed = engine.next_round(replayed) if seat is None else engine.apply(replayed, seat, engine.parse(text))[0]
    assert snapshot(replayed) == snapshot(state)


def check_privacy(engine: Engine, state: State, actor: int, action: Any, events: list, rng: Random) -> None:
    """What seat p sees must not change when the tiles hidden from p are dealt differently."""
    seats = len(state[engine.hidden_zones[0]])
    # The views built together for an outcome (public part once) are the views built one by one.
    public, private = engine.views(state, range(seats))
    assert public == engine.view(state, None)
    assert private == {seat: engine.view(state, seat) for seat in range(seats)}
    for viewer in [None, *range(seats)]:
        view = engine.view(state, viewer)
        check_view_shape(engine, view)
        other = reshuffle_hidden(engine, state, viewer, keep={actor}, rng=rng)
        assert engine.view(other, viewer) == view
        if viewer != actor:
            _, other_events = engine.apply(other, actor, action)
            assert visible_events(other_events, viewer) == visible_events(events, viewer)


@pytest.mark.parametrize("name", engine_names())
@pytest.mark.parametrize("chunk", range(4))
def test_contract(name: str, chunk: int) -> None:
    engine = get_engine(name)
    for seed in range(chunk, GAMES, 4):
        play_one(engine, seed)


@pytest.mark.parametrize("name", engine_names())
def test_engine_has_the_whole_contract(name: str) -> None:
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    state = engine.new_game(engine.min_seats, seed=1)
    assert json.loads(json.dumps(state)) == state
    assert engine.result(state) is None
    with pytest.raises(IllegalAction) as err:
        engine.next_round(state)
    assert err.value.code == "E_ROUND_IN_PLAY"
    timeout = engine.timeout_action(state)
    assert timeout.service_only
    # The stand-in for an away player is legal in the seat's place.
    seat = engine.current_seat(state)
    engine.apply(state, seat, engine.stand_in_action(state, seat, Random(1)))
