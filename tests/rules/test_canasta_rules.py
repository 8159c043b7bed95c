"""Rules beyond the worked examples: every reason code (state unchanged), the D-24 check order,
setup and options, draws, views and privacy, round and match flow."""

from __future__ import annotations

import json

import pytest

from rules import SetupError
from rules.canasta import melds as m
from rules.canasta.actions import Timeout
from rules.canasta.stock import split_stock, stock_count, stock_order
from rules.core.tiles import tile_set
from tests.rules.canasta_scenario import ENG, act, event, meld_of, rejected, scenario, stacked_deck, tiles

A, B = 0, 1
P1, P2, P3, P4 = 0, 1, 2, 3


# ---- one test per reason code (CAN-68), each asserting the code and an unchanged state -----------


def test_e_parse() -> None:
    from rules import IllegalAction

    with pytest.raises(IllegalAction) as err:
        ENG.parse("fly away")
    assert err.value.code == "E_PARSE"


def test_e_not_your_turn() -> None:
    state = scenario(hands={P2: "r4 b4 k4"}, turn=P1)
    rejected(state, P2, "discard r4", "E_NOT_YOUR_TURN")


@pytest.mark.parametrize(("phase", "command"), [
    ("draw", "discard r4"), ("draw", "meld r5 b5 k5"), ("draw", "add 8 r8"), ("draw", "open r5 b5 k5"),
    ("play", "draw"), ("play", "take with r5 b5"),
])
def test_e_phase(phase: str, command: str) -> None:
    state = scenario(hands={P1: "r4 r5 b5 k5 r8 y9"}, melds={A: ["b8 k8 y8"]}, pile="k5", turn=P1, phase=phase)
    rejected(state, P1, command, "E_PHASE")


def test_e_not_in_hand() -> None:
    state = scenario(hands={P1: "r4 r5 b5 k9 y9"}, melds={A: ["b8 k8 y8"]}, turn=P1)
    err = rejected(state, P1, "meld r5 b5 k5", "E_NOT_IN_HAND")
    assert err.params["tiles"] == ["k5"]
    rejected(state, P1, "add 8 r8", "E_NOT_IN_HAND")
    rejected(state, P1, "discard j", "E_NOT_IN_HAND")
    # Copies are counted: one r5 in hand cannot be used twice.
    rejected(state, P1, "meld r5 r5 b5", "E_NOT_IN_HAND")


@pytest.mark.parametrize(("meld", "reason"), [
    ("r8 j k2", "canasta_too_few_naturals"), ("r8 b8 y2 j", "canasta_too_few_naturals"), ("8x5 r2 b2 j j", "canasta_too_many_wilds"),
    ("r2 j j", "canasta_twos_jokers"), ("r2 b2 j j", "canasta_twos_jokers"), ("b3 k3 b3", "canasta_threes"), ("r8 b8", "too_short"),
    ("r8 b9 k8", "canasta_wrong_number"),
])
def test_e_invalid_meld_can27(meld: str, reason: str) -> None:
    # CAN-20..23, CAN-27's invalid rows.
    state = scenario(hands={P1: meld + " r4 r4"}, turn=P1)
    err = rejected(state, P1, "meld " + " ".join(tiles(meld)), "E_INVALID_MELD")
    assert err.params["reason"] == reason


@pytest.mark.parametrize(("meld", "score"), [
    ("r8 b8 k8", 15), ("r8 r8 y2", 30), ("r8 b8 k8 y2 j", 85), ("r1 b1 k1", 75), ("r2 b2 k2", 60), ("r2 b2 j", 90),
])
def test_valid_melds_can27(meld: str, score: int) -> None:
    ts = tiles(meld)
    number = m.meld_number(ts)
    assert number is not None and m.meld_problem(number, ts) is None and m.count_value(ts) == score
    state = scenario(hands={P1: meld + " r4 r4"}, turn=P1)
    assert meld_of(act(state, P1, f"meld {meld}")[0], A, number) == sorted(ts)


def test_three_jokers_in_twos_meld_only_via_button() -> None:
    assert m.meld_problem(2, tiles("r2 b2 k2 y2 j j j")) == "canasta_twos_jokers"


def test_threes_never_join_a_meld() -> None:
    # CAN-23
    state = scenario(hands={P1: "b3 r4 r4 k9"}, melds={A: ["r8 b8 k8"]}, turn=P1)
    err = rejected(state, P1, "add 8 b3", "E_INVALID_MELD")
    assert err.params["reason"] == "canasta_threes"
    rejected(state, P1, "add 3 b3", "E_NO_SUCH_MELD")


def test_e_not_opened() -> None:
    state = scenario(hands={P2: "r6 b6 k6 r4"}, melds={}, opened=(True, False), turn=P2)
    rejected(state, P2, "add 8 r6", "E_NOT_OPENED")


def test_e_already_opened() -> None:
    # CAN-39 / D-23
    state = scenario(hands={P1: "r6 b6 k6 r4 b4"}, turn=P1)
    rejected(state, P1, "open r6 b6 k6", "E_ALREADY_OPENED")


def test_e_threshold() -> None:
    state = scenario(hands={P1: "r6 b6 k6 r4 b4"}, opened=(False, True), turn=P1)
    assert rejected(state, P1, "open r6 b6 k6", "E_THRESHOLD").params == {"value": 15, "required": 50}


def test_e_duplicate_number_within_a_batch() -> None:
    state = scenario(hands={P1: "r6 b6 k6 y6 r6 b6 r4 b4"}, turn=P1)
    rejected(state, P1, "meld r6 b6 k6 | y6 r6 b6", "E_DUPLICATE_NUMBER")
    state = scenario(hands={P1: "r13 k13 r1 b1 y1 r9"}, pile="b13", opened=(False, True), turn=P1, phase="draw")
    rejected(state, P1, "take with r13 k13 | r1 b1 y1 | y13 r13 j", "E_NOT_IN_HAND")


def test_e_duplicate_number_in_a_take() -> None:
    state = scenario(hands={P1: "r13 k13 y13 b13 j r9 b9 k9"}, melds={A: ["r9 b9 k9"]}, pile="b13 ", turn=P1,
                     phase="draw")
    rejected(state, P1, "take with r13 k13 | r9 b9 k9", "E_DUPLICATE_NUMBER")
    rejected(state, P1, "take with r13 k13 | y13 b13 j", "E_DUPLICATE_NUMBER")


def test_e_not_own_meld_and_no_such_meld() -> None:
    state = scenario(hands={P1: "r8 r9 r4 b4"}, melds={A: ["b8 k8 y8"], B: ["b9 k9 y9"]}, turn=P1)
    rejected(state, P1, "add B:9 r9", "E_NOT_OWN_MELD")
    rejected(state, P1, "add 9 r9", "E_NO_SUCH_MELD")
    assert meld_of(act(state, P1, "add A:8 r8")[0], A, 8) == sorted(tiles("r8 b8 k8 y8"))


def test_e_pile_blocked_when_empty() -> None:
    state = scenario(hands={P1: "r8 b8 r4"}, turn=P1, phase="draw")
    assert rejected(state, P1, "take with r8 b8", "E_PILE_BLOCKED").params == {"top": None}


def test_e_no_natural_pair_among_named_tiles() -> None:
    # Two naturals in hand, but the take names only one of them.
    state = scenario(hands={P1: "r8 b8 j r4"}, pile="k8", turn=P1, phase="draw")
    rejected(state, P1, "take with r8 j", "E_NO_NATURAL_PAIR")


def test_take_with_foreign_tile_is_invalid() -> None:
    state = scenario(hands={P1: "r8 b8 r4 b5 k9"}, pile="k8", turn=P1, phase="draw")
    err = rejected(state, P1, "take with r8 b8 r4", "E_INVALID_MELD")
    assert err.params["reason"] == "canasta_wrong_number"
    new, _ = act(state, P1, "take with r8 b8")
    assert new["hands"][P1] == ["r4", "b5", "k9"]


def test_take_with_extra_wilds_and_more_melds_when_opened() -> None:
    # CAN-39: after `|` an opened team lays ordinary melds from hand in the same action.
    state = scenario(hands={P1: "r8 b8 y2 r5 b5 k5 r4 b4"}, pile="j k8", turn=P1, phase="draw")
    new, events = act(state, P1, "take with r8 b8 y2 | r5 b5 k5")
    assert meld_of(new, A, 8) == sorted(tiles("k8 r8 b8 y2")) and meld_of(new, A, 5) == sorted(tiles("r5 b5 k5"))
    assert sorted(new["hands"][P1]) == sorted(tiles("r4 b4 j"))
    assert event(events, "PileTaken").data["opened_now"] is False
    # Pile tiles cannot be used in the melds after `|` (they are not in hand yet, CAN-43/D-23).
    rejected(state, P1, "take with r8 b8 | j r5 b5", "E_NOT_IN_HAND")


def test_e_hand_floor_on_add() -> None:
    state = scenario(hands={P1: "r8 y8"}, melds={A: ["b8 k8 y8"]}, turn=P1)
    rejected(state, P1, "add 8 r8", "E_HAND_FLOOR")


def test_hand_floor_one_when_the_add_makes_a_canasta() -> None:
    state = scenario(hands={P1: "b8 k8 k4"}, melds={A: ["8x5"]}, turn=P1)
    new, events = act(state, P1, "add 8 b8 k8")
    assert event(events, "TilesAdded").data["canasta"] == "clean" and new["hands"][P1] == ["k4"]


def test_e_no_canasta() -> None:
    state = scenario(hands={P1: "r8"}, melds={A: ["b8 k8 y8"]}, turn=P1)
    rejected(state, P1, "discard r8", "E_NO_CANASTA")


@pytest.mark.parametrize(("options", "phase", "used", "reason"), [
    ({}, "draw", False, "off"), ({"joker_button": "on"}, "play", False, "phase"),
    ({"joker_button": "on"}, "draw", True, "used"),
])
def test_e_joker_button(options: dict, phase: str, used: bool, reason: str) -> None:
    state = scenario(hands={P1: "r4 b4"}, turn=P1, phase=phase, options=options)
    state["joker_used"][P1] = used
    assert rejected(state, P1, "joker", "E_JOKER_BUTTON").params["reason"] == reason


def test_joker_button_once_per_player_per_round() -> None:
    state = scenario(hands={P1: "r4 b4", P3: "r5 b5"}, turn=P1, phase="draw", options={"joker_button": "on"})
    state = act(state, P1, "joker")[0]
    state = act(state, P1, "discard r4")[0]
    state["turn"], state["phase"] = P3, "draw"
    state = act(state, P3, "joker")[0]  # the partner has a press of their own
    assert state["joker_used"] == [True, False, True, False] and state["extra_jokers"] == 2
    state["round_over"] = {"reason": "stock"}
    nxt = ENG.next_round(state)
    assert nxt["joker_used"] == [False] * 4 and nxt["extra_jokers"] == 0 and len(ENG.all_items(nxt)) == 106


# ---- D-24: the first failing check gives the code ------------------------------------------------


def test_check_order() -> None:
    state = scenario(hands={P1: "r4 b4 r9"}, melds={B: ["r8 b8 k8"]}, pile="r2", opened=(False, True), turn=P1,
                     phase="draw")
    rejected(state, P2, "take with r4 b4", "E_NOT_YOUR_TURN")  # (0) before everything
    rejected(state, P1, "meld j j j", "E_PHASE")  # (1) before NOT_OPENED / NOT_IN_HAND
    rejected(state, P1, "take with k13 k13", "E_PILE_BLOCKED")  # (2) before the pair / hand
    play = dict(state, phase="play")
    rejected(play, P1, "add B:8 k13", "E_NOT_OPENED")  # (3) before NOT_IN_HAND / NOT_OWN_MELD
    opened = scenario(hands={P1: "r4 b4 r9"}, melds={A: ["r9 b9 k9"], B: ["r8 b8 k8"]}, pile="k4", turn=P1,
                      phase="draw")
    rejected(opened, P1, "take with r4 k13", "E_NO_NATURAL_PAIR")  # (4) before NOT_IN_HAND
    play = dict(opened, phase="play")
    rejected(play, P1, "add B:8 k13", "E_NOT_IN_HAND")  # (5) before NOT_OWN_MELD
    rejected(play, P1, "meld r9 j j", "E_NOT_IN_HAND")
    rejected(play, P1, "add B:8 r9", "E_NOT_OWN_MELD")  # (6) before INVALID_MELD
    rejected(play, P1, "add 4 r4", "E_NO_SUCH_MELD")
    rejected(play, P1, "add 9 r4", "E_INVALID_MELD")  # (7) before HAND_FLOOR
    unopened = scenario(hands={P1: "r4 b4 k4"}, opened=(False, True), turn=P1)
    rejected(unopened, P1, "open r4 b4 k4", "E_THRESHOLD")  # (8) before HAND_FLOOR
    low = scenario(hands={P1: "r9 r4"}, melds={A: ["r9 b9 k9"]}, turn=P1)
    rejected(low, P1, "add 9 r9", "E_HAND_FLOOR")  # (9) before E_NO_CANASTA


# ---- setup and options ----------------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 5])
def test_exactly_four_seats(seats: int) -> None:
    with pytest.raises(SetupError):
        ENG.new_game(seats)


@pytest.mark.parametrize("bad", [
    {"match_length": "5 rounds"}, {"joker_button": "maybe"}, {"turn_timer_s": 10}, {"turn_timer_s": 601},
    {"first_dealer": 5}, {"first_dealer": 0}, {"ledger_per_round": 500}, {"bogus": 1},
])
def test_bad_options_are_refused(bad: dict) -> None:
    with pytest.raises(SetupError) as err:
        ENG.new_game(4, options=bad)
    assert next(iter(bad)) in str(err.value)


def test_option_defaults() -> None:
    opts = ENG.new_game(4)["options"]
    assert opts == {"match_length": "3 rounds", "joker_button": "off", "allow_draw": False, "turn_timer_s": 120,
                    "first_dealer": "random", "ledger_per_round": 1000, "hints": False}
    assert ENG.new_game(4, options={"turn_timer_s": 0})["options"]["turn_timer_s"] == 0


def test_bad_deck() -> None:
    with pytest.raises(SetupError):
        ENG.new_game(4, deck=["r5", "zz"])
    with pytest.raises(SetupError):
        ENG.new_game(4, deck=["j", "j", "j"])


@pytest.mark.parametrize("dealer", [1, 2, 3, 4])
def test_first_dealer_option_and_rotation(dealer: int) -> None:
    # CAN-07/63: the starter follows the dealer, and the dealer moves one seat each round.
    state = ENG.new_game(4, options={"first_dealer": dealer}, seed=9, deck=stacked_deck())
    assert state["dealer"] == dealer - 1 and state["turn"] == dealer % 4
    assert len(state["hands"][dealer % 4]) == 15
    state["round_over"] = {"reason": "stock"}
    nxt = ENG.next_round(state)
    assert nxt["dealer"] == dealer % 4 and nxt["turn"] == (dealer + 1) % 4 and nxt["round"] == 2


def test_random_dealer_is_seeded() -> None:
    dealers = {ENG.new_game(4, seed=s)["dealer"] for s in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert ENG.new_game(4, seed=7) == ENG.new_game(4, seed=7)


def test_repeated_bonus_three_replacements_at_the_deal() -> None:
    # CAN-09 in turn order from the starter: P2 first, then P3; replacements r3 again.
    deck = stacked_deck({P2: "r3", P3: "y3"}, stock_front="y3 k7 r3 b9")
    state = ENG.new_game(4, seed=5, deck=deck)
    assert state["bonus"] == [["y3", "r3"], ["r3", "y3"]]
    assert "k7" in state["hands"][P2] and "b9" in state["hands"][P3]
    assert [len(h) for h in state["hands"]] == [14, 15, 14, 14]


def test_draw_replaces_a_chain_of_bonus_threes() -> None:
    # CAN-14: the draw still yields exactly one regular tile.
    state = scenario(hands={P1: "r4 b4"}, stock="r3 y3 k7 b9 r5", turn=P1, phase="draw")
    state, events = act(state, P1, "draw")
    assert state["bonus"][A] == ["r3", "y3"] and state["hands"][P1] == ["r4", "b4", "k7"]
    assert stock_order(state) == ["b9", "r5"] and not state["exhausted"]
    assert [e.type for e in events][:2] == ["BonusThrees", "TileDrawn"]
    private = [e for e in events if e.seat is not None]
    assert [(e.type, e.seat, e.data) for e in private] == [("TilesReceived", P1, {"tiles": ["k7"]})]


def test_bonus_threes_left_in_the_stock_are_drawn_later() -> None:
    # D-15: a draw that leaves only bonus threes does not end the round.
    state = scenario(hands={P1: "r4 b4"}, stock="k7 r3", turn=P1, phase="draw")
    state = act(state, P1, "draw")[0]
    assert stock_count(state) == 1 and not state["exhausted"]
    state = act(state, P1, "discard r4")[0]
    state, _ = act(state, P2, "draw")
    assert state["round_over"]["reason"] == "stock" and state["bonus"][B] == ["r3"]


def test_split_stock_round_trip() -> None:
    order = tiles("r3 k7 y3 r3 b9 y3")
    regular, threes = split_stock(order)
    assert regular == ["k7", "b9"] and stock_order({"stock": regular, "stock_threes": threes}) == order


def test_timeout_draws_then_discards() -> None:
    # CAN-55: draw from the stock (never the pile), never meld.
    state = scenario(hands={P2: "r9 b9 k9 b3 r5"}, pile="y9", stock="y3 r13 b6", turn=P2, phase="draw")
    state, events = act(state, P2, Timeout())
    assert state["bonus"][B] == ["y3"] and state["pile"] == ["y9", "b3"]
    assert sorted(state["hands"][P2]) == sorted(tiles("r9 b9 k9 r5 r13")) and state["turn"] == P3
    assert event(events, "AutoPlayed").data == {"seat": P2, "phase": "draw"}


def test_timeout_keeps_what_was_done_and_may_go_out() -> None:
    state = scenario(hands={P2: "r9 b9 k9 r5"}, melds={B: ["8x7"]}, turn=P2)
    state = act(state, P2, "meld r9 b9 k9")[0]
    state, _ = act(state, P2, Timeout())
    assert state["round_over"]["out"] == P2  # a legal last-tile discard is a normal going out


def test_timeout_on_the_last_stock_tile_bonus_three() -> None:
    state = scenario(hands={P2: "r9 b9"}, stock="r3", turn=P2, phase="draw")
    state, _ = act(state, P2, Timeout())
    assert state["round_over"]["reason"] == "stock" and state["hands"][P2] == ["r9", "b9"]


def test_timeout_is_service_only() -> None:
    assert Timeout.service_only and ENG.format(ENG.timeout_action({})) == "timeout"


# ---- views and privacy ----------------------------------------------------------------------------


def test_views_show_team_melds_and_thresholds_but_no_other_hand() -> None:
    # CAN-10: partners see the team's melds and threshold; hands stay private, partners included.
    state = scenario(hands={P1: "r4 b4 k9", P3: "y12 y12 j"}, melds={A: ["8x6", "r1 b1 k1"]},
                     bonus={B: "y3"}, pile="r5 k6", opened=(True, False), totals=(0, 1600), turn=P1)
    v = ENG.view(state, P1)
    text = json.dumps(v)
    assert v["hand"] == ["r4", "b4", "k9"] and "y12" not in text
    assert [x["number"] for x in v["melds"][A]] == [1, 8] and v["melds"][A][1]["one_to_go"] is True
    assert v["thresholds"] == [50, 90] and v["bonus"][B] == ["y3"]
    assert v["top"] == "k6" and v["pile_size"] == 2 and v["hand_sizes"][P3] == 3
    assert "r5" not in text  # only the top discard is public (CAN-10)
    assert v["best_opening"] is None
    spectator = ENG.view(state, None)
    assert "hand" not in spectator and '"seed"' not in json.dumps(spectator)
    assert isinstance(spectator["stock"], int)
    partner = ENG.view(state, P3)
    assert partner["hand"] == sorted(tiles("y12 y12 j"), key=m.sort_key) and "k9" not in json.dumps(partner)


def test_best_opening_shown_before_opening() -> None:
    state = scenario(hands={P2: "r1 b1 k1 r8 b8 j k4"}, opened=(True, False), turn=P1)
    assert ENG.view(state, P2)["best_opening"] == 75 + 10 + 50


def test_round_end_reveals_hands() -> None:
    state = scenario(hands={P1: "y5", P3: "r4 k6"}, melds={A: ["8x7"]}, turn=P1)
    state, events = act(state, P1, "discard y5")
    v = ENG.view(state, P2)
    assert v["round_over"]["hands"][P3] == ["r4", "k6"] and v["turn"] is None and v["phase"] is None
    assert event(events, "RoundScored").data["hands"][P3] == ["r4", "k6"]


def test_next_round_requires_a_finished_round_and_an_open_match() -> None:
    from rules import IllegalAction

    state = scenario(hands={P1: "y5"}, melds={A: ["8x7"]}, turn=P1, options={"match_length": "1 round"})
    with pytest.raises(IllegalAction) as err:
        ENG.next_round(state)
    assert err.value.code == "E_ROUND_IN_PLAY"
    state, _ = act(state, P1, "discard y5")
    assert state["match_over"]
    with pytest.raises(IllegalAction) as err:
        ENG.next_round(state)
    assert err.value.code == "E_MATCH_OVER"


def test_allow_draw_still_has_a_winner_when_totals_differ() -> None:
    state = scenario(hands={P1: "y5", P2: "r13", P3: "b13", P4: "r4"}, melds={A: ["8x7"], B: ["9x7"]}, turn=P1,
                     options={"match_length": "1 round", "allow_draw": True})
    state, _ = act(state, P1, "discard y5")
    assert state["round_over"]["scores"] == [625, 520]  # 535 + 100 - 10 / 535 - 10 - 5
    assert state["match_over"] and state["match_winners"] == [P1, P3]
    assert state["ledger"] == [1000, -1000, 1000, -1000]


def test_allow_draw_exact_tie() -> None:
    state = scenario(hands={P1: "y5", P2: "r4", P3: "r6", P4: "b4"}, melds={A: ["8x7"], B: ["9x7"]}, turn=P1,
                     options={"match_length": "1 round", "allow_draw": True, "ledger_per_round": 1000})
    state["hands"][P2] = ["r4", "b4", "k4", "y4", "r5", "b5", "k5", "y5", "r6", "b6", "k6", "y6", "r7", "b7",
                          "k7", "y7", "r9", "b9", "k9", "y9"]  # 100
    state["hands"][P4] = []
    state["hands"][P3] = []  # A: 535 + 100; B: 535 - 100 = 435 -> make B equal with bonus threes
    state["bonus"][B] = ["r3", "y3"]  # +200 -> 635
    state, events = act(state, P1, "discard y5")
    assert state["round_over"]["scores"] == [635, 635] and state["round_over"]["winners"] == []
    assert state["match_over"] and state["match_winners"] == [0, 1, 2, 3] and state["ledger"] == [0, 0, 0, 0]
    assert event(events, "MatchEnded").data["drawn"] is True
    assert ENG.result(state).winners == []


def test_ledger_off() -> None:
    state = scenario(hands={P1: "y5"}, melds={A: ["8x7"]}, turn=P1,
                     options={"match_length": "1 round", "ledger_per_round": 0})
    state, _ = act(state, P1, "discard y5")
    assert state["match_over"] and state["ledger"] == [0, 0, 0, 0]


def test_three_rounds_continue_until_the_third() -> None:
    state = scenario(hands={P1: "y5"}, melds={A: ["8x7"]}, turn=P1)
    state, events = act(state, P1, "discard y5")
    assert not state["match_over"] and not [e for e in events if e.type in ("MatchEnded", "TieBreakNeeded")]
    state = ENG.next_round(state)
    assert state["thresholds"][A] == 50 and state["melds"] == [{}, {}] and state["opened"] == [False, False]
    assert sorted(ENG.all_items(state)) == sorted(tile_set(jokers=2))
