"""The Rummy 101 AI and the greedy baseline: legal moves from the view only, and the plays the issue
asks for (best opening, useful takes, joker swaps, joker finishes, safe discards)."""

from __future__ import annotations

from random import Random

import pytest

from rules.rummy101.actions import Add, Discard, Draw, JokerButton, Meld, Open, Swap, Take
from rules.rummy101.ai import choose_action, choose_greedy_action, greedy_melds
from rules.rummy101.search import best_melds, best_opening, meld_value, pairs_in, physical
from tests.rules.rummy101_scenario import ENG, act, scenario

P1, P2, P3, P4 = 0, 1, 2, 3


def ai(state: dict, seat: int) -> object:
    return choose_action(ENG.view(state, seat), Random(0))


def test_best_opening_search_is_exact_on_small_hands() -> None:
    hand = ["r10", "r11", "r12", "r13", "b13", "k13", "y13", "j", "b1", "k7"]
    score, melds = best_melds(hand)
    # [r10 r11 r12 r13] + [b13 k13 y13 j=13] (46 + 52) beats every other split.
    assert sum(meld_value(m) for m in melds) == 98
    assert best_opening(hand)["series"] == 98
    assert len(pairs_in(["r5", "r5", "b7", "b7", "k9", "j", "y1"])) == 3


def test_ai_opens_with_the_best_batch() -> None:
    state = scenario(hands={P1: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1 y5 b2"})
    action = ai(state, P1)
    assert isinstance(action, Open)
    state, events = act(state, P1, action)
    assert state["status"][P1] == "series"


def test_ai_opens_with_pairs_when_series_fall_short() -> None:
    state = scenario(hands={P1: "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 b2 y8"})
    action = ai(state, P1)
    assert isinstance(action, Open) and all(len(m.tiles) == 2 for m in action.melds)
    act(state, P1, action)


def test_ai_takes_the_discard_to_open() -> None:
    state = scenario(hands={P2: "k11 k12 r5 b5 k5 y5 b7 b8 b9 b10 b11 y1 r2"}, discard="k13", turn=P2, phase="draw")
    action = ai(state, P2)
    assert isinstance(action, Take) and isinstance(action.use, Open)
    state, _ = act(state, P2, action)
    assert state["status"][P2] == "series"


def test_ai_takes_to_add_or_swap_once_opened() -> None:
    state = scenario(hands={P3: "k1 k5 y9"}, table=[("r3 r4 r5", P1)], status={P1: "series", P3: "series"},
                     discard="r6", turn=P3, phase="draw")
    action = ai(state, P3)
    assert action == Take(use=Add(meld=1, tiles=("r6",)))
    state = scenario(hands={P3: "k1 k5 y9"}, table=[("r10 j r12", P1)], status={P1: "series", P3: "series"},
                     discard="r11", turn=P3, phase="draw")
    assert ai(state, P3) == Take(use=Swap(meld=1, tile="r11"))


def test_ai_draws_when_the_discard_does_not_help() -> None:
    state = scenario(hands={P3: "k1 k5 y9"}, status={P3: "series"}, discard="b2", turn=P3, phase="draw")
    assert ai(state, P3) == Draw()
    state["options"]["joker_button"] = "on"
    assert ai(state, P3) == JokerButton()


def test_ai_swaps_jokers_back_and_plans_a_joker_finish() -> None:
    state = scenario(hands={P1: "r11 y2"}, table=[("r10 j r12", P2), ("y3 y4 y5", P2)],
                     status={P1: "series", P2: "series"})
    state, _ = act(state, P1, ai(state, P1))  # swap r11 for the joker
    assert "j" in state["hands"][P1]
    state, _ = act(state, P1, ai(state, P1))  # add y2
    action = ai(state, P1)
    assert action == Discard(tile="j")
    state, _ = act(state, P1, action)
    assert ENG.result(state).details["joker_finish"]


def test_ai_lays_melds_and_adds_after_opening() -> None:
    state = scenario(hands={P1: "b4 b5 b6 k9 y1"}, table=[("k6 k7 k8", P2)], status={P1: "series", P2: "series"})
    action = ai(state, P1)
    assert isinstance(action, Meld)
    state, _ = act(state, P1, action)
    assert ai(state, P1) == Add(meld=2, tiles=("k9",)) or ai(state, P1) == Add(meld=1, tiles=("k9",))


def test_ai_does_not_feed_an_opened_next_player() -> None:
    # R101-17: P2 (opened) could take k9 and add it to [k6 k7 k8]; the AI discards y2 instead.
    state = scenario(hands={P1: "r13 y2 k9 b1 b2"}, table=[("k6 k7 k8", P3)],
                     status={P2: "series", P3: "series"})
    action = ai(state, P1)
    assert isinstance(action, Discard) and action.tile != "k9"


def test_greedy_baseline() -> None:
    assert greedy_melds(["r1", "r2", "r3", "r4", "b4", "k4", "y9"]) == [["r1", "r2", "r3", "r4"]]
    state = scenario(hands={P1: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1 y5 b2"})
    assert isinstance(choose_greedy_action(ENG.view(state, P1), Random(0)), Open)
    state = scenario(hands={P1: "r1 r9 y13"}, status={P1: "series"})
    assert choose_greedy_action(ENG.view(state, P1), Random(0)) == Discard(tile="y13")
    state["phase"] = "draw"
    assert choose_greedy_action(ENG.view(state, P1), Random(0)) == Draw()


@pytest.mark.parametrize("policy", [choose_action, choose_greedy_action])
def test_policies_play_legal_whole_matches(policy: object) -> None:
    for seed in range(3):
        state = ENG.new_game(4, seed=seed, options={"joker_button": "on", "threshold_mode": "increasing"})
        for step in range(3000):
            seat = ENG.current_seat(state)
            if seat is None:
                if ENG.result(state).match_over:
                    break
                state = ENG.next_round(state)
                continue
            state, _ = act(state, seat, policy(ENG.view(state, seat), Random(step)))  # type: ignore[operator]
        assert state["match_over"]


def test_ai_does_not_spend_a_joker_on_pairs_near_the_series_threshold() -> None:
    # Issue 28, a two-player round with 57 tiles in the stock: four pairs, a joker and 97 series points
    # ([j=r11 r12 r13] [r13 b13 k13] [b4 b5 b6 b7]); it opened `r13 r13 | y10 y10 | y4 y4 | r2 r2 | r12 j=r12`,
    # doubling its penalties and losing the joker, four points short of a series opening.
    state = scenario(players=2, hands={P1: "r13 r13 y10 y10 y4 y4 r2 r2 r12 j b13 k13 b4 b5 b6 b7 k8 y7 r9 b11 k6"},
                     stock_size=57)
    assert best_opening(state["hands"][P1]) == {"series": 97, "pairs": 5}
    assert isinstance(ai(state, P1), Discard)


def test_ai_weighs_a_pairs_opening_against_its_series_points() -> None:
    # Five natural pairs and 57 series points ([r8 r9 r10] [b9 b10 b11]): mid-round the series opening is near, so it waits; with its last turns coming, the pairs open.
    hand = "r5 r5 b7 b7 k9 k9 y1 y1 y13 y13 r8 r9 r10 b9 b10 b11 k11 k12 y3 b2 k4"
    state = scenario(players=2, hands={P1: hand}, stock_size=40)
    assert best_opening(state["hands"][P1])["series"] >= 101 - 80 and best_opening(state["hands"][P1])["pairs"] >= 5
    assert isinstance(ai(state, P1), Discard)
    late = scenario(players=2, hands={P1: hand}, stock_size=5)
    action = ai(late, P1)
    assert isinstance(action, Open) and all(len(m.tiles) == 2 for m in action.melds)
    act(late, P1, action)


def test_ai_opens_without_a_joker_it_does_not_need() -> None:
    # 115 points without the joker; with it ([j=r9 r10 r11 r12 r13]) 124. The joker stays in hand for a joker
    # finish (R101-52) rather than adding 9 points to an opening that already stands.
    state = scenario(hands={P1: "r10 r11 r12 r13 b13 k13 y13 b9 b10 b11 j y1 k5 r3"})
    action = ai(state, P1)
    assert isinstance(action, Open) and all("j" not in physical(m.tiles) for m in action.melds)
    state, _ = act(state, P1, action)
    assert "j" in state["hands"][P1]


def test_ai_keeps_a_joker_for_a_joker_finish() -> None:
    # Not [k5 k6 k7 j=k8] then y1 as the last discard (+101): the run without the joker, y1 onto [y2 y3 y4],
    # and the joker as the last discard, a joker finish that doubles the round (R101-52).
    state = scenario(hands={P1: "k5 k6 k7 y1 j"}, table=[("y2 y3 y4", P2)], status={P1: "series", P2: "series"})
    for _ in range(4):
        state, _ = act(state, P1, ai(state, P1))
        if state["round_over"]:
            break
    details = ENG.result(state).details
    assert details["joker_finish"] and details["multiplier"] == 2
