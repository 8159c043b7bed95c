"""The AI and the greedy baseline: legal moves from a seat's view, going out when it can, keeping
wilds, taking useful discards."""

from __future__ import annotations

from random import Random

import pytest

from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.ai import choose_action, choose_greedy_action
from tests.rules.three_thirteen_scenario import ENG, act, cards, scenario

POLICIES = [choose_action, choose_greedy_action]


@pytest.mark.parametrize("policy", POLICIES)
def test_goes_out_when_it_can(policy) -> None:  # noqa: ANN001  (T13-23)
    state = scenario(hands={0: "8D 8S 8H KC"}, turn=0, phase="discard")
    action = policy(ENG.view(state, 0), Random(1))
    assert action == Discard(card="KC")
    state = scenario(hands={0: "8D 8S 8H 2C"}, turn=0, phase="discard")  # not the costliest: the loose one
    assert policy(ENG.view(state, 0), Random(1)) == Discard(card="2C")
    state = scenario(round_number=2, hands={0: "7D 7S 7H 7C QD"}, turn=0, phase="discard")
    action = policy(ENG.view(state, 0), Random(1))
    assert action == Discard(card="QD")
    # Fully melded 14 cards: discarding a card of a 4-set keeps the hand out.
    state = scenario(round_number=2, hands={0: "7D 7S 7H 7C 2D"}, turn=0, phase="discard")
    action = policy(ENG.view(state, 0), Random(1))
    assert isinstance(action, Discard)
    state, _ = act(state, 0, action)
    assert state["out"] == 0


@pytest.mark.parametrize("policy", POLICIES)
def test_takes_wilds_and_useful_cards(policy) -> None:  # noqa: ANN001
    state = scenario(hands={0: "2C 7D KS"}, discard="3H", turn=0)  # round 1: 3s wild
    assert policy(ENG.view(state, 0), Random(1)) == TakeDiscard()
    state = scenario(hands={0: "KC KD 2S"}, discard="KH", turn=0)
    assert policy(ENG.view(state, 0), Random(1)) == TakeDiscard()
    state = scenario(hands={0: "KC KD 2S"}, discard="9H", turn=0)
    assert policy(ENG.view(state, 0), Random(1)) == DrawStock()


@pytest.mark.parametrize("policy", POLICIES)
def test_never_discards_the_taken_card_or_a_wild(policy) -> None:  # noqa: ANN001  (T13-22)
    state = scenario(round_number=3, hands={0: "5C 9H KD QS 2C"}, discard="KS", turn=0)
    state, _ = act(state, 0, "take")
    action = policy(ENG.view(state, 0), Random(1))
    assert isinstance(action, Discard) and action.card not in ("KS", "5C")
    act(state, 0, action)


def test_ai_keeps_pairs_over_lonely_cards() -> None:
    state = scenario(round_number=3, hands={0: "9H 9S 2C 7D KS QD"}, turn=0, phase="discard")
    action = choose_action(ENG.view(state, 0), Random(1))
    assert action.card in ("KS", "QD")


@pytest.mark.parametrize("seed", range(6))
def test_ai_plays_legal_rounds(seed: int) -> None:
    state = ENG.new_game(2 + seed % 5, options={"rounds": 3, "jokers": 2 * (seed % 3), "ace_high": seed % 2 == 1},
                         seed=seed)
    for step in range(3000):
        seat = ENG.current_seat(state)
        if seat is None:
            if state["match_over"]:
                return
            state = ENG.next_round(state)
            continue
        view = ENG.view(state, seat)
        policy = choose_greedy_action if seat % 2 else choose_action
        state, _ = act(state, seat, policy(view, Random(step)))
    raise AssertionError("no end")


def test_ai_uses_only_the_view() -> None:
    state = scenario(hands={0: "2C 7D KS"}, turn=0)
    other = dict(state)
    other["hands"] = [state["hands"][0], cards("AH AD AS"), cards("KH KD QS")]
    assert ENG.ai_action(state, 0, Random(1)) == ENG.ai_action(other, 0, Random(1))


def test_stand_in_is_the_ai() -> None:  # an away player's turns: the AI (the spec names no other policy)
    state = scenario(hands={0: "2C 7D KS"}, discard="3H", turn=0)
    assert ENG.stand_in_action(state, 0, Random(1)) == ENG.ai_action(state, 0, Random(1)) == TakeDiscard()
