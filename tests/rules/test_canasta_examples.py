"""Every worked example of spec §11 (CT-01..CT-41), each citing its rule IDs."""

from __future__ import annotations

import pytest

from rules.canasta import melds as m
from rules.canasta.engine import auto_discard
from rules.canasta.options import CanastaOptions
from rules.canasta.scoring import match_decision, team_breakdown, threshold
from rules.canasta.stock import stock_count, stock_order
from rules.core.tiles import tile_set
from tests.rules.canasta_scenario import ENG, act, event, meld_of, rejected, scenario, stacked_deck, tiles

A, B = 0, 1
P1, P2, P3, P4 = 0, 1, 2, 3


def test_ct01_deal() -> None:
    # CAN-08: starter 15, others 14; 57 dealt; stock 49; pile empty. CAN-07: stacked deck -> P1 deals.
    state = ENG.new_game(4, seed=3, deck=stacked_deck())
    assert (state["dealer"], state["starter"], state["turn"]) == (P1, P2, P2)
    assert [len(h) for h in state["hands"]] == [14, 15, 14, 14]
    assert sum(len(h) for h in state["hands"]) == 57
    assert stock_count(state) == 49 and state["pile"] == []
    assert sorted(ENG.all_items(state)) == sorted(tile_set(jokers=2)) and len(ENG.all_items(state)) == 106


def test_ct02_bonus_threes_at_the_deal() -> None:
    # CAN-07/09: the starter P2 holds r3 y3; replacements k7, r3; then b9.
    deck = stacked_deck({P2: "r3 y3"}, stock_front="k7 r3 b9")
    state = ENG.new_game(4, seed=5, deck=deck)
    assert sorted(state["bonus"][B]) == sorted(tiles("r3 y3 r3"))
    assert len(state["hands"][P2]) == 15 and {"k7", "b9"} <= set(state["hands"][P2])
    assert stock_count(state) == 46
    assert not any(m.is_bonus_three(t) for h in state["hands"] for t in h)


@pytest.mark.parametrize(
    ("score", "expected"),
    [(-5, 15), (0, 50), (1495, 50), (1500, 90), (2995, 90), (3000, 120), (6995, 120), (7000, 150)],
)
def test_ct03_thresholds(score: int, expected: int) -> None:
    assert threshold(score) == expected  # CAN-37 / D-06


def test_ct04_twos_openings() -> None:
    # CAN-36/37: 7 twos count 140; 6 twos + joker count 170.
    seven = "r2 b2 k2 y2 r2 b2 k2"
    state = scenario(hands={P1: seven + " r4 b5"}, opened=(False, True), totals=(3000, 0), turn=P1)
    new, _ = act(state, P1, f"open {seven}")
    assert new["opened"][A] and len(meld_of(new, A, 2)) == 7
    state = scenario(hands={P1: seven + " j r4"}, opened=(False, True), totals=(7000, 0), turn=P1)
    err = rejected(state, P1, f"open {seven}", "E_THRESHOLD")
    assert err.params == {"value": 140, "required": 150}
    new, _ = act(state, P1, "open r2 b2 k2 y2 r2 b2 j")
    assert new["opened"][A]


def test_ct05_opening_counts() -> None:
    # CAN-35/36 at score 0 (threshold 50).
    hand = "r1 b1 k1 r8 b8 k8 r10 b10 j r4 b4 k4 r9 b9 r2 y5"
    state = scenario(hands={P1: hand}, opened=(False, True), turn=P1)
    assert act(state, P1, "open r1 b1 k1")[0]["opened"][A]
    new, events = act(state, P1, "open r8 b8 k8 | r10 b10 j")
    assert event(events, "MeldsLaid").data["value"] == 85
    err = rejected(state, P1, "open r4 b4 k4 | r9 b9 r2", "E_THRESHOLD")
    assert err.params["value"] == 45


def test_ct06_negative_score_threshold() -> None:
    state = scenario(hands={P1: "r4 b4 k4 y9 y10"}, opened=(False, True), totals=(-40, 0), turn=P1)
    assert act(state, P1, "open r4 b4 k4")[0]["opened"][A]  # CAN-37: 15 >= 15


def test_ct07_partners_do_not_combine() -> None:
    # CAN-35: each try is judged alone; totals never carry over.
    state = scenario(hands={P1: "r10 b10 k10 r6 b6", P3: "r5 b5 k5 y5 r5 k6 y6"}, opened=(False, True), turn=P1)
    rejected(state, P1, "open r10 b10 k10", "E_THRESHOLD")
    state = act(state, P1, "discard r6")[0]
    state["turn"], state["phase"] = P3, "play"  # the turns between change nothing for Team A
    rejected(state, P3, "open r5 b5 k5 y5 r5", "E_THRESHOLD")
    assert state["opened"][A] is False


@pytest.mark.parametrize(
    ("meld", "score"),
    [("r2 b2 k2 y2 r2 b2 k2", 1140), ("r2 b2 k2 y2 r2 b2 j", 870), ("r2 b2 k2 y2 r2 j j", 900)],
)
def test_ct08_twos_canastas(meld: str, score: int) -> None:
    # CAN-30/60: clean twos 1000, dirty twos 700, plus each tile's own value.
    assert team_breakdown({"2": tiles(meld)}, [], True, [[], []], False)["score"] == score


@pytest.mark.parametrize(
    ("meld", "score"),
    [("8x7", 535), ("9x5 r2 j", 395), ("1x7", 675), ("1x5 r2 b2", 465)],
)
def test_ct09_natural_canastas(meld: str, score: int) -> None:
    ts = tiles(meld)
    assert team_breakdown({str(m.meld_number(ts)): ts}, [], True, [[], []], False)["score"] == score


def test_ct10_a_wild_makes_a_clean_canasta_dirty() -> None:
    # CAN-31
    state = scenario(hands={P1: "r2 j r4 b5 k6"}, melds={A: ["8x7", "r2 b2 k2 y2 b2 k2 y2"]}, turn=P1)
    state = act(state, P1, "add 8 r2")[0]
    assert m.meld_score(8, state["melds"][A]["8"]) == 355
    state = act(state, P1, "add 2 j")[0]
    assert m.meld_score(2, state["melds"][A]["2"]) == 890


def test_ct11_a_dirty_canasta_stays_dirty() -> None:
    state = scenario(hands={P1: "r9 r4 b5"}, melds={A: ["b9 k9 y9 b9 k9 r2 j"]}, turn=P1)
    state = act(state, P1, "add 9 r9")[0]
    assert m.canasta_kind(9, state["melds"][A]["9"]) == "dirty"
    assert m.meld_score(9, state["melds"][A]["9"]) == 400


def test_ct12_adding_keeps_naturals_ahead() -> None:
    # CAN-26
    state = scenario(hands={P1: "j k8 y2 r4 b5 k6"}, melds={A: ["r8 b8 r2"]}, turn=P1)
    rejected(state, P1, "add 8 j", "E_INVALID_MELD")
    state = act(state, P1, "add 8 k8")[0]
    state = act(state, P1, "add 8 j")[0]
    assert meld_of(state, A, 8) == sorted(tiles("r8 b8 k8 r2 j"))
    err = rejected(state, P1, "add 8 y2", "E_INVALID_MELD")
    assert err.params["reason"] == "canasta_too_few_naturals"


def test_ct13_at_most_three_wilds() -> None:
    state = scenario(hands={P1: "y2 b2 r4 b5 k6"}, melds={A: ["8x5 r2 j"]}, turn=P1)
    state = act(state, P1, "add 8 y2")[0]
    err = rejected(state, P1, "add 8 b2", "E_INVALID_MELD")
    assert err.params["reason"] == "canasta_too_many_wilds"


def test_ct14_one_meld_per_number_and_own_melds_only() -> None:
    # CAN-24/26
    state = scenario(hands={P3: "y8 r8 b8 r4 b5"}, melds={A: ["r8 b8 k8"], B: ["k8 y8 r2"]}, turn=P3)
    rejected(state, P3, "meld y8 r8 b8", "E_DUPLICATE_NUMBER")
    rejected(state, P3, "add B:8 y8", "E_NOT_OWN_MELD")


def test_ct15_taking_the_pile() -> None:
    # CAN-40/44
    state = scenario(hands={P1: "r13 k13 r5 b6"}, pile="r4 b5 k6 y7 b13", turn=P1, phase="draw")
    new, events = act(state, P1, "take with r13 k13")
    assert meld_of(new, A, 13) == sorted(tiles("b13 r13 k13"))
    assert sorted(new["hands"][P1]) == sorted(tiles("r5 b6 r4 b5 k6 y7"))
    assert new["pile"] == [] and new["phase"] == "play"
    assert event(events, "PileTaken").data["taken"] == 4
    # The same take joins an existing 13s meld.
    state = scenario(hands={P1: "r13 k13 r5 b6"}, melds={A: ["y13 y13 j"]}, pile="r4 b13", turn=P1, phase="draw")
    new, _ = act(state, P1, "take with r13 k13")
    assert meld_of(new, A, 13) == sorted(tiles("y13 y13 j b13 r13 k13"))


@pytest.mark.parametrize(("pile", "hand", "command"), [
    ("r5 r2", "b2 y2 r4 b4", "take with b2 y2"),
    ("r5 j", "r4 b4 k9", "take with r4 b4"),
    ("r5 k3", "r4 b4 k9", "take with r4 b4"),
])
def test_ct16_blocked_top(pile: str, hand: str, command: str) -> None:
    state = scenario(hands={P1: hand}, pile=pile, turn=P1, phase="draw")
    rejected(state, P1, command, "E_PILE_BLOCKED")  # CAN-41


def test_ct17_the_natural_pair_must_be_in_hand() -> None:
    # CAN-40(3): a wild, or a 13 already melded, does not stand in for the second natural.
    state = scenario(hands={P1: "r13 j r4 b5"}, pile="r6 b13", turn=P1, phase="draw")
    rejected(state, P1, "take with r13 j", "E_NO_NATURAL_PAIR")
    state = scenario(hands={P1: "y13 r4 b5"}, melds={A: ["r13 b13 k13"]}, pile="r6 b13", turn=P1, phase="draw")
    rejected(state, P1, "take with y13", "E_NO_NATURAL_PAIR")


def test_ct18_no_freezing() -> None:
    # CAN-42: a wild below the top does not matter.
    state = scenario(hands={P1: "b7 k7 r4 b5"}, pile="r9 j r7", turn=P1, phase="draw")
    new, _ = act(state, P1, "take with b7 k7")
    assert meld_of(new, A, 7) == sorted(tiles("r7 b7 k7")) and "j" in new["hands"][P1]


def test_ct19_opening_with_the_pile() -> None:
    # CAN-43: 30 + 75 = 105 >= 90; the rest of the pile is not counted.
    state = scenario(
        hands={P1: "r13 k13 r1 b1 y1"}, pile="j y5 k3 b13", opened=(False, True), totals=(1600, 0), turn=P1,
        phase="draw",
    )
    new, events = act(state, P1, "take with r13 k13 | r1 b1 y1")
    assert new["opened"][A] and meld_of(new, A, 1) == sorted(tiles("r1 b1 y1"))
    assert sorted(new["hands"][P1]) == sorted(tiles("j y5 k3"))
    assert event(events, "PileTaken").data["opened_now"] is True


def test_ct20_opening_with_the_pile_below_threshold() -> None:
    state = scenario(
        hands={P1: "r13 k13 r5 b5 y5"}, pile="j y5 k3 b13", opened=(False, True), totals=(1600, 0), turn=P1,
        phase="draw",
    )
    err = rejected(state, P1, "take with r13 k13 | r5 b5 y5", "E_THRESHOLD")
    assert err.params == {"value": 45, "required": 90}
    assert state["phase"] == "draw" and len(state["pile"]) == 4


def test_ct21_hand_floor_without_and_with_a_canasta() -> None:
    # CAN-17/50
    state = scenario(hands={P2: "r9 b9 k9 y4"}, turn=P2)
    rejected(state, P2, "meld r9 b9 k9", "E_HAND_FLOOR")
    state = scenario(hands={P2: "r9 b9 k9 y4"}, melds={B: ["8x7"]}, turn=P2)
    state = act(state, P2, "meld r9 b9 k9")[0]
    state, events = act(state, P2, "discard y4")
    assert event(events, "Discarded").data["out"] is True
    assert state["round_over"]["reason"] == "out" and state["round_over"]["out"] == P2


def test_ct22_cannot_meld_every_tile() -> None:
    state = scenario(hands={P2: "r9 b9 k9"}, melds={B: ["8x7"]}, turn=P2)
    rejected(state, P2, "meld r9 b9 k9", "E_HAND_FLOOR")


def test_ct23_pile_take_may_not_empty_the_hand() -> None:
    state = scenario(hands={P1: "r7 b7"}, pile="k7", turn=P1, phase="draw")
    rejected(state, P1, "take with r7 b7", "E_HAND_FLOOR")


@pytest.mark.parametrize("last", ["k3", "j"])
def test_ct24_going_out_with_any_last_tile(last: str) -> None:
    # CAN-50/51: +100, nothing doubled.
    state = scenario(hands={P1: last, P3: "r4"}, melds={A: ["8x7"]}, turn=P1)
    state, _ = act(state, P1, f"discard {last}")
    team_a = state["round_over"]["teams"][A]
    assert team_a["going_out"] == 100
    assert team_a["score"] == 535 + 100 - 5


def test_ct25_round_score_after_going_out() -> None:
    # CAN-60
    state = scenario(
        hands={P1: "y5", P2: "j b13 k4", P3: "k3 r2 r9", P4: "b3"},
        melds={A: ["r8 b8 k8 y8 r8 b8 y8", "r13 b13 j"], B: ["r1 b1 k1 y1 r2"]},
        bonus={A: "r3 y3", B: "y3"},
        turn=P1,
    )
    state, _ = act(state, P1, "discard y5")
    assert state["round_over"]["scores"] == [780, 55]
    result = ENG.result(state)
    assert result.round_scores == [780, 55, 780, 55] and result.winners == [P1, P3]
    assert result.teams == [[0, 2], [1, 3]]


def test_ct26_unopened_team_score() -> None:
    # CAN-45/61: -100 (r3, unopened) - 65 - 125.
    state = scenario(
        hands={P1: "y5", P2: "j b13 k4", P3: "r4", P4: "b3 y1"},
        melds={A: ["8x7"]}, bonus={B: "r3"}, opened=(True, False), turn=P1,
    )
    state, _ = act(state, P1, "discard y5")
    assert state["round_over"]["scores"][B] == -290


@pytest.mark.parametrize(("opened", "score"), [(True, 400), (False, -400)])
def test_ct27_four_bonus_threes(opened: bool, score: int) -> None:
    assert team_breakdown({}, tiles("r3 r3 y3 y3"), opened, [[], []], False)["bonus_threes"] == score


def test_ct28_last_regular_tile() -> None:
    # CAN-52: the drawer finishes the turn; the round ends after the discard.
    state = scenario(hands={P4: "r6 b6 k6 y11 b12"}, stock="k7", turn=P4, phase="draw")
    state = act(state, P4, "draw")[0]
    assert state["exhausted"] and ENG.current_seat(state) == P4
    state = act(state, P4, "meld r6 b6 k6")[0]
    state, events = act(state, P4, "discard y11")
    assert state["round_over"]["reason"] == "stock"
    assert state["round_over"]["teams"][B]["going_out"] == 0
    assert event(events, "RoundScored").data["out"] is None


def test_ct29_last_tile_a_bonus_three() -> None:
    state = scenario(hands={P4: "r6 b6"}, stock="y3", turn=P4, phase="draw")
    state, events = act(state, P4, "draw")
    assert state["bonus"][B] == ["y3"] and state["hands"][P4] == ["r6", "b6"]
    assert state["round_over"]["reason"] == "stock" and ENG.current_seat(state) is None
    assert event(events, "StockExhausted").data["at_once"] is True


def test_ct30_bonus_three_then_the_last_tile() -> None:
    # CAN-14/52
    state = scenario(hands={P4: "r6 b6"}, stock="r3 k7", turn=P4, phase="draw")
    state, events = act(state, P4, "draw")
    assert state["bonus"][B] == ["r3"] and "k7" in state["hands"][P4]
    assert event(events, "BonusThrees").data["tiles"] == ["r3"]
    assert state["round_over"] is None and state["exhausted"]
    state = act(state, P4, "discard k7")[0]
    assert state["round_over"]["reason"] == "stock"


def test_ct31_joker_button() -> None:
    # CAN-53
    state = scenario(hands={P3: "r13 k13 r4 b5"}, pile="b13", turn=P3, phase="draw", options={"joker_button": "on"})
    state["stock"], state["stock_threes"] = state["stock"][:30], []
    new, events = act(state, P3, "joker")
    assert new["hands"][P3].count("j") == 1 and stock_count(new) == 30
    assert event(events, "JokerCreated").data["seat"] == P3
    rejected(new, P3, "take with r13 k13", "E_PHASE")
    rejected(new, P3, "draw", "E_PHASE")
    later = dict(new, phase="draw")
    rejected(later, P3, "joker", "E_JOKER_BUTTON")
    first = ENG.new_game(4, seed=2, options={"joker_button": "on"})
    err = rejected(first, first["starter"], "joker", "E_JOKER_BUTTON")
    assert err.params["reason"] == "phase"


@pytest.mark.parametrize(("hand", "expected"), [("k3 b3 r5 b13 r1 j", "b3"), ("r5 b5 r13", "r5"), ("r2 j", "r2")])
def test_ct32_auto_play_discard(hand: str, expected: str) -> None:
    # CAN-55, through the timeout action after P2's draw.
    assert auto_discard(tiles(hand)) == expected
    state = scenario(hands={P2: hand}, melds={B: ["8x7"]}, turn=P2)
    state, events = act(state, P2, ENG.timeout_action(state))
    assert state["pile"][-1] == expected and event(events, "AutoPlayed").data["seat"] == P2


def _round_three_state() -> dict:
    # After rounds 1-2 (A 780 - 290 = 490, B 55 + 1445 = 1500) the round-3 end gives A 1210, B 200.
    state = scenario(
        hands={P1: "y13", P2: "r5 b5 k5 y5 r6 b6 k6 y6", P3: "r4 b4", P4: "r7 b7"},
        melds={A: ["8x7", "9x7", "r10 b10 k10 y10 r10"], B: ["r1 b1 k1 y1", "r12 b12 k12 y12 r12"]},
        bonus={B: "y3"}, totals=(490, 1500), turn=P1,
    )
    state["round"], state["history"] = 3, [[780, 55], [-290, 1445]]
    return state


def test_ct33_three_rounds_tie_break_and_ledger() -> None:
    # CAN-63/66/67
    state = _round_three_state()
    assert state["thresholds"] == [50, 90]  # B's round-3 threshold from 1,500
    state, events = act(state, P1, "discard y13")
    assert state["round_over"]["scores"] == [1210, 200] and state["totals"] == [1700, 1700]
    assert not state["match_over"] and event(events, "TieBreakNeeded")
    state = ENG.next_round(state)
    assert state["round"] == 4 and state["thresholds"] == [90, 90]
    # Round 4: Team A wins it.
    state = scenario(hands={P1: "y13", P2: "r5 b5"}, melds={A: ["8x7"]}, totals=(1700, 1700), turn=P1)
    state["round"] = 4
    state, events = act(state, P1, "discard y13")
    result = ENG.result(state)
    assert result.match_over and result.match_winners == [P1, P3]
    assert state["ledger"] == [4000, -4000, 4000, -4000]
    assert event(events, "MatchEnded").data["ledger"] == [4000, -4000, 4000, -4000]


@pytest.mark.parametrize(
    ("totals", "decision"), [((10150, 9800), "won"), ((10050, 10300), "won"), ((10000, 10000), "tie_break")]
)
def test_ct34_target_10000(totals: tuple[int, int], decision: str) -> None:
    opts = CanastaOptions.parse_options({"match_length": "target 10000"}).model_dump()
    assert match_decision(opts, 6, list(totals)) == decision


def test_ct34_target_winner_end_to_end() -> None:
    state = scenario(
        hands={P1: "y13", P2: "r5 b5"}, melds={B: ["8x7"]}, totals=(10050, 9900), turn=P1,
        options={"match_length": "target 10000"},
    )
    state["melds"][A] = {"9": tiles("9x7")}
    state["round"] = 6
    state, _ = act(state, P1, "discard y13")
    assert state["match_over"] and state["match_winners"] == [P1, P3]  # A: 10,050 + 635 beats B


def test_ct35_starters_first_turn() -> None:
    # CAN-13: 15 tiles, no DRAW; melds allowed; one discard starts the pile.
    state = ENG.new_game(4, seed=1, deck=stacked_deck({P2: "r1 b1 k1"}))
    rejected(state, P2, "draw", "E_PHASE")
    state = act(state, P2, "open r1 b1 k1")[0]
    state = act(state, P2, f"discard {state['hands'][P2][0]}")[0]
    assert len(state["pile"]) == 1 and state["turn"] == P3 and state["phase"] == "draw"


def test_ct36_no_threshold_after_the_partner_opened() -> None:
    state = scenario(hands={P3: "r5 b5 k5 r4 b4"}, opened=(True, False), turn=P3)
    assert meld_of(act(state, P3, "meld r5 b5 k5")[0], A, 5) == sorted(tiles("r5 b5 k5"))


def test_ct37_stock_exhaustion_score() -> None:
    # CAN-52/60: nobody out.
    state = scenario(
        hands={P1: "k6", P2: "j", P3: "y1", P4: "b3"},
        melds={A: ["r10 b10 k10 y10"], B: ["8x7"]}, stock="k5", turn=P4, phase="draw",
    )
    state = act(state, P4, "draw")[0]
    state = act(state, P4, "discard k5")[0]
    assert state["round_over"]["scores"] == [10, 385] and ENG.result(state).winners == [P2, P4]


def test_ct38_both_teams_may_meld_a_number() -> None:
    state = scenario(hands={P2: "y8 y8 k8 r4 b5"}, melds={A: ["r8 b8 k8"]}, turn=P2)
    assert meld_of(act(state, P2, "meld y8 y8 k8")[0], B, 8) == sorted(tiles("y8 y8 k8"))


def test_ct39_meld_before_opening() -> None:
    state = scenario(hands={P2: "r6 b6 k6 r4 b5"}, opened=(True, False), turn=P2)
    rejected(state, P2, "meld r6 b6 k6", "E_NOT_OPENED")


def test_ct40_opening_with_a_twos_meld() -> None:
    state = scenario(hands={P1: "r2 b2 j r4 b5"}, opened=(False, True), totals=(1500, 0), turn=P1)
    assert act(state, P1, "open r2 b2 j")[0]["opened"][A]  # 20 + 20 + 50 = 90


def test_ct41_block_three_blocks_only_while_on_top() -> None:
    # CAN-41/46
    state = scenario(hands={P1: "k3 r4 b4", P2: "r9 r4 b4 k11", P3: "b9 k9 y5 y6"}, pile="r11", turn=P1)
    state = act(state, P1, "discard k3")[0]
    rejected(state, P2, "take with r4 b4", "E_PILE_BLOCKED")
    state = act(state, P2, "draw")[0]
    state = act(state, P2, "discard r9")[0]
    state, _ = act(state, P3, "take with b9 k9")
    assert meld_of(state, A, 9) == sorted(tiles("r9 b9 k9")) and {"k3", "r11"} <= set(state["hands"][P3])
    assert stock_order(state)  # the stock is still there
