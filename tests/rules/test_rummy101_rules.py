"""Rummy 101 rules beyond the worked examples: one test per reason code (R101-62) asserting the code
and an unchanged state, the D-25 check order, melds (R101-20..27), additions (R101-40/43), options
(§9), setup (R101-05..08), views (R101-09) and the timeout (R101-48/49)."""

from __future__ import annotations

import json

import pytest

from rules import SetupError
from rules.rummy101 import melds as M
from rules.rummy101.actions import Discard, MeldSpec, Open, Timeout
from rules.rummy101.engine import auto_discard
from rules.rummy101.scoring import base_penalty, hand_value, multiplier
from tests.rules.rummy101_scenario import ENG, act, full_set, rejected, scenario

P1, P2, P3, P4 = 0, 1, 2, 3


def opened(hand: str = "r1 r2 r3 k7 k8", **kw: object) -> dict:
    return scenario(hands={P1: hand}, status={P1: "series"}, **kw)  # type: ignore[arg-type]


# ---- one test per reason code (R101-62) ---------------------------------------------------------


def test_E_PARSE() -> None:
    with pytest.raises(Exception) as err:
        ENG.parse("dance r5")
    assert err.value.code == "E_PARSE"
    # An action built in code with a non-canonical tile is refused too, state untouched.
    rejected(opened(), P1, Discard(tile="R1"), "E_PARSE")


def test_E_NOT_YOUR_TURN() -> None:
    rejected(opened(), P2, "discard r1", "E_NOT_YOUR_TURN")


def test_E_PHASE() -> None:
    rejected(opened(phase="draw"), P1, "discard r1", "E_PHASE")  # R101-10
    rejected(opened(phase="draw"), P1, "meld r1 r2 r3", "E_PHASE")
    rejected(opened(), P1, "draw", "E_PHASE")
    rejected(opened(discard="r4"), P1, "take add 1 r4", "E_PHASE")
    # R101-12: the starter's first turn has no DRAW.
    rejected(ENG.new_game(4, seed=1, deck=["r1"]), P1, "draw", "E_PHASE")


def test_E_NOT_IN_HAND() -> None:
    rejected(opened(), P1, "discard y13", "E_NOT_IN_HAND")
    err = rejected(opened(), P1, "meld r1 r1 r1", "E_NOT_IN_HAND")  # copies are counted
    assert err.params["tiles"] == ["r1", "r1"]


def test_E_INVALID_MELD() -> None:
    err = rejected(opened("r1 r2 b3 k1"), P1, "meld r1 r2 b3", "E_INVALID_MELD")
    assert err.params["reason"] == "rummy101_mixed_colours" and err.params["index"] == 1


def test_E_NOT_OPENED() -> None:
    state = scenario(hands={P1: "r1 r2 r3 k1"}, table=[("k3 k4 k5", P2)], status={P2: "series"})
    rejected(state, P1, "meld r1 r2 r3", "E_NOT_OPENED")
    rejected(state, P1, "add 1 k6", "E_NOT_OPENED")
    rejected(state, P1, "swap 1 k4", "E_NOT_OPENED")


def test_E_ALREADY_OPENED() -> None:
    rejected(opened("r1 r1 r2 r2 r3 r3 r4 r4 r5 r5 k1"), P1, "open (r1 r1)(r2 r2)(r3 r3)(r4 r4)(r5 r5)",
             "E_ALREADY_OPENED")


def test_E_THRESHOLD() -> None:
    state = scenario(hands={P1: "r11 r12 r13 k1"})
    err = rejected(state, P1, "open r11 r12 r13", "E_THRESHOLD")
    assert (err.params["value"], err.params["required"]) == (36, 101)


def test_E_MIXED_OPENING() -> None:
    state = scenario(hands={P1: "r11 r12 r13 k1 k1 y2"})
    rejected(state, P1, "open r11 r12 r13 | k1 k1", "E_MIXED_OPENING")


def test_E_MELD_TYPE() -> None:
    rejected(opened("y4 y4 k1"), P1, "meld y4 y4", "E_MELD_TYPE")


def test_E_DUPLICATE_PAIR_against_own_table_pairs() -> None:
    # R101-33: one player's pairs represent distinct tiles, also across turns.
    state = scenario(hands={P1: "r5 j k1"}, table=[("(r5 j)", P1)], status={P1: "pairs"})
    rejected(state, P1, "meld r5 j", "E_DUPLICATE_PAIR")


def test_E_HAND_FLOOR() -> None:
    rejected(opened("r1 r2 r3"), P1, "meld r1 r2 r3", "E_HAND_FLOOR")
    state = opened("r4", table=[("r1 r2 r3", P2)])
    rejected(state, P1, "add 1 r4", "E_HAND_FLOOR")


def test_E_TAKE_UNAVAILABLE() -> None:
    rejected(opened(phase="draw"), P1, "take meld r1 r2 r3", "E_TAKE_UNAVAILABLE")  # empty pile
    state = opened(phase="draw", discard="r4", takable=False)  # an older discard is dead (R101-16)
    rejected(state, P1, "take add 1 r4", "E_TAKE_UNAVAILABLE")


def test_E_TAKE_UNUSED() -> None:
    state = opened(phase="draw", discard="r4", table=[("k1 k2 k3", P2)])
    rejected(state, P1, "take add 1 k4", "E_TAKE_UNUSED")
    rejected(state, P1, "take", "E_TAKE_UNUSED")


def test_E_NO_SUCH_MELD() -> None:
    state = opened(table=[("k1 k2 k3", P2)])
    rejected(state, P1, "add 2 k4", "E_NO_SUCH_MELD")
    rejected(state, P1, "add 0 k4", "E_NO_SUCH_MELD")
    rejected(state, P1, "swap 9 k4", "E_NO_SUCH_MELD")


def test_E_DOES_NOT_FIT() -> None:
    state = opened("r1 k5 k9 j", table=[("k1 k2 k3", P2), ("(b4 b4)", P3)])
    rejected(state, P1, "add 1 k5", "E_DOES_NOT_FIT")  # gap
    rejected(state, P1, "add 2 j", "E_DOES_NOT_FIT")  # pairs never grow
    rejected(state, P1, "swap 1 k5", "E_DOES_NOT_FIT")  # no joker there


def test_E_JOKER_BUTTON() -> None:
    rejected(opened(phase="draw"), P1, "joker", "E_JOKER_BUTTON")  # option off
    state = opened(phase="draw", options={"joker_button": "on"})
    state["joker_used"][P1] = True
    rejected(state, P1, "joker", "E_JOKER_BUTTON")


# ---- D-25: the first failing check names the code ---------------------------------------------------


def test_check_order() -> None:
    state = scenario(hands={P1: "r1 k1"}, table=[("k3 k4 k5", P2)], status={P2: "series"}, discard="b2",
                     phase="draw", options={"joker_button": "on"})
    rejected(state, P2, "joker", "E_NOT_YOUR_TURN")  # (0) before everything
    rejected(state, P1, "add 9 y13", "E_PHASE")  # (1) before (3), (4), (6)
    rejected(state, P1, "take add 9 y13", "E_NOT_OPENED")  # (3) before (4) and (5)
    state["status"][P1] = "series"
    rejected(state, P1, "take add 9 y13", "E_NO_SUCH_MELD")  # (4) before (5)
    rejected(state, P1, "take add 1 y13", "E_TAKE_UNUSED")  # (5) before (6)
    rejected(state, P1, "take meld b2 y2 y2", "E_NOT_IN_HAND")  # (6) before (7)
    rejected(state, P1, "take meld b2 r1 k1", "E_INVALID_MELD")  # (7) before (11)
    rejected(state, P1, "take add 1 b2", "E_DOES_NOT_FIT")
    state = scenario(hands={P1: "r5 r5 j"}, status={P1: "series"})
    rejected(state, P1, "meld r5 r5 | r5 j", "E_NOT_IN_HAND")
    rejected(state, P1, "meld (r5 j) (r5 r5)", "E_NOT_IN_HAND")
    state = scenario(hands={P1: "b5 b5 j k9"}, status={P1: "series"})
    rejected(state, P1, "meld (b5 j) (b5 b5)", "E_NOT_IN_HAND")
    rejected(state, P1, "meld (b5 b5)", "E_MELD_TYPE")  # (8) after the meld is valid
    state = scenario(hands={P1: "r1 r2 r3"}, status={P1: "series"})
    rejected(state, P1, "meld r1 r2 r3", "E_HAND_FLOOR")  # (11) last


# ---- melds ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tokens", "kind", "value"),
    [
        ("r3 r4 r5", "run", 12),
        ("r1 r2 r3", "run", 6),
        ("r10 j r12", "run", 33),
        ("r5 j j", "run", 18),
        ("r8 b8 k8", "set", 24),
        ("r8 b8 k8 y8", "set", 32),
        ("r8 r8", "pair", 16),
        ("r8 j", "pair", 16),
        ("r5 j=5 j=5", "set", 15),
        ("j=r4 r5 r6", "run", 15),
        ("r12 r13 j", "run", 36),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", "run", 91),
        ("r13 r11 r12", "run", 36),
        ("b8 k8 j=y8", "set", 24),
    ],
)
def test_valid_melds(tokens: str, kind: str, value: int) -> None:
    # R101-20..27 (R101-26 table)
    record = M.analyse(tokens.split())
    assert record["kind"] == kind and M.meld_value(record) == value


@pytest.mark.parametrize(
    ("tokens", "reason"),
    [
        ("r12 r13 r1", "not_consecutive"),
        ("r5 r7 r8", "not_consecutive"),
        ("r5 r6 b7", "mixed_colours"),
        ("r8 r8 b8", "colour_repeated"),
        ("r8 b8 k8 y8 j", "set_too_big"),
        ("j j j", "only_jokers"),
        ("r8 b8", "pair_mismatch"),
        ("j j", "only_jokers"),
        ("r8", "too_short"),
        ("r8 j=b8", "pair_mismatch"),
        ("r5 j=b6 r7", "joker_mismatch"),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 j j j", "run_too_long"),
        ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 j", "run_too_long"),
    ],
)
def test_invalid_melds(tokens: str, reason: str) -> None:
    with pytest.raises(M.InvalidMeld) as err:
        M.analyse(tokens.split())
    assert err.value.reason == reason


def test_default_joker_placement() -> None:
    # R101-24: gaps first, then upward until 13, then downward; written order never matters.
    assert M.shown(M.analyse(["r5", "j", "j"])) == ["r5", "j=r6", "j=r7"]
    assert M.shown(M.analyse(["j", "j", "r5"])) == ["r5", "j=r6", "j=r7"]
    assert M.shown(M.analyse(["r13", "j", "j"])) == ["j=r11", "j=r12", "r13"]
    assert M.shown(M.analyse(["r12", "j", "j"])) == ["j=r11", "r12", "j=r13"]
    assert M.shown(M.analyse(["r3", "j", "r6", "j"])) == ["r3", "j=r4", "j=r5", "r6"]


def test_add_several_tiles_in_any_order() -> None:
    # R101-43: [r3 r4 r5] + r7 r6 -> [r3 .. r7]; old tiles keep their numbers.
    run = M.analyse(["r3", "r4", "r5"])
    assert M.add_to(run, ["r7", "r6"])["tiles"] == ["r3", "r4", "r5", "r6", "r7"]
    assert M.add_to(run, ["r2", "r6"])["tiles"] == ["r2", "r3", "r4", "r5", "r6"]
    assert M.add_to(run, ["j"])["tiles"] == ["r3", "r4", "r5", "j"]  # a joker adds upward first
    assert M.shown(M.add_to(M.analyse(["r11", "r12", "r13"]), ["j"])) == ["j=r10", "r11", "r12", "r13"]
    assert M.add_to(run, ["r7", "j"])["tiles"] == ["r3", "r4", "r5", "j", "r7"]
    for bad in (["r7"], ["r4"], ["b6"], ["r6", "r6"], ["j=b6"], ["j=6"]):
        with pytest.raises(M.DoesNotFit):
            M.add_to(run, bad)
    group = M.analyse(["r8", "b8", "j"])
    assert M.add_to(group, ["k8"])["tiles"] == ["r8", "b8", "k8", "j"]
    for bad in (["k8", "y8"], ["r8"], ["k9"], ["j=9"]):
        with pytest.raises(M.DoesNotFit):
            M.add_to(group, bad)


def test_add_several_tiles_through_the_engine() -> None:
    # R101-43, all or nothing.
    state = opened("r6 r7 b9 k1", table=[("r3 r4 r5", P2)])
    rejected(state, P1, "add 1 r7 b9", "E_DOES_NOT_FIT")
    state, _ = act(state, P1, "add 1 r7 r6")
    assert state["table"][0]["tiles"] == ["r3", "r4", "r5", "r6", "r7"]


def test_swap_in_a_run_needs_the_exact_tile() -> None:
    # R101-41
    state = opened("r11 b11 k1 j", table=[("r10 j r12", P2)])
    rejected(state, P1, "swap 1 b11", "E_DOES_NOT_FIT")
    rejected(state, P1, "swap 1 j", "E_DOES_NOT_FIT")
    rejected(state, P1, "swap 1 j=r11", "E_DOES_NOT_FIT")
    state, events = act(state, P1, "swap 1 r11")
    assert state["hands"][P1].count("j") == 2 and events[-1].type == "JokerSwapped"


def test_swap_inside_a_take() -> None:
    # R101-17: take + swap; the joker comes to the hand.
    state = opened("k1 k2", table=[("r10 j r12", P2)], phase="draw", discard="r11")
    state, events = act(state, P1, "take swap 1 r11")
    assert sorted(state["hands"][P1]) == ["j", "k1", "k2"] and state["table"][0]["tiles"] == ["r10", "r11", "r12"]
    assert events[0].type == "DiscardTaken" and state["phase"] == "play"


def test_same_turn_additions_after_opening() -> None:
    # R101-35: additions and swaps are allowed on the opening turn, to melds laid that turn too.
    reds = " ".join(f"r{n}" for n in range(1, 13))
    state = scenario(hands={P1: reds + " b13 k13 y13 r13 k5"})
    state, _ = act(state, P1, f"open {reds} | b13 k13 y13")
    state, _ = act(state, P1, "add 1 r13")
    assert state["table"][0]["tiles"][-1] == "r13"


# ---- turn flow, finishing, stock --------------------------------------------------------------------


def test_turn_order_and_discard_pile() -> None:
    # R101-05/14/16: turns go P1 -> P2 -> ...; the discard is takable by the next player only.
    state = scenario(hands={P1: "r1 r2 r3 k1"}, status={P2: "series"}, stock="b1 b2 b3 b4 b5")
    state, _ = act(state, P1, "discard k1")
    assert state["turn"] == P2 and state["phase"] == "draw" and ENG.view(state, P2)["can_take"]
    state, _ = act(state, P2, "draw")
    assert not ENG.view(state, None)["can_take"]


def test_wraps_around() -> None:
    state = scenario(turn=P4, phase="play", hands={P4: "k1 k2"})
    state, _ = act(state, P4, "discard k1")
    assert state["turn"] == P1


def test_stock_last_tile_can_still_finish() -> None:
    # R101-47: the drawer of the last tile plays normally and may finish.
    state = scenario(hands={P2: "r1 r2"}, table=[("r4 r5 r6", P1)], status={P1: "series", P2: "series"}, stock="r3",
                     turn=P2, phase="draw")
    state, events = act(state, P2, "draw")
    assert any(e.type == "StockEmptied" for e in events)
    state, _ = act(state, P2, "add 1 r3")
    state, _ = act(state, P2, "add 1 r2")
    state, _ = act(state, P2, "discard r1")
    assert ENG.result(state).winners == [P2] and ENG.result(state).details["reason"] == "finish"


def test_timeout_on_starter_first_turn_and_joker_only_hand() -> None:
    # R101-49: no draw on the starter's first turn; a joker only when nothing else is left.
    state = ENG.new_game(4, seed=9, deck=["r1"])
    new, _ = act(state, P1, Timeout())
    assert len(new["hands"][P1]) == 21 and len(new["stock"]) == len(state["stock"])
    assert auto_discard(["j", "r2"]) == "r2" and auto_discard(["j"]) == "j"
    assert auto_discard(["y13", "b13", "r1"]) == "b13"
    state = scenario(hands={P1: "j"}, status={P1: "series"})
    state, _ = act(state, P1, Timeout())
    assert ENG.result(state).details["joker_finish"]


def test_timeout_is_service_only() -> None:
    assert ENG.timeout_action(scenario()).service_only


def test_no_actions_after_round_end() -> None:
    state = opened("k1")
    state, _ = act(state, P1, "discard k1")
    assert ENG.current_seat(state) is None
    rejected(state, P2, "draw", "E_NOT_YOUR_TURN")


# ---- scoring helpers (R101-50..52) ----------------------------------------------------------------------


def test_scoring_helpers() -> None:
    assert hand_value(["j", "r2"]) == 103
    assert base_penalty("unopened", ["r1"]) == 202
    assert base_penalty("series", ["r13", "j"]) == 114
    assert base_penalty("pairs", ["k4"]) == 8
    assert [multiplier(a, b) for a, b in ((False, False), (True, False), (False, True), (True, True))] == [1, 2, 2, 4]


# ---- setup and options ------------------------------------------------------------------------------------


def test_options_defaults_and_errors() -> None:
    # §9
    state = ENG.new_game(4, seed=1)
    assert state["options"] == {
        "threshold_mode": "fixed", "joker_button": "off", "match_rounds": 3, "allow_draw": False,
        "turn_timer_s": 120, "first_player": "random", "hints": False,
    }
    for bad in ({"match_rounds": 4}, {"turn_timer_s": 10}, {"turn_timer_s": 601}, {"threshold_mode": "x"},
                {"joker_button": "yes"}, {"first_player": 0}, {"first_player": 5}, {"colour": "r"}):
        with pytest.raises(SetupError):
            ENG.new_game(4, options=bad, seed=1)
    with pytest.raises(SetupError):
        ENG.new_game(2, options={"first_player": 3}, seed=1)
    for seats in (1, 5):
        with pytest.raises(SetupError):
            ENG.new_game(seats)
    with pytest.raises(SetupError):
        ENG.new_game(2, deck=["j", "j", "j"])
    with pytest.raises(SetupError):
        ENG.new_game(2, deck=["x9"])
    for timer in (0, 30, 600):
        ENG.new_game(2, options={"turn_timer_s": timer})


def test_first_player_option_and_rotation() -> None:
    # R101-06: host's choice, else RNG; the starter moves one seat each round.
    state = ENG.new_game(3, seed=1, options={"first_player": 3})
    assert state["turn"] == 2 and len(state["hands"][2]) == 22
    starters = {ENG.new_game(4, seed=s)["starter"] for s in range(40)}
    assert starters == {0, 1, 2, 3}
    state = scenario(players=3, hands={P2: "k1"}, status={P2: "series"}, turn=P2)
    state["starter"] = 2
    state, _ = act(state, P2, "discard k1")
    assert ENG.next_round(state)["turn"] == 0


def test_deal_is_seeded_and_complete() -> None:
    # R101-01/07
    a, b = ENG.new_game(3, seed=7), ENG.new_game(3, seed=7)
    assert a == b and ENG.new_game(3, seed=8)["hands"] != a["hands"]
    assert sorted(ENG.all_items(a)) == full_set() and len(full_set()) == 106


def test_next_round_resets() -> None:
    # R101-55
    state = scenario(hands={P1: "k1"}, status={P1: "series", P2: "pairs"}, options={"joker_button": "on"})
    state["joker_used"] = [True] * 4
    state, _ = act(state, P1, "discard k1")
    nxt = ENG.next_round(state)
    assert nxt["status"] == ["unopened"] * 4 and nxt["joker_used"] == [False] * 4 and nxt["table"] == []
    assert nxt["totals"] == state["totals"] and sorted(ENG.all_items(nxt)) == full_set()
    with pytest.raises(Exception) as err:
        ENG.next_round(nxt)
    assert err.value.code == "E_ROUND_IN_PLAY"


# ---- views (R101-09) ----------------------------------------------------------------------------------


def test_view_hides_hands_and_stock() -> None:
    state = scenario(hands={P1: "r1 r2 r3 k1"}, discard="b5", phase="draw")
    v = ENG.view(state, P2)
    text = json.dumps(v)
    assert '"seed"' not in text and '"hands"' not in text and isinstance(v["stock"], int)
    assert v["hand_sizes"][P1] == 4 and v["discard_top"] == "b5" and "hand" in v
    assert ENG.view(state, None).get("hand") is None
    assert ENG.view(state, P1)["can_take"]


def test_view_best_opening_before_opening() -> None:
    state = scenario(hands={P1: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1 y1 k2"})
    assert ENG.view(state, P1)["best_opening"] == {"series": 102, "pairs": 1}
    assert ENG.view(opened(), P1)["best_opening"] is None


def test_open_batch_object_round_trip() -> None:
    action = Open(melds=(MeldSpec(tiles=("r10", "j=r11", "r12")),))
    assert ENG.parse(ENG.format(action)) == action
