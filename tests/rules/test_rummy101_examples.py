"""Every worked example of the Rummy 101 spec (§11, T-01..T-45), each citing its ID and rules.

Seats are 0-based: P1 of the spec is seat 0. Unless a test says otherwise: 4 players, P1 starts,
`fixed` thresholds, Joker button off.
"""

from __future__ import annotations

from rules.rummy101.actions import Timeout
from tests.rules.rummy101_scenario import ENG, act, rejected, restage, scenario, tiles

P1, P2, P3, P4 = 0, 1, 2, 3


def shown(state: dict, n: int) -> list[str]:
    return ENG.view(state, None)["table"][n - 1]["shown"]


def finish_scores(state: dict) -> list[int]:
    result = ENG.result(state)
    assert result is not None
    return result.round_scores


# ---- deal -------------------------------------------------------------------------------------


def test_T01_deal_counts() -> None:
    # T-01 (R101-07/08): starter 22, others 21; stock 21 / 42 / 63.
    for players, stock in ((4, 21), (3, 42), (2, 63)):
        state = ENG.new_game(players, seed=5, deck=["r1"])
        assert state["starter"] == P1  # R101-06: a stacked deck starts with P1
        assert [len(h) for h in state["hands"]] == [22] + [21] * (players - 1)
        assert len(state["stock"]) == stock
        assert state["hands"][P1][0] == "r1"  # blocks from P1, the prefix first
        assert state["discard"] == []


# ---- opening ------------------------------------------------------------------------------------


def test_T02_series_opening_102() -> None:
    # T-02 (R101-31)
    state = scenario(hands={P2: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1"}, turn=P2)
    state, events = act(state, P2, "open r10 r11 r12 | b11 b12 b13 | k10 k11 k12")
    assert state["status"][P2] == "series"
    opened = next(e for e in events if e.type == "Opened")
    assert opened.data["score"] == 102 and opened.data["kind"] == "series"
    assert [m["owner"] for m in state["table"]] == [P2, P2, P2]


def test_T03_below_threshold() -> None:
    # T-03 (R101-31): 69 < 101.
    state = scenario(hands={P2: "r10 r11 r12 b11 b12 b13 k10 k11 k12 y1"}, turn=P2)
    err = rejected(state, P2, "open r10 r11 r12 | b11 b12 b13", "E_THRESHOLD")
    assert err.params["value"] == 69 and err.params["required"] == 101


def test_T04_values_never_accumulate() -> None:
    # T-04 (R101-31): 60 on one turn, 41 on the next: never opens.
    hand = "r10 r11 r12 k9 b9 y9 y2 y3 y4 r8 b8 k8 y8 k1"
    state = scenario(hands={P3: hand}, turn=P3, phase="play")
    rejected(state, P3, "open r10 r11 r12 | k9 b9 y9", "E_THRESHOLD")
    state, _ = act(state, P3, "discard k1")
    for seat in (P4, P1, P2):
        state, _ = act(state, seat, Timeout())
    state, _ = act(state, P3, "draw")
    rejected(state, P3, "open y2 y3 y4 | r8 b8 k8 y8", "E_THRESHOLD")
    assert state["status"][P3] == "unopened"


def test_T05_sets_only() -> None:
    # T-05 (R101-32): runs are not mandatory.
    state = scenario(hands={P1: "r13 b13 k13 y13 r12 b12 k12 b11 k11 y11 y1"})
    state, events = act(state, P1, "open [r13 b13 k13 y13] [r12 b12 k12] [b11 k11 y11]")
    assert state["status"][P1] == "series"
    assert next(e for e in events if e.type == "Opened").data["score"] == 121


def test_T06_additions_never_count() -> None:
    # T-06 (R101-32): 95 in new melds; an addition before opening is refused.
    hand = "r13 b13 k13 r12 b12 k12 r5 b5 k5 y5 y6 k1"
    state = scenario(hands={P4: hand}, table=[("y3 y4 y5", P1)], status={P1: "series"}, turn=P4)
    err = rejected(state, P4, "open r13 b13 k13 | r12 b12 k12 | r5 b5 k5 y5", "E_THRESHOLD")
    assert err.params["value"] == 95
    rejected(state, P4, "add 1 y6", "E_NOT_OPENED")


def test_T07_open_with_joker_then_swap() -> None:
    # T-07 (R101-24/41): [r10 j r12] counts 33; 103 opens; the same turn r11 wins the joker back.
    hand = "r10 j r12 r10 b10 k10 y10 b9 b10 b11 r11 k1"
    state = scenario(hands={P1: hand})
    state, events = act(state, P1, "open r10 j r12 | r10 b10 k10 y10 | b9 b10 b11")
    assert next(e for e in events if e.type == "Opened").data["score"] == 103
    assert shown(state, 1) == ["r10", "j=r11", "r12"]
    state, _ = act(state, P1, "swap 1 r11")
    assert state["table"][0]["tiles"] == ["r10", "r11", "r12"]
    assert sorted(state["hands"][P1]) == ["j", "k1"]


def test_T08_take_and_add() -> None:
    # T-08 (R101-17/40)
    for top, expected in (("r6", ["r3", "r4", "r5", "r6"]), ("r2", ["r2", "r3", "r4", "r5"])):
        state = scenario(
            hands={P3: "k1 k2 y7"}, table=[("r3 r4 r5", P1)], status={P1: "series", P3: "series"},
            discard=top, turn=P3, phase="draw",
        )
        state, events = act(state, P3, f"take add 1 {top}")
        assert state["table"][0]["tiles"] == expected
        assert state["phase"] == "play" and events[0].type == "DiscardTaken"
    state = scenario(
        hands={P3: "k1 k2 y7"}, table=[("r3 r4 r5", P1)], status={P1: "series", P3: "series"},
        discard="b6", turn=P3, phase="draw",
    )
    rejected(state, P3, "take add 1 b6", "E_DOES_NOT_FIT")


def test_T09_take_without_use() -> None:
    # T-09 (R101-17): the bare take is refused; P3 is still in DRAW.
    state = scenario(hands={P3: "k1 k2 y7"}, status={P3: "series"}, discard="k9", turn=P3, phase="draw")
    rejected(state, P3, "take", "E_TAKE_UNUSED")
    assert state["phase"] == "draw"
    act(state, P3, "draw")


def test_T10_take_to_open() -> None:
    # T-10 (R101-17/31): 36 + 65 = 101 opens; 36 + 64 and 36 alone do not.
    state = scenario(hands={P2: "k11 k12 r5 b5 k5 y5 b7 b8 b9 b10 b11 y1"}, discard="k13", turn=P2, phase="draw")
    rejected(state, P2, "take open k11 k12 k13", "E_THRESHOLD")
    state, _ = act(state, P2, "take open k11 k12 k13 | r5 b5 k5 y5 | b7 b8 b9 b10 b11")
    assert state["status"][P2] == "series" and state["discard"][-1:] != ["k13"]
    state = scenario(hands={P2: "k11 k12 r10 b10 k10 y10 y7 y8 y9 y1"}, discard="k13", turn=P2, phase="draw")
    err = rejected(state, P2, "take open k11 k12 k13 | r10 b10 k10 y10 | y7 y8 y9", "E_THRESHOLD")
    assert err.params["value"] == 100


def test_T11_after_take_no_draw_or_button() -> None:
    # T-11 (R101-18)
    state = scenario(
        hands={P2: "k1 k2 y7"}, table=[("r3 r4 r5", P1)], status={P1: "series", P2: "series"},
        discard="r6", turn=P2, phase="draw", options={"joker_button": "on"},
    )
    state, _ = act(state, P2, "take add 1 r6")
    rejected(state, P2, "draw", "E_PHASE")
    rejected(state, P2, "joker", "E_JOKER_BUTTON")


def test_T12_add_to_set() -> None:
    # T-12 (R101-40)
    state = scenario(hands={P1: "y8 r8 k1 b2"}, table=[("r8 b8 k8", P2)], status={P1: "series", P2: "series"})
    rejected(state, P1, "add 1 r8", "E_DOES_NOT_FIT")
    state, _ = act(state, P1, "add 1 y8")
    assert state["table"][0]["tiles"] == ["r8", "b8", "k8", "y8"]
    rejected(state, P1, "add 1 r8", "E_DOES_NOT_FIT")


def test_T13_run_shapes() -> None:
    # T-13 (R101-20)
    state = scenario(hands={P1: "r12 r13 r1 r2 r3 r5 r7 r8 k1"}, status={P1: "series"})
    rejected(state, P1, "meld r12 r13 r1", "E_INVALID_MELD")
    rejected(state, P1, "meld r5 r7 r8", "E_INVALID_MELD")
    state, _ = act(state, P1, "meld r1 r2 r3")
    assert ENG.view(state, None)["table"][0]["value"] == 6


def test_T14_pairs_opening() -> None:
    # T-14 (R101-33)
    hand = "r5 r5 b7 b7 k9 j y1 y1 r13 r13 b5 k2 j"
    state = scenario(hands={P4: hand}, turn=P4)
    rejected(state, P4, "open (r5 b5)(b7 b7)(k9 j)(y1 y1)(r13 r13)", "E_INVALID_MELD")
    rejected(state, P4, "open (r5 r5)(b7 b7)(k9 j)(y1 y1)", "E_THRESHOLD")
    rejected(state, P4, "open (r5 r5)(b7 b7)(j j)(y1 y1)(r13 r13)", "E_INVALID_MELD")
    state, _ = act(state, P4, "open (r5 r5)(b7 b7)(k9 j)(y1 y1)(r13 r13)")
    assert state["status"][P4] == "pairs"
    assert ENG.view(state, None)["table"][2]["shown"] == ["k9", "j=k9"]


def test_T15_pairs_player_limits() -> None:
    # T-15 (R101-36)
    state = scenario(
        hands={P4: "b3 b4 b5 k6 r2 r2 y9"}, table=[("k3 k4 k5", P1)], status={P1: "series", P4: "pairs"}, turn=P4
    )
    rejected(state, P4, "meld b3 b4 b5", "E_MELD_TYPE")
    state, _ = act(state, P4, "add 1 k6")
    assert state["table"][0]["tiles"] == ["k3", "k4", "k5", "k6"]
    state, _ = act(state, P4, "meld (r2 r2)")
    assert state["table"][1]["kind"] == "pair" and state["table"][1]["owner"] == P4


def test_T16_series_player_pairs_after_a_pairs_opening() -> None:
    # T-16 (R101-37)
    state = scenario(
        hands={P1: "y4 y4 k1", P3: "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 k2"},
        status={P1: "series"}, stock="b1 b2 b3 b4 b6",
    )
    rejected(state, P1, "meld (y4 y4)", "E_MELD_TYPE")
    state, _ = act(state, P1, "discard k1")
    state, _ = act(state, P2, Timeout())
    state, _ = act(state, P3, "draw")
    state, _ = act(state, P3, "open (r5 r5)(b7 b7)(k9 k9)(y1 y1)(r13 r13)")
    state, _ = act(state, P3, "discard k2")
    state, _ = act(state, P4, Timeout())
    state, _ = act(state, P1, "draw")
    state, _ = act(state, P1, "meld (y4 y4)")
    assert state["table"][-1]["owner"] == P1


def test_T17_hand_floor() -> None:
    # T-17 (R101-15/45)
    state = scenario(hands={P1: "r7 r8"}, status={P1: "series"}, stock="r9 b1 b2", phase="draw")
    state, _ = act(state, P1, "draw")
    rejected(state, P1, "meld r7 r8 r9", "E_HAND_FLOOR")
    state = scenario(hands={P1: "r7 r8 r9 k2"}, status={P1: "series"})
    state, _ = act(state, P1, "meld r7 r8 r9")
    state, _ = act(state, P1, "discard k2")
    assert ENG.result(state).winners == [P1]


# ---- scoring --------------------------------------------------------------------------------------


def _finish_table(last: str) -> dict:
    return scenario(
        hands={P1: last, P3: "k5 b9", P4: "r3 j"}, status={P1: "series", P3: "series", P4: "pairs"},
    )


def test_T18_normal_finish_scores() -> None:
    # T-18 (R101-52)
    state, _ = act(_finish_table("b4"), P1, "discard b4")
    assert finish_scores(state) == [101, -202, -14, -208]
    assert ENG.result(state).details["multiplier"] == 1


def test_T19_joker_finish_scores() -> None:
    # T-19 (R101-52): ×2.
    state, _ = act(_finish_table("j"), P1, "discard j")
    assert finish_scores(state) == [202, -404, -28, -416]
    assert ENG.result(state).details["joker_finish"] is True


_ONE_TURN = "b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 k1 k2 k3 k4 y10 y11 y12"
_ONE_TURN_OPEN = "open b1 b2 b3 b4 b5 b6 b7 b8 b9 b10 b11 b12 b13 | k1 k2 k3 k4 | y10 y11 y12 y13"


def test_T20_one_turn_finish() -> None:
    # T-20 (R101-46/52): nobody had opened; P3 draws, lays 21, discards r7.
    state = scenario(hands={P3: _ONE_TURN + " r7"}, stock="y13 k9 k8", turn=P3, phase="draw")
    state, _ = act(state, P3, "draw")
    assert len(state["hands"][P3]) == 22
    state, _ = act(state, P3, _ONE_TURN_OPEN)
    state, _ = act(state, P3, "discard r7")
    assert finish_scores(state) == [-404, -404, 202, -404]
    assert ENG.result(state).details["one_turn"] is True


def test_T21_one_turn_joker_finish() -> None:
    # T-21 (R101-46/52): ×4.
    state = scenario(hands={P3: _ONE_TURN + " j"}, stock="y13 k9 k8", turn=P3, phase="draw")
    state, _ = act(state, P3, "draw")
    state, _ = act(state, P3, _ONE_TURN_OPEN)
    state, _ = act(state, P3, "discard j")
    assert finish_scores(state) == [-808, -808, 404, -808]
    assert ENG.result(state).details["multiplier"] == 4


def test_T22_starter_first_turn_finish() -> None:
    # T-22 (R101-12/46): the starter holds 22 and plays without a draw.
    deck = tiles(_ONE_TURN + " y13 r7")
    state = ENG.new_game(4, seed=3, deck=deck)
    assert state["turn"] == P1 and state["phase"] == "play" and sorted(state["hands"][P1]) == sorted(deck)
    state, _ = act(state, P1, _ONE_TURN_OPEN)
    state, _ = act(state, P1, "discard r7")
    assert finish_scores(state) == [202, -404, -404, -404]


def test_T23_open_and_finish_after_someone_opened_is_normal() -> None:
    # T-23 (R101-46): P2 had opened earlier, so P4's open-and-finish is a normal finish.
    state = scenario(
        hands={P2: "y10", P4: _ONE_TURN + " k1"}, status={P2: "series"}, stock="y13 k9", turn=P4, phase="draw",
        table=[("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", P2)],
    )
    state, _ = act(state, P4, "draw")
    state, _ = act(state, P4, _ONE_TURN_OPEN)
    state, _ = act(state, P4, "discard k1")
    assert finish_scores(state) == [-202, -10, -202, 101]
    assert ENG.result(state).details["one_turn"] is False


def test_T24_stock_exhausted() -> None:
    # T-24 (R101-47/52): P2 draws the last tile and does not finish: no winner.
    state = scenario(
        hands={P1: "r13 j", P2: "b1 b2 b6", P3: "k4", P4: "y2 y3"},
        status={P1: "series", P3: "pairs", P4: "series"}, stock="b12", turn=P2, phase="draw",
    )
    state, _ = act(state, P2, "draw")
    assert ENG.result(state) is None
    state, events = act(state, P2, "discard b12")
    result = ENG.result(state)
    assert result.winners == [] and result.details["reason"] == "stock"
    assert result.round_scores == [-114, -202, -8, -5]


# ---- thresholds -------------------------------------------------------------------------------------


def test_T25_increasing_thresholds() -> None:
    # T-25 (R101-38)
    reds = " ".join(f"r{n}" for n in range(1, 14))
    state = scenario(
        hands={
            P1: reds + " b3 b4 b5 b6 b7 k13 y13",
            P2: reds + " b5 b6 b7 b8 k13 y13",
            P3: "k1 k1 k2 k2 k3 k3 k4 k4 k5 k5 b13 b12",
            P4: "y1 y1 y2 y2 y3 y3 y4 y4 y5 y5 y6 y6 b13",
        },
        stock="k12 k11 k10 k9 k8 k7", options={"threshold_mode": "increasing"},
    )
    state, events = act(state, P1, f"open {reds} | b3 b4 b5 b6 b7")
    assert state["thresholds"] == {"series": 117, "pairs": 5}
    state, _ = act(state, P1, "discard k13")
    state, _ = act(state, P2, "draw")
    rejected(state, P2, "open r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 | b5 b6 b7 b8", "E_THRESHOLD")
    state, _ = act(state, P2, f"open {reds} | b5 b6 b7 b8")
    assert state["thresholds"]["series"] == 118
    state, _ = act(state, P2, "discard k13")
    state, _ = act(state, P3, "draw")
    state, _ = act(state, P3, "open k1 k1 | k2 k2 | k3 k3 | k4 k4 | k5 k5")
    assert state["thresholds"] == {"series": 118, "pairs": 6}
    state, _ = act(state, P3, "discard b13")
    state, _ = act(state, P4, "draw")
    rejected(state, P4, "open y1 y1 | y2 y2 | y3 y3 | y4 y4 | y5 y5", "E_THRESHOLD")
    state, _ = act(state, P4, "open y1 y1 | y2 y2 | y3 y3 | y4 y4 | y5 y5 | y6 y6")
    assert state["thresholds"]["pairs"] == 7


def test_T26_fixed_thresholds() -> None:
    # T-26 (R101-38): fixed mode: 116, then 101, both accepted.
    reds = " ".join(f"r{n}" for n in range(1, 14))
    state = scenario(
        hands={P1: reds + " b3 b4 b5 b6 b7 k1 k3", P2: "b13 k13 y13 k11 k12 k13 y5 y6 y7 y8 k2"}, stock="b1 b2 y1"
    )
    state, _ = act(state, P1, f"open {reds} | b3 b4 b5 b6 b7")
    assert state["thresholds"] == {"series": 101, "pairs": 5}
    state, _ = act(state, P1, "discard k1")
    state, _ = act(state, P2, "draw")
    state, _ = act(state, P2, "open b13 k13 y13 | k11 k12 k13 | y5 y6 y7 y8")
    assert state["status"][P2] == "series"


# ---- Joker button -------------------------------------------------------------------------------------


def test_T27_joker_button() -> None:
    # T-27 (R101-19)
    opts = {"joker_button": "on"}
    state = scenario(hands={P2: "k1 k2 k3"}, stock_size=15, turn=P2, phase="draw", options=opts)
    state, _ = act(state, P2, "joker")
    assert sorted(state["hands"][P2]) == ["j", "k1", "k2", "k3"] and len(state["stock"]) == 15
    rejected(state, P2, "draw", "E_PHASE")
    rejected(state, P2, "take", "E_PHASE")
    state, _ = act(state, P2, "discard k1")
    state, _ = act(state, P3, "draw")
    rejected(state, P3, "joker", "E_JOKER_BUTTON")  # after a stock draw
    for seat in (P3, P4, P1):
        state, _ = act(state, seat, Timeout())
    rejected(state, P2, "joker", "E_JOKER_BUTTON")  # once per round
    fresh = ENG.new_game(4, seed=2, options=opts, deck=["r1"])
    rejected(fresh, P1, "joker", "E_JOKER_BUTTON")  # the starter's first turn has no DRAW
    # Available again next round.
    done, _ = act(restage(state, hands={P2: "k5"}, status={P2: "series"}, turn=P2), P2, "discard k5")
    nxt = ENG.next_round(done)
    assert nxt["joker_used"] == [False] * 4 and nxt["turn"] == P3  # the starter moved on one seat
    for seat in (P3, P4, P1):
        nxt, _ = act(nxt, seat, Timeout())
    nxt, _ = act(nxt, P2, "joker")


# ---- swaps ----------------------------------------------------------------------------------------


def test_T28_swap_in_a_set() -> None:
    # T-28 (R101-41): a set joker's colour stays open.
    for tile in ("k8", "y8"):
        state = scenario(hands={P1: f"{tile} b8 r1"}, table=[("r8 b8 j=8", P2)], status={P1: "series", P2: "series"})
        state, _ = act(state, P1, f"swap 1 {tile}")
        assert "j" in state["hands"][P1] and "j" not in state["table"][0]["tiles"]
    state = scenario(hands={P1: "b8 r1"}, table=[("r8 b8 j=8", P2)], status={P1: "series", P2: "series"})
    rejected(state, P1, "swap 1 b8", "E_DOES_NOT_FIT")


def test_T29_take_a_discarded_joker() -> None:
    # T-29 (R101-42/17)
    state = scenario(
        hands={P2: "j r1 r2", P3: "k1 k2"}, table=[("b9 b10 b11", P1)], status={P1: "series", P3: "series"}, turn=P2,
    )
    state, _ = act(state, P2, "discard j")
    state, _ = act(state, P3, "take add 1 j=b12")
    assert shown(state, 1) == ["b9", "b10", "b11", "j=b12"]


# ---- auto-play ---------------------------------------------------------------------------------------


def test_T30_auto_discards_highest() -> None:
    # T-30 (R101-49)
    state = scenario(hands={P3: "r13 k13 j r2 b5 y7"}, stock="k12 b1", turn=P3, phase="draw")
    state, events = act(state, P3, Timeout())
    assert "k12" in state["hands"][P3] and state["discard"][-1] == "r13"


def test_T41_timeout_after_a_meld() -> None:
    # T-41 (R101-49): the meld stays; k11 goes (11, k before y).
    state = scenario(hands={P4: "b2 y11 k11 r4 r5 r6"}, status={P4: "series"}, turn=P4)
    state, _ = act(state, P4, "meld r4 r5 r6")
    state, _ = act(state, P4, Timeout())
    assert state["discard"][-1] == "k11" and state["table"][-1]["tiles"] == ["r4", "r5", "r6"]
    assert sorted(state["hands"][P4]) == ["b2", "y11"]


# ---- match -----------------------------------------------------------------------------------------


def _round_with(state: dict, winner: int, last: str, hands: dict, status: dict) -> dict:
    """Restage the current round so `winner` finishes by discarding `last`."""
    state = restage(state, hands={winner: last, **hands}, status={winner: "series", **status}, turn=winner)
    state, _ = act(state, winner, f"discard {last}")
    return state


def test_T31_match_totals() -> None:
    # T-31 (R101-60/61): 3 players, 3 rounds.
    state = ENG.new_game(3, seed=4, options={"match_rounds": 3})
    state = _round_with(state, P1, "k1", {P2: "b10 b12 y13"}, {P2: "series"})  # P2 H=35
    assert ENG.result(state).round_scores == [101, -35, -202]
    state = ENG.next_round(state)
    state = _round_with(state, P2, "k1", {P3: "b10 r2"}, {P3: "series"})
    assert ENG.result(state).round_scores == [-202, 101, -12]
    state = ENG.next_round(state)
    state = _round_with(state, P3, "j", {P1: "b5", P2: "y9 y11"}, {P1: "series", P2: "series"})
    result = ENG.result(state)
    assert result.round_scores == [-10, -40, 202]
    assert result.totals == [-111, 26, -12]
    assert result.match_over and result.match_winners == [P2]


def test_T32_tie_needs_another_round() -> None:
    # T-32 (R101-61): tied leaders and allow_draw false: round 4; then a unique leader ends it.
    for allow_draw in (False, True):
        state = ENG.new_game(3, seed=4, options={"match_rounds": 3, "allow_draw": allow_draw})
        state["round"], state["totals"] = 3, [36, 46, -200]
        state = _round_with(state, P3, "k1", {P1: "b10", P2: "b10 k10"}, {P1: "series", P2: "series"})
        result = ENG.result(state)
        assert result.totals == [26, 26, -99]
        if allow_draw:
            assert result.match_over and result.match_winners == [P1, P2]
            continue
        assert not result.match_over
        state = ENG.next_round(state)
        assert state["round"] == 4
        state = _round_with(state, P2, "k1", {}, {})
        assert ENG.result(state).match_over and ENG.result(state).match_winners == [P2]


# ---- more opening and meld examples ----------------------------------------------------------------


def test_T33_duplicate_pair() -> None:
    # T-33 (R101-33)
    state = scenario(hands={P1: "r5 j r5 j b7 b7 k2 k2 y9 y9 y1"})
    rejected(state, P1, "open (r5 j)(r5 j)(b7 b7)(k2 k2)(y9 y9)", "E_DUPLICATE_PAIR")


def test_T34_hand_value_with_joker() -> None:
    # T-34 (R101-50): j r2 = 103.
    state = scenario(hands={P1: "k4", P2: "j r2"}, status={P1: "series", P2: "series"})
    state, _ = act(state, P1, "discard k4")
    assert ENG.result(state).details["hand_values"][P2] == 103
    assert finish_scores(state)[P2] == -103


def test_T35_default_joker_below_13() -> None:
    # T-35 (R101-24): [r12 r13 j] -> j=r11 (cannot go above 13); value 36.
    state = scenario(hands={P1: "r12 r13 j k1"}, status={P1: "series"})
    state, _ = act(state, P1, "meld r12 r13 j")
    assert shown(state, 1) == ["j=r11", "r12", "r13"]
    assert ENG.view(state, None)["table"][0]["value"] == 36


def test_T36_no_wrap_when_adding() -> None:
    # T-36 (R101-40)
    state = scenario(hands={P2: "y1 y10 k1"}, table=[("y11 y12 y13", P1)], status={P1: "series", P2: "series"}, turn=P2)
    rejected(state, P2, "add 1 y1", "E_DOES_NOT_FIT")
    state, _ = act(state, P2, "add 1 y10")
    assert state["table"][0]["tiles"] == ["y10", "y11", "y12", "y13"]


def test_T37_mixed_opening() -> None:
    # T-37 (R101-30)
    state = scenario(hands={P1: "r10 r11 r12 k13 b13 y13 b9 b10 b11 r5 r5 k1"})
    rejected(state, P1, "open [r10 r11 r12] [k13 b13 y13] [b9 b10 b11] (r5 r5)", "E_MIXED_OPENING")


def test_T38_pair_track_independent() -> None:
    # T-38 (R101-38)
    state = scenario(
        hands={P3: "r5 r5 b7 b7 k9 k9 y1 y1 r13 r13 k2"}, status={P2: "series"}, turn=P3,
        options={"threshold_mode": "increasing"},
    )
    state["thresholds"] = {"series": 131, "pairs": 5}
    state, _ = act(state, P3, "open (r5 r5)(b7 b7)(k9 k9)(y1 y1)(r13 r13)")
    assert state["status"][P3] == "pairs"


def test_T39_only_the_last_discard() -> None:
    # T-39 (R101-16/17): r4 is dead once P2 has discarded b9.
    state = scenario(hands={P1: "r4 k1 k2", P2: "b9 y5", P3: "r2 r3 y1"}, status={P3: "series"}, stock="k5 k6 k7")
    state, _ = act(state, P1, "discard r4")
    state, _ = act(state, P2, "draw")
    state, _ = act(state, P2, "discard b9")
    rejected(state, P3, "take meld r2 r3 r4", "E_TAKE_UNUSED")


def test_T40_take_respects_hand_floor() -> None:
    # T-40 (R101-15/17)
    state = scenario(hands={P2: "r6 r7"}, status={P2: "series"}, discard="r8", turn=P2, phase="draw")
    rejected(state, P2, "take meld r6 r7 r8", "E_HAND_FLOOR")
    act(state, P2, "draw")


def test_T42_take_into_a_pairs_opening() -> None:
    # T-42 (R101-17/33)
    state = scenario(hands={P2: "b7 r1 r1 k3 k3 y9 y9 b12 b12 k5"}, discard="b7", turn=P2, phase="draw")
    state, _ = act(state, P2, "take open (b7 b7)(r1 r1)(k3 k3)(y9 y9)(b12 b12)")
    assert state["status"][P2] == "pairs" and state["hands"][P2] == ["k5"]


def test_T43_thresholds_reset_each_round() -> None:
    # T-43 (R101-55/38)
    state = scenario(hands={P1: "k4"}, status={P1: "series"}, options={"threshold_mode": "increasing"})
    state["thresholds"] = {"series": 131, "pairs": 5}
    state, _ = act(state, P1, "discard k4")
    state = ENG.next_round(state)
    assert state["thresholds"] == {"series": 101, "pairs": 5} and state["status"] == ["unopened"] * 4
    state = restage(state, hands={P1: "b13 k13 y13 k11 k12 k13 y5 y6 y7 y8 k2"}, turn=P1)
    state, _ = act(state, P1, "open b13 k13 y13 | k11 k12 k13 | y5 y6 y7 y8")
    assert state["thresholds"]["series"] == 102


def test_T44_button_joker_finish() -> None:
    # T-44 (R101-19/46)
    state = scenario(
        hands={P2: "r6"}, table=[("r3 r4 r5", P1)], status={P1: "series", P2: "series"}, turn=P2, phase="draw",
        options={"joker_button": "on"},
    )
    state, _ = act(state, P2, "joker")
    state, _ = act(state, P2, "add 1 r6")
    state, _ = act(state, P2, "discard j")
    result = ENG.result(state)
    assert result.winners == [P2] and result.details["joker_finish"] and result.round_scores[P2] == 202
    assert result.round_scores[P3] == -404  # unopened ×2


def test_T45_swap_in_a_pair() -> None:
    # T-45 (R101-41)
    state = scenario(hands={P1: "r5 k1"}, table=[("(r5 j=r5)", P4)], status={P1: "series", P4: "pairs"})
    state, _ = act(state, P1, "swap 1 r5")
    assert state["table"][0]["tiles"] == ["r5", "r5"] and sorted(state["hands"][P1]) == ["j", "k1"]
