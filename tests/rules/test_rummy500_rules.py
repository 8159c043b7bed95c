"""Rules of shared/rules/rummy500.md beyond the worked examples: one test per reason code (R500-80),
every option (§9), the timeout auto-play (R500-27), setup, views and the match (§7-8)."""

from __future__ import annotations

import json

import pytest

from rules import SetupError
from rules.core.cards import card_deck
from rules.rummy500 import melds
from rules.rummy500.actions import Timeout
from tests.rules.rummy500_scenario import ENG, act, cards, rejected, run, scenario, set_

# ---- one test per reason code (R500-80); `rejected` also checks the state is unchanged ------------


def test_E_PHASE() -> None:  # R500-13/20/22/25/26
    take = scenario(hands={0: "4D 5D 6D 9S"}, market="2C")
    rejected(take, 0, "lay 4D 5D 6D", "E_PHASE")  # a lay before the take
    rejected(take, 0, "discard 9S", "E_PHASE")
    rejected(take, 0, "end", "E_PHASE")
    rejected(take, 0, "stop", "E_PHASE")  # the bank is not empty (R500-25)
    bank = scenario(hands={0: "4D 5D 6D 9S"}, phase="bank")
    rejected(bank, 0, "take bank", "E_PHASE")
    rejected(bank, 0, "end", "E_PHASE")  # after a bank take the turn ends with a discard
    market = scenario(hands={0: "4D 5D 9S"}, market="6D")
    market, _ = act(market, 0, "take market 6D; lay 4D 5D 6D")
    rejected(market, 0, "discard 9S", "E_PHASE")  # R500-33
    rejected(market, 0, "take bank", "E_PHASE")


def test_out_of_turn_is_E_PHASE() -> None:  # R500-26: "Only the player on turn may act (E_PHASE)"
    state = scenario(hands={1: "4D 5D 6D"})
    rejected(state, 1, "take bank", "E_PHASE")
    over, _ = act(scenario(hands={0: "4D 5D"}, market="6D"), 0, "take market 6D; lay 4D 5D 6D")
    assert ENG.current_seat(over) is None
    for seat in range(3):
        rejected(over, seat, "take bank", "E_PHASE")  # nobody is on turn after the round


def test_E_NOT_IN_HAND() -> None:  # R500-21
    state = scenario(hands={0: "4D 5D 9S"}, phase="bank")
    rejected(state, 0, "lay 4D 5D 6D", "E_NOT_IN_HAND")
    rejected(state, 0, "discard KS", "E_NOT_IN_HAND")
    rejected(state, 0, "lay 4D 4D 5D", "E_NOT_IN_HAND")  # one copy of each card


def test_E_INVALID_MELD() -> None:  # R500-41, R500-48
    state = scenario(hands={0: "QH KH AH 2H 5D 6D 8D 4C 5C 9S"}, phase="bank")
    for bad in ("QH KH AH", "KH AH 2H", "5D 6D 8D", "4C 5C", "9S 5D 4C"):
        rejected(state, 0, f"lay {bad}", "E_INVALID_MELD")


def test_E_NOT_ATTACHABLE() -> None:  # R500-42..44, R500-47
    table = [run(1, "5H 6H 7H", 1), set_(2, "9S 9H 9C 9D", 1), set_(3, "KS KH KC", 1)]
    state = scenario(hands={0: "10H 4S 3C 2H"}, table=table, phase="bank")
    rejected(state, 0, "lay 10H on S1", "E_NOT_ATTACHABLE")  # gap above 7H
    rejected(state, 0, "lay 4S on S1", "E_NOT_ATTACHABLE")  # wrong suit
    rejected(state, 0, "lay 3C on S3", "E_NOT_ATTACHABLE")  # wrong rank for the set
    rejected(state, 0, "lay 10H on S2", "E_NOT_ATTACHABLE")  # full base set


def test_E_NO_SUCH_MELD() -> None:  # R500-42..44
    state = scenario(hands={0: "8H 9S"}, table=[run(1, "5H 6H 7H", 1)], phase="bank")
    rejected(state, 0, "lay 8H on S2", "E_NO_SUCH_MELD")


def test_E_JOKER_RATIO() -> None:  # R500-46
    state = scenario(hands={0: "JK JK 7C 9S"}, table=[run(1, "2C 3C 4C", 1)], phase="bank")
    rejected(state, 0, "lay JK on S1", "E_JOKER_RATIO")
    rejected(state, 0, "lay JK JK 7C", "E_JOKER_RATIO")


def test_E_JOKER_CONFLICT_two_jokers_for_one_card() -> None:  # R500-51
    table = [run(1, "2C 3C JK", 1), set_(2, "8H 8S 8D", 1)]
    state = scenario(hands={0: "JK 5C 6C 9S"}, table=table, phase="bank")
    rejected(state, 0, "lay JK 5C 6C", "E_JOKER_CONFLICT")  # JK = 4C, which the table joker is already


def test_E_BURNED_lay_and_target() -> None:  # R500-35, R500-52
    table = [run(1, "JK 2D 3D", 1)]
    state = scenario(hands={0: "AH AS 9S"}, table=table, market="4C AD", phase="take")
    rejected(state, 0, "take market AD; lay AD AH AS", "E_BURNED")
    bank = scenario(hands={0: "AD AH AS 9S"}, table=table, phase="bank")
    rejected(bank, 0, "lay AD AH AS", "E_BURNED")
    new, _ = act(bank, 0, "discard AD")  # a burned card may be discarded (R500-52)
    assert new["market"][-1] == "AD"


def test_burned_card_may_come_along_in_a_take() -> None:  # R500-35
    table = [run(1, "JK 2D 3D", 1)]
    state = scenario(hands={0: "4S 5S 9H"}, table=table, market="6S AD 2C", options={"market_leave_one": False})
    new, _ = act(state, 0, "take market 6S; lay 4S 5S 6S")
    assert sorted(new["hands"][0]) == sorted(cards("9H AD 2C"))


def test_E_TARGET_NOT_LAID() -> None:  # R500-31
    state = scenario(hands={0: "3S 3D 4H 5H"}, market="3H 6H")
    rejected(state, 0, "take market 3H leave 6H", "E_TARGET_NOT_LAID")
    rejected(state, 0, "take market 3H leave 6H; lay 4H 5H 6H", "E_NOT_IN_HAND")


def test_E_NOT_IN_MARKET() -> None:  # R500-30/31
    state = scenario(hands={0: "3S 3D"}, market="3H")
    rejected(state, 0, "take market 3C; lay 3C 3S 3D", "E_NOT_IN_MARKET")
    rejected(state, 0, "take market #2; lay 3H 3S 3D", "E_NOT_IN_MARKET")


def test_E_BAD_LEAVE() -> None:  # R500-30
    state = scenario(hands={0: "3S 3D"}, market="4C 3H 9D")
    rejected(state, 0, "take market 3H leave 4C; lay 3H 3S 3D", "E_BAD_LEAVE")  # not after the target
    rejected(state, 0, "take market 3H; lay 3H 3S 3D", "E_BAD_LEAVE")  # one must stay
    newest = scenario(hands={0: "3S 3D"}, market="4C 3H")
    rejected(newest, 0, "take market 3H leave 4C; lay 3H 3S 3D", "E_BAD_LEAVE")  # nothing after the newest


def test_E_NO_DISCARD_LEFT() -> None:  # R500-24
    state = scenario(hands={0: "JK 4D 5D 6D"}, phase="bank")
    rejected(state, 0, "lay 4D 5D 6D", "E_NO_DISCARD_LEFT")
    new, _ = act(state, 0, "lay JK 4D 5D 6D")  # the whole hand goes down: out, with the bonus
    assert ENG.result(new).details["bonus"][0] == 10
    # After a market take nothing is discarded, so keeping only a joker is fine.
    market = scenario(hands={0: "JK 4D 5D"}, market="6D")
    new, _ = act(market, 0, "take market 6D; lay 4D 5D 6D")
    assert new["hands"][0] == ["JK"]


def test_E_JOKER_DISCARD() -> None:  # R500-54
    rejected(scenario(hands={0: "JK 2S"}, phase="bank"), 0, "discard JK", "E_JOKER_DISCARD")


def test_E_BANK_EMPTY() -> None:  # R500-25
    rejected(scenario(hands={0: "2S"}, bank=""), 0, "take bank", "E_BANK_EMPTY")


def test_E_PARSE_and_round_codes() -> None:
    from rules import IllegalAction

    with pytest.raises(IllegalAction) as err:
        ENG.parse("lay ZZ")
    assert err.value.code == "E_PARSE"
    state = ENG.new_game(3, seed=2)
    with pytest.raises(IllegalAction) as err:
        ENG.next_round(state)
    assert err.value.code == "E_ROUND_IN_PLAY"


# ---- more rules ---------------------------------------------------------------------------------


def test_lone_joker_drawing_joker_ends_turn() -> None:  # R500-24
    state = scenario(hands={0: "JK"}, bank="JK 2S 3S")
    new, events = act(state, 0, "take bank")
    assert new["hands"][0] == ["JK", "JK"] and ENG.current_seat(new) == 1 and new["market"] == []
    assert any(e.type == "NoDiscard" for e in events)


def test_pending_set_joker_fixed_by_fourth_card() -> None:  # R500-43, R500-53
    state = scenario(hands={0: "8H 8S JK 2C", 1: "8D 9D"}, phase="bank")
    state, _ = act(state, 0, "lay 8H 8S JK")
    assert melds.burned_cards(state["table"]) == set()  # JK ∈ {8D, 8C}: nothing burned yet
    assert melds.laid_points(state["table"], 3)[0] == 24
    state["turn"], state["phase"] = 1, "bank"
    state, _ = act(state, 1, "lay 8D on S1")
    assert melds.burned_cards(state["table"]) == {"8C"}


def test_two_jokers_in_a_set_burn_both_missing_suits() -> None:  # R500-50, R500-52
    state = scenario(hands={0: "8H 8S JK JK 2C"}, phase="bank")
    state, _ = act(state, 0, "lay 8H 8S JK JK")
    assert melds.burned_cards(state["table"]) == {"8D", "8C"}


def test_fourth_card_and_branch_in_one_placement_and_one_branch_only() -> None:  # R500-44
    table = [set_(1, "5S 5H 5C", 1)]
    state = scenario(hands={0: "5D 6D 7D 4D 9S"}, table=table, phase="bank")
    new, _ = act(state, 0, "lay 5D 6D on S1")
    assert melds.find(new["table"], 2)["cards"] == ["5D", "6D"]
    rejected(new, 0, "lay 4D on S1", "E_NOT_ATTACHABLE")  # the set already has its branch: name S2
    new, _ = act(new, 0, "lay 4D on S2")
    assert melds.find(new["table"], 2)["cards"] == ["4D", "5D", "6D"]


def test_creator_may_extend_own_structure_and_extension_of_extension() -> None:  # R500-42, R500-45
    state = scenario(hands={0: "5H 6H 7H 8H 9H 2C"}, phase="bank")
    state, _ = act(state, 0, "lay 5H 6H 7H")
    state, _ = act(state, 0, "lay 8H on S1")
    state, _ = act(state, 0, "lay 9H on S1")
    assert melds.find(state["table"], 1)["cards"] == cards("5H 6H 7H 8H 9H")


def test_scores_counted_for_layer_not_structure_owner() -> None:  # R500-45
    state = scenario(hands={1: "8H 2C"}, table=[run(1, "5H 6H 7H", 0)], turn=1, phase="bank")
    state, _ = act(state, 1, "lay 8H on S1")
    assert melds.laid_points(state["table"], 3) == [18, 8, 0]


def test_market_by_position_and_word_market_optional() -> None:  # R500-30, §13
    state = scenario(hands={0: "3S 3D"}, market="4C 3H 9D")
    by_pos, _ = act(state, 0, "take #2 leave 9D; lay 3H 3S 3D")
    by_card, _ = act(state, 0, "take market 3H leave 9D; lay 3H 3S 3D")
    assert by_pos["market"] == by_card["market"] == ["4C", "9D"]


def test_view_privacy_and_market_preview() -> None:  # R500-06
    state = scenario(hands={0: "3S 3D 9C"}, market="4C 3H 9D")
    view = ENG.view(state, 0)
    text = json.dumps(view)
    assert '"hands"' not in text and '"seed"' not in text and '"deck"' not in text
    assert view["bank"] == len(state["bank"]) and "hand" not in ENG.view(state, None)
    takes = {t["pos"]: t for t in view["takes"]}
    assert takes[2]["best"]["cards"] == cards("3S 3H 3D") or sorted(takes[2]["best"]["cards"]) == sorted(
        cards("3S 3H 3D"))
    assert takes[2]["must_leave"] and takes[2]["after"] == ["9D"]
    assert takes[1]["best"] is None
    assert ENG.view(state, 1)["takes"] is None  # only for the seat to take


# ---- options (§9) -------------------------------------------------------------------------------


def test_option_ranges_and_defaults() -> None:
    state = ENG.new_game(3, seed=1)
    assert state["options"] == {"target_score": 500, "go_out_bonus": 10, "jokers": 2, "hand_size": 9,
                                "market_leave_one": True, "joker_hand_penalty": 15, "allow_draw": False,
                                "turn_timer_s": 0, "first_dealer": "random", "hints": False}
    for bad in ({"target_score": 99}, {"target_score": 1001}, {"go_out_bonus": 51}, {"jokers": 3},
                {"hand_size": 6}, {"hand_size": 11}, {"joker_hand_penalty": -1}, {"turn_timer_s": 10},
                {"turn_timer_s": 601}, {"first_dealer": 0}, {"first_dealer": 4}, {"colour": 1}):
        with pytest.raises(SetupError):
            ENG.new_game(3, options=bad, seed=1)
    with pytest.raises(SetupError):
        ENG.new_game(5, seed=1)
    with pytest.raises(SetupError):
        ENG.new_game(3, seed=1, deck=["AS", "AS"])


def test_option_jokers_and_hand_size() -> None:  # R500-01, R500-12
    state = ENG.new_game(2, options={"jokers": 0, "hand_size": 7}, seed=4)
    assert sorted(ENG.all_items(state)) == sorted(card_deck(jokers=0))
    assert sorted(len(h) for h in state["hands"]) == [7, 8]
    assert len(state["bank"]) == 52 - 15


def test_option_first_dealer_and_rotation() -> None:  # R500-11, R500-73
    state = ENG.new_game(3, options={"first_dealer": 2}, seed=4)
    assert state["dealer"] == 1 and ENG.current_seat(state) == 1 and len(state["hands"][1]) == 10
    probe = scenario(hands={1: "4D 5D"}, market="6D", turn=1, dealer=1)
    over, _ = act(probe, 1, "take market 6D; lay 4D 5D 6D")
    nxt = ENG.next_round(over)
    assert nxt["dealer"] == 2 and nxt["round"] == 2 and nxt["table"] == [] and nxt["market"] == []
    assert sorted(ENG.all_items(nxt)) == sorted(card_deck(jokers=2))
    random_dealers = {ENG.new_game(3, seed=s)["dealer"] for s in range(20)}
    assert random_dealers == {0, 1, 2}


def test_option_go_out_bonus_and_joker_penalty() -> None:  # R500-56, R500-63
    state = scenario(hands={0: "4D 5D", 1: "JK 2C"}, bank="6D 9S", options={"go_out_bonus": 25,
                                                                              "joker_hand_penalty": 40})
    state, _ = act(state, 0, "take bank")
    state, _ = act(state, 0, "lay 4D 5D 6D")
    result = ENG.result(state)
    assert result.round_scores[0] == 15 + 25
    assert result.details["hand_values"][1] == 42


def test_option_target_score_and_allow_draw() -> None:  # R500-71, R500-72
    base = scenario(hands={0: "2H"}, bank="", options={"target_score": 100, "allow_draw": True})
    probe, _ = act(base, 0, "stop")
    scores = probe["round_over"]["scores"]
    base["totals"] = [100 - scores[0], 100 - scores[1], 0]
    new, _ = act(base, 0, "stop")
    result = ENG.result(new)
    assert result.match_over and result.match_winners == [0, 1]
    from rules import IllegalAction

    with pytest.raises(IllegalAction) as err:
        ENG.next_round(new)
    assert err.value.code == "E_MATCH_OVER"


def test_option_timer_and_timeout_draws_and_discards_the_drawn_card() -> None:  # R500-27
    ENG.new_game(3, options={"turn_timer_s": 30}, seed=1)
    assert ENG.timeout_action(ENG.new_game(3, seed=1)).service_only
    state = scenario(hands={0: "4D 5D 6D KS"}, bank="2C 3S")
    new, _ = act(state, 0, Timeout())
    assert new["market"] == ["2C"] and ENG.current_seat(new) == 1 and len(new["table"]) == 0


def test_timeout_first_turn_discards_highest() -> None:  # R500-27
    state = ENG.new_game(3, seed=1, deck=cards("2S 3H KD KS 5C 6C 7C 8C 9C JK"))
    new, _ = act(state, 0, Timeout())
    assert new["market"] == ["KS"]  # K of spades before K of diamonds (suit order S H D C)


def test_timeout_after_market_take_ends_turn_and_empty_bank_ends_round() -> None:  # R500-27
    state = scenario(hands={0: "4D 5D 9S"}, market="6D")
    state, _ = act(state, 0, "take market 6D; lay 4D 5D 6D")
    new, _ = act(state, 0, Timeout())
    assert ENG.current_seat(new) == 1 and new["market"] == []
    empty = scenario(hands={0: "2S"}, bank="")
    new, _ = act(empty, 0, Timeout())
    assert ENG.result(new).details["reason"] == "stop"


def test_timeout_after_drawn_card_was_laid_discards_highest() -> None:  # R500-27
    state = scenario(hands={0: "4D 5D 2C KH"}, bank="6D 3S")
    state, _ = act(state, 0, "take bank")
    state, _ = act(state, 0, "lay 4D 5D 6D")
    new, _ = act(state, 0, Timeout())
    assert new["market"] == ["KH"]


def test_json_round_trip_and_no_input_mutation() -> None:
    state = ENG.new_game(4, seed=9)
    before = json.dumps(state, sort_keys=True)
    seat = ENG.current_seat(state)
    hand = state["hands"][seat]
    ENG.apply(state, seat, ENG.parse(f"discard {next(c for c in hand if c != 'JK')}"))
    assert json.dumps(state, sort_keys=True) == before
    assert json.loads(json.dumps(state)) == state


@pytest.mark.parametrize(
    ("meld", "value", "burned"),
    [("9S 9H 9C", 27, set()), ("9S 9H 9C 9D", 36, set()), ("JC QC KC", 30, set()), ("AH 2H 3H", 20, set()),
     ("6C JK 8C", 21, {"7C"}), ("JK 7C JK 9C", 30, {"6C", "8C"}), ("8H 8S JK", 24, set())],
)
def test_R500_48_valid_placements(meld: str, value: int, burned: set[str]) -> None:  # R500-48
    state = scenario(hands={0: f"{meld} 2D"}, phase="bank")
    new, events = act(state, 0, f"lay {meld}")
    assert [e.data["value"] for e in events if e.type == "CardsLaid"] == [value]
    assert melds.burned_cards(new["table"]) == burned


@pytest.mark.parametrize(("meld", "code"), [("QH KH AH", "E_INVALID_MELD"), ("KH AH 2H", "E_INVALID_MELD"),
                                            ("5D 6D 8D", "E_INVALID_MELD"), ("4C 5C", "E_INVALID_MELD"),
                                            ("JK 7C JK", "E_JOKER_RATIO")])
def test_R500_48_invalid_placements(meld: str, code: str) -> None:  # R500-48
    rejected(scenario(hands={0: f"{meld} 2D"}, phase="bank"), 0, f"lay {meld}", code)


@pytest.mark.parametrize("cards_", ["8H", "8H 9H", "4H", "3H 4H"])
def test_R500_42_run_extensions(cards_: str) -> None:  # R500-42 example
    state = scenario(hands={0: "3H 4H 8H 9H 2C"}, table=[run(1, "5H 6H 7H", 1)], phase="bank")
    new, _ = act(state, 0, f"lay {cards_} on S1")
    assert set(cards(cards_)) <= set(melds.find(new["table"], 1)["cards"])
