"""Issue 28's Rummy 101 judgement on constructed positions: joker finishes (x2, R101-52) sought when
they are realistic. The pairs openings and jokers on pairs are in test_rummy101_ai.py."""

from __future__ import annotations

from random import Random

from rules.rummy101.actions import Add, Discard
from rules.rummy101.ai import choose_action, choose_greedy_action
from tests.rules.rummy101_scenario import ENG, act, scenario

P1, P2 = 0, 1


def ai(state: dict, seat: int) -> object:
    return choose_action(ENG.view(state, seat), Random(0))


def test_waits_a_turn_for_a_joker_finish() -> None:
    # Issue 28: it finished with a joker 2 times where a competent player did 11. With `j k9` left and k9 fitting
    # nowhere it laid the joker on [y5 y6 y7] and went out with k9 (x1). The opponent holds 21 tiles, so it keeps
    # the joker: the next tile that fits goes down (y8 here) and the joker is the last discard.
    state = scenario(players=2, hands={P1: "j k9"}, table=[("y5 y6 y7", P2)], status={P1: "series", P2: "series"},
                     stock="r1 y8 b1 k1 r13 b13")
    assert ai(state, P1) == Discard(tile="k9")
    state, _ = act(state, P1, Discard(tile="k9"))
    for _ in range(20):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        policy = choose_action if seat == P1 else choose_greedy_action
        state, _ = act(state, seat, policy(ENG.view(state, seat), Random(0)))
    details = ENG.result(state).details
    assert state["round_over"]["winners"] == [P1] and details["joker_finish"] and details["multiplier"] == 2


def test_finishes_at_once_when_an_opponent_is_about_to_go_out() -> None:
    # The opponent holds two tiles: waiting a turn with the joker (101 in hand, R101-50) is not worth it.
    state = scenario(players=2, hands={P1: "j k9", P2: "r1 b13"}, table=[("y5 y6 y7", P2)],
                     status={P1: "series", P2: "series"}, stock="r2 y8 b1 k1 r13 b13")
    action = ai(state, P1)
    assert isinstance(action, Add) and action.tiles == ("j",)
    state, _ = act(state, P1, action)
    state, _ = act(state, P1, ai(state, P1))
    assert state["round_over"]["winners"] == [P1] and ENG.result(state).details["multiplier"] == 1
