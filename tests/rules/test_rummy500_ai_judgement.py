"""Issue 28's Rummy 500 judgement error on a constructed position: the AI took deep into the market
for a small lay and was left holding what it brought in (R500-30/31, R500-62)."""

from __future__ import annotations

from random import Random

from rules.rummy500.actions import Lay, TakeMarket
from rules.rummy500.ai import DEEP_RATIO, choose_action
from rules.rummy500.hints import hint
from rules.rummy500.melds import card_value
from tests.rules.rummy500_scenario import ENG, act, run, scenario

# The round-5 market: 8H at #1 fits the heart run S9, and eight cards follow it besides the ace.
MARKET = "8H 2H 5C KD 6D AS 5D KS 6H 8C"
TABLE = [run(1, "2S 3S 4S", 1), run(9, "9H 10H JH", 1)]


def position(hand: str, bank: int = 25) -> dict:
    state = scenario(players=2, hands={0: hand}, table=TABLE, market=MARKET, turn=0)
    state["bank"] = state["bank"][:bank]  # early in the round: the bank still holds 25 cards
    return state


def test_no_deep_take_for_a_small_lay() -> None:
    # `take market #1 leave AS; lay 8H on S9` lays 8 and brings 2H 5C KD 6D 5D KS 6H 8C (52 points) into a hand
    # that can lay only 4D 5D 6D of them: 41 points stay in hand for 23 laid. The previous AI took it (it priced a
    # held card at a third of its value this early). The ace onto S1 lays 15 and keeps 5D 6H 8C (19).
    state = position("3C 4D 7S 9C JD QC 10S")
    view = ENG.view(state, 0)
    action = choose_action(view, Random(0))
    assert action == TakeMarket(pos=6, leave="KS", lays=(Lay(cards=("AS",), on=1),))
    kept = ["5D", "6H", "8C"]
    assert sum(card_value(c) for c in kept) <= DEEP_RATIO * card_value("AS")
    act(state, 0, action)
    assert hint(view).action == action  # the hint is the AI's move


def test_a_deep_take_that_the_hand_lays_is_still_made() -> None:
    # With KH KC 5H 5S in hand the same take lays the kings and the fives at once (KD KS, 5C 5D come along): it
    # brings in far more than it keeps, so it stays the move.
    state = position("KH KC 5H 5S 7C 3D")
    action = choose_action(ENG.view(state, 0), Random(0))
    assert isinstance(action, TakeMarket) and action.pos == 1 and action.leave == "AS"
    state, _ = act(state, 0, action)
    for _ in range(6):  # the market phase: it lays what the take made possible, then ends the turn
        if state["phase"] != "market":
            break
        state, _ = act(state, 0, choose_action(ENG.view(state, 0), Random(0)))
    assert not {"KD", "KS", "5C", "5D"} & set(state["hands"][0])
