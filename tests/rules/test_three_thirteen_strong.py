"""The Three-Thirteen AI reading the public record of the pile (cards buried there or held by an
opponent cannot come from the stock; the next seat's likely takes price its discards): the former
strong level, still measured beside the others in bench/bench_ai_matches.py. The strong level is
now the search of `ai_search` (tests/rules/test_search_pimc.py)."""

from __future__ import annotations

from collections import Counter
from random import Random

from rules.three_thirteen import ai_feeding, ai_search, ai_strong
from rules.three_thirteen.actions import Discard
from rules.three_thirteen.ai_expect import unseen
from rules.three_thirteen.levels import POLICIES
from tests.rules.three_thirteen_scenario import ENG, act, play_match, scenario


def test_the_strong_level_is_the_search() -> None:
    assert POLICIES["strong"] is ai_search.choose_strong_action
    assert POLICIES["strong"] is not POLICIES["normal"]


def _two_turns() -> dict:
    state = scenario(players=2, hands={0: "KC KD 2S", 1: "5H QS 9C"}, discard="7H", stock="4C 8D 9D", turn=1)
    state, _ = act(state, 1, "take")  # seat 1 takes 7H and throws 9C
    state, _ = act(state, 1, "discard 9C")
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 2S")
    state, _ = act(state, 1, "draw")  # seat 1 passes over 2S
    state, _ = act(state, 1, "discard 8D")
    return state


def test_cards_on_the_pile_or_taken_by_an_opponent_are_out_of_the_stock() -> None:
    view = ENG.view(_two_turns(), 0)
    gone = ai_feeding.out_of_stock(view)
    assert gone == Counter({"7H": 1, "9C": 1, "2S": 1, "8D": 1})  # 7H: held by seat 1; the rest: the pile
    pool = dict(unseen(view, gone))
    before = dict(unseen(view))
    assert pool["9C"] == before["9C"] - 1 and pool["7H"] == 1 and "8D" in before and pool["8D"] == 1


def test_the_last_turn_of_a_seat_is_what_it_threw_and_passed_over() -> None:
    log = ENG.view(_two_turns(), 0)["pile_log"]
    assert ai_feeding.last_turn(log, 1) == ("8D", "2S")
    assert ai_feeding.last_turn(log[:2], 1) == ("9C", None)  # it took the top card: it passed nothing
    assert ai_feeding.last_turn(log, 0) == ("2S", "9C")


def test_a_hand_takes_a_card_that_melds_and_cuts_its_deadwood() -> None:  # T13-30/31/37
    hand, wild = ["7H", "8H", "KS"], 3
    assert ai_feeding.takes(hand, "9H", wild, False, 7 + 8 + 13)
    assert not ai_feeding.takes(hand, "2C", wild, False, 7 + 8 + 13)  # nothing near it
    assert not ai_feeding.takes(hand, "10S", wild, False, 7 + 8 + 13)  # near KS but no meld
    assert ai_feeding.takes(hand, "3D", wild, False, 7 + 8 + 13)  # a wild melds anything


def test_a_card_next_to_what_the_next_seat_took_is_likelier_taken() -> None:
    # Seat 1 took 7H and 6H from the pile: it holds both, so 5H or 8H completes a run for it.
    state = scenario(players=2, hands={0: "KC KD 2S 4D", 1: "QS 9C JD 10S"}, discard="7H", stock="4C 8D 9D AS", turn=1,
                     round_number=2)
    state, _ = act(state, 1, "take")
    state, _ = act(state, 1, "discard 9C")
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 0, "discard 2S")
    view = ENG.view(state, 0)
    view["pile_log"] = [*view["pile_log"][:-1], [1, "take", "6H"], [1, "discard", "JD"], view["pile_log"][-1]]
    chances = ai_feeding.take_chances(view, ["8H", "KC"], Random(3))
    assert chances["8H"] >= 0.9 and chances["8H"] > chances["KC"]


def test_strong_plays_legal_deterministic_rounds() -> None:
    def move(step: int, state: dict, seat: int) -> dict:
        view = ENG.view(state, seat)
        action = ai_strong.choose_strong_action(view, Random(step))
        assert ai_strong.choose_strong_action(view, Random(step)) == action  # replays stay identical
        if isinstance(action, Discard):
            assert action.card in view["hand"]
        return act(state, seat, action)[0]

    for seed in range(3):
        play_match(ENG.new_game(2 + seed, options={"rounds": 4, "jokers": 2 * (seed % 2)}, seed=seed), move)
