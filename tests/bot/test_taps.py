"""Tap-completeness (issue 25): every move the normal AI makes in a small seeded sample of every game
can be made by presses alone through the presenter's controls — a suggestion, picks + staged melds + a
move button, or the two-step move — and each route sends the very action (bench/taps.py checks the
command it builds parses to it). The figures over more games are printed by bench/bench_taps.py."""

from __future__ import annotations

from random import Random

import pytest

from bench.taps import plan_move
from rules import engine_names, get_engine
from tests.rules import canasta_scenario as cs
from tests.rules import rummy101_scenario as rs

MOVES = {"rummy101": 160, "canasta": 160, "rummy500": 160, "rummikub": 60, "three_thirteen": 60}


@pytest.mark.parametrize("name", engine_names())
def test_every_normal_ai_move_is_reachable_by_presses(name: str) -> None:
    engine = get_engine(name)
    seats = 4 if name == "canasta" else 2
    state = engine.new_game(seats, seed=31)
    missed, compound = [], 0
    for step in range(MOVES[name]):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            assert result is not None
            if result.match_over:
                break
            state = engine.next_round(state)
            continue
        action = engine.ai_action(state, seat, Random(f"31/{step}"))
        text = engine.format(action)
        compound += " | " in text or text.startswith(("play", "take market"))
        if plan_move(name, engine.view(state, seat), seat, action) is None:
            missed.append(text)
        state, _ = engine.apply(state, seat, action)
    assert not missed
    if name != "three_thirteen":  # the sample holds the compound moves this is about
        assert compound, "no opening, layout or market take in the sample"


def test_openings_are_reachable_by_staging_without_suggestions() -> None:
    """The suggestions aside, staging alone makes Rummy 101's and Canasta's compound openings."""
    r101 = get_engine("rummy101")
    state = rs.scenario(2, hands={0: "r11 r12 r13 k12 b12 y12 b9 b10 b11 y1 k5 b3 r7"}, status={0: "unopened"})
    action = r101.parse("open r11 r12 r13 | k12 b12 y12 | b9 b10 b11")
    plan = plan_move("rummy101", r101.view(state, 0), 0, action, suggest=False)
    assert plan is not None and plan.route == "controls" and plan.presses.count("stage") == 2
    assert len(plan.presses) == 9 + 2 + 1  # nine picks, two stagings, the move
    can = get_engine("canasta")
    state = cs.scenario(hands={1: "r8 b8 r13 b13 k13 r12 b12 y12 r4 b5 k6 y7 k9 y10"}, opened=(False, False),
                        pile="y4 k8", phase="draw")
    action = can.parse("take with r8 b8 | r13 b13 k13 | r12 b12 y12")
    plan = plan_move("canasta", can.view(state, 1), 1, action, suggest=False)
    assert plan is not None and plan.presses.count("stage") == 2
