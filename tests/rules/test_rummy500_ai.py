"""The Rummy 500 AI and the greedy baseline: always legal, values market takes, goes out for the
bonus, never strands a joker it could lay; decisions come from the seat's view only."""

from __future__ import annotations

from random import Random

import pytest

from rules.rummy500.actions import Discard, Lay, TakeBank, TakeMarket
from rules.rummy500.ai import choose_action, choose_greedy_action
from tests.rules.rummy500_scenario import ENG, act, run, scenario, set_


def ai(state: dict, seat: int) -> object:
    return choose_action(ENG.view(state, seat), Random(0))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ai_and_greedy_play_legal_matches(players: int) -> None:
    for seed in range(2):
        state = ENG.new_game(players, seed=seed, options={"target_score": 150})
        policies = [choose_action if s % 2 == 0 else choose_greedy_action for s in range(players)]
        for _ in range(3000):
            seat = ENG.current_seat(state)
            if seat is None:
                result = ENG.result(state)
                if result.match_over:
                    break
                state = ENG.next_round(state)
                continue
            state, _ = act(state, seat, policies[seat](ENG.view(state, seat), Random(seed)))
        else:
            raise AssertionError("match did not end")


def test_ai_takes_a_rich_market_card() -> None:  # T-04's take is worth 64 on the table
    state = scenario(hands={2: "8D 10D KH 5S 2C"}, market="4C 7D KS KC 9D 3H", turn=2)
    action = ai(state, 2)
    assert isinstance(action, TakeMarket) and action.pos == 2 and action.leave == "3H"
    new, _ = act(state, 2, action)
    assert "7D" not in new["hands"][2]


def test_ai_declines_a_take_that_floods_the_hand_late() -> None:
    state = scenario(hands={0: "3C 4C 9H 2S"}, market="2C KS QH KD QD JS", bank="5H 6S 7D")
    assert isinstance(ai(state, 0), TakeBank)


def test_ai_leaves_the_burned_card() -> None:  # T-08 (b): leave AD, it can never be laid
    state = scenario(hands={0: "5S 6S 8S"}, table=[run(1, "JK 2D 3D", 1)], market="KD 7S AD 4S 3C 4H")
    action = ai(state, 0)
    assert isinstance(action, TakeMarket) and action.leave == "AD"


def test_ai_goes_out_for_the_bonus() -> None:  # R500-63
    state = scenario(hands={0: "4D 5D 6D 7D"}, phase="bank")
    action = ai(state, 0)
    assert isinstance(action, Lay) and len(action.cards) == 4
    new, _ = act(state, 0, action)
    assert ENG.result(new).details["bonus"][0] == 10


def test_ai_lays_a_joker_rather_than_keeping_it() -> None:  # R500-56: a joker in hand costs 15
    state = scenario(hands={0: "JK 9H 2C"}, table=[run(1, "6H 7H 8H", 1)], phase="bank")
    action = ai(state, 0)
    assert isinstance(action, Lay) and "JK" in action.cards


def test_ai_keeps_a_discard_and_never_discards_a_joker() -> None:  # R500-24, R500-54
    state = scenario(hands={0: "JK 4D 5D 6D"}, table=[set_(1, "9H 9S 9C", 1)], phase="bank")
    for _ in range(4):
        action = ai(state, 0)
        assert not (isinstance(action, Discard) and action.card == "JK")
        state, _ = act(state, 0, action)
        if ENG.current_seat(state) != 0:
            break


def test_ai_discards_burned_cards_first() -> None:  # R500-52
    state = scenario(hands={0: "AD 2S 9H 9C"}, table=[run(1, "JK 2D 3D", 1)], phase="bank")
    assert ai(state, 0) == Discard(card="AD")


def test_greedy_always_banks_and_discards_its_highest_card() -> None:
    state = scenario(hands={0: "3C 4C 9H 2S"}, market="2C 5C")
    assert choose_greedy_action(ENG.view(state, 0), Random(0)) == TakeBank()
    bank = scenario(hands={0: "3C 4C 9H 2S KD"}, phase="bank")
    assert choose_greedy_action(ENG.view(bank, 0), Random(0)) == Discard(card="KD")


def test_ai_uses_only_its_view() -> None:
    state = ENG.new_game(3, seed=5)
    seat = ENG.current_seat(state)
    other = dict(state)
    other["hands"] = [h if s == seat else list(reversed(h)) for s, h in enumerate(state["hands"])]
    other["bank"] = list(reversed(state["bank"]))
    assert ENG.ai_action(state, seat, Random(1)) == ENG.ai_action(other, seat, Random(2))
