"""The public record of the discard pile (`pile_log`): what every player at the table saw turned up,
thrown and taken. It agrees with the hidden pile at every step, holds only public facts, and a state
stored before it existed still plays."""

from __future__ import annotations

import json
from collections import Counter
from random import Random

from rules.three_thirteen.ai import choose_action, choose_greedy_action
from rules.three_thirteen.pile_record import known_held, pile_cards, thrown
from tests.rules.three_thirteen_scenario import ENG, act, play_match, scenario


def test_the_record_follows_the_pile_through_a_match() -> None:
    def move(step: int, state: dict, seat: int) -> dict:
        view = ENG.view(state, None)
        assert pile_cards(view["pile_log"]) == state["discard"]
        for s, hand in enumerate(state["hands"]):
            assert not known_held(view["pile_log"], s) - Counter(hand)  # held for sure
        policy = choose_action if seat % 2 else choose_greedy_action
        return act(state, seat, policy(ENG.view(state, seat), Random(step)))[0]

    for seed in range(3):
        play_match(ENG.new_game(2 + seed, options={"rounds": 4}, seed=seed), move)


def test_takes_and_throws_are_recorded_per_seat() -> None:  # T13-20/21
    state = scenario(players=2, hands={0: "KC KD 2S", 1: "5H 6H 9C"}, discard="KH", stock="4C 8D", turn=0)
    state, _ = act(state, 0, "take")
    state, _ = act(state, 0, "discard 2S")
    state, _ = act(state, 1, "take")
    state, _ = act(state, 1, "discard 9C")
    log = ENG.view(state, 0)["pile_log"]
    assert log == [[0, "take", "KH"], [0, "discard", "2S"], [1, "take", "2S"], [1, "discard", "9C"]]
    assert known_held(log, 0) == Counter({"KH": 1}) and known_held(log, 1) == Counter({"2S": 1})
    assert thrown(log, 1) == ["9C"] and pile_cards(log) == ["9C"]
    assert json.loads(json.dumps(state)) == state


def test_a_rebuild_leaves_only_the_top_card_on_the_pile() -> None:  # T13-26
    state = scenario(players=2, hands={0: "KC KD 2S"}, discard="4C 8D 9S", stock="", turn=0)
    state, _ = act(state, 0, "draw")
    log = ENG.view(state, 1)["pile_log"]
    assert log[-1] == [0, "rebuild", "9S"] and pile_cards(log) == ["9S"]


def test_a_state_stored_before_the_record_still_plays() -> None:
    state = ENG.new_game(2, seed=4)
    del state["pile_log"]
    assert ENG.view(state, 0)["pile_log"] == []
    seat = ENG.current_seat(state)
    state, _ = ENG.apply(state, seat, ENG.parse("draw"))
    card = state["hands"][seat][0]
    state, _ = ENG.apply(state, seat, ENG.parse(f"discard {card}"))
    assert ENG.view(state, None)["pile_log"] == [[seat, "discard", card]]
    assert json.loads(json.dumps(state)) == state
