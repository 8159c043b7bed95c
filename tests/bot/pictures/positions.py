"""Seeded positions for the picture tests: real engine states reached by AI play, and a record."""

from __future__ import annotations

from random import Random
from typing import Any

from rules import Engine, State, get_engine
from storage import SeatRecord, TableRecord

NAMES = ["Ann", "Борис", "Chen", "Dana", "Eve", "Фёдор", "Gus", "Hana"]

# (seats, seed, actions) per game: mid-game positions with melds on the table and a turn to play.
MID_GAME: dict[str, tuple[int, int, int]] = {
    "rummikub": (4, 3, 28),  # the exact-solver AI empties racks fast: still mid-round here
    "rummy101": (4, 5, 45),
    "rummy500": (3, 3, 40),
    "canasta": (4, 1, 50),
    "three_thirteen": (3, 4, 200),
}


def play(engine: Engine, seats: int, seed: int, actions: int, options: dict[str, Any] | None = None) -> State:
    """`actions` AI moves from a seeded deal (next rounds dealt as they come)."""
    state = engine.new_game(seats, options=options, seed=seed)
    for step in range(actions):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is None or result.match_over:
                break
            state = engine.next_round(state)
            continue
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
    return state


def record(game: str, state: State, table_id: str = "t1", version: int = 1) -> TableRecord:
    seats = len(state[get_engine(game).hidden_zones[0]])
    return TableRecord(
        id=table_id, game=game, platform="test", chat_id="c", status="playing", host_platform="test",
        host_user_id="0", options={}, seed=1, version=version,
        seats=[SeatRecord(kind="human", platform="test", user_id=str(i), name=NAMES[i]) for i in range(seats)],
        state=state, created_at=0, updated_at=0,
    )


def mid_game(game: str) -> tuple[Engine, State, TableRecord]:
    engine = get_engine(game)
    seats, seed, actions = MID_GAME[game]
    state = play(engine, seats, seed, actions)
    return engine, state, record(game, state)
