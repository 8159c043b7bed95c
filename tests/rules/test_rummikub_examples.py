"""The worked examples T-01..T-36 of shared/rules/rummikub.md §11, one test each.

Unless a test says otherwise: 3 players, default options, P1 = seat 0. Rejections assert the
reason code (never message text) and that the state is unchanged (`rejected`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules import IllegalAction
from rules.core.tiles import tile_set
from tests.rules.scenario import ENG, act, layout, play_adding, rejected, restage, scenario, snapshot, tiles


def table_of(state: dict) -> Counter:
    """The table as a multiset of normalised melds (the order of melds does not matter)."""
    return Counter((tuple(m["tiles"]), m["prefix"]) for m in state["table"])


def same_table(state: dict, text: str) -> bool:
    return table_of(state) == table_of({"table": layout(text)})


def rack(state: dict, seat: int) -> Counter:
    return Counter(state["racks"][seat])


def pass_all(state: dict, *seats: int) -> dict:
    for seat in seats:
        assert ENG.current_seat(state) == seat
        state, _ = act(state, seat, "pass")
    return state


# ---- setup and the initial meld ---------------------------------------------------------------


@pytest.mark.parametrize(("players", "pool"), [(2, 78), (3, 64), (4, 50)])
def test_T01_deal_14_each_rest_is_pool(players: int, pool: int) -> None:  # RK-11
    for seed in (0, 1, 99):
        state = ENG.new_game(players, seed=seed)
        assert [len(r) for r in state["racks"]] == [14] * players
        assert len(state["pool"]) == pool
        assert state["table"] == []
        assert sorted(ENG.all_items(state)) == sorted(tile_set())
    # A stacked deck is dealt in blocks of 14 (RK-11).
    deck = tiles("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 j") * 2 + tiles("b1 b2")
    state = ENG.new_game(players, seed=5, deck=deck)
    assert state["racks"][0] == deck[:14]
    assert state["racks"][1] == deck[14:28]
    if players > 2:
        assert state["racks"][2][:2] == ["b1", "b2"]
    else:
        assert state["pool"][:2] == ["b1", "b2"]


def test_T02_initial_meld_of_33_opens() -> None:  # RK-41, RK-40
    state = scenario(racks={0: "r10 r11 r12 b1 b2 k5"})
    new, events = act(state, 0, "play r10 r11 r12")
    assert new["opened"] == [True, False, False]
    assert rack(new, 0) == Counter(tiles("b1 b2 k5"))
    assert same_table(new, "[r10 r11 r12]")
    assert ENG.current_seat(new) == 1
    assert any(e.type == "MeldsPlayed" and e.data["opened_now"] for e in events)


def test_T03_initial_meld_of_21_too_low() -> None:  # RK-43, RK-46 C7
    state = scenario(racks={0: "k5 b5 y5 r1 r2 r3 b9"})
    err = rejected(state, 0, "play [k5 b5 y5] [r1 r2 r3]", "E_INITIAL_TOO_LOW")
    assert err.params["value"] == 21
    assert err.params["required"] == 30
    # Values never accumulate: a second 21-point try is just as low (RK-43).
    rejected(state, 0, "play [k5 b5 y5] [r1 r2 r3]", "E_INITIAL_TOO_LOW")


def test_T04_joker_in_initial_meld_counts_as_its_tile() -> None:  # RK-33, RK-42
    state = scenario(racks={0: "r11 j r13 b13 k2 k3"})
    new, _ = act(state, 0, "play [r11 j r13]")
    assert new["opened"][0]
    assert ENG.view(new, None)["table"][0]["value"] == 36
    new, _ = act(state, 0, "play [r13 b13 j]")
    assert new["opened"][0]
    assert ENG.view(new, None)["table"][0]["value"] == 39


def test_T05_initial_meld_may_not_extend_table_melds() -> None:  # RK-41, RK-46 C6
    state = scenario(table=["b7 b8 b9"], racks={1: "b10 r10 k10 y10 k2"}, opened={0: True}, turn=1)
    rejected(state, 1, "play [b7 b8 b9 b10] [r10 k10 y10]", "E_INITIAL_TOUCHES_TABLE")
    new, _ = act(state, 1, "play [b7 b8 b9] [r10 k10 y10]")  # 30 points of new melds
    assert new["opened"][1]
    assert rack(new, 1) == Counter(tiles("b10 k2"))
    assert same_table(new, "[b7 b8 b9] [r10 k10 y10]")


def test_T06_table_group_resubmitted_in_another_order() -> None:  # RK-47, RK-46 C6/C7
    state = scenario(table=["k9 r9 b9"], racks={0: "r11 r12 r13 y4"})
    new, _ = act(state, 0, "play [r9 b9 k9] [r11 r12 r13]")
    assert new["opened"][0]
    assert same_table(new, "[r9 b9 k9] [r11 r12 r13]")
    assert rack(new, 0) == Counter(["y4"])


# ---- manipulation -----------------------------------------------------------------------------


def test_T07_fourth_tile_of_group_reused_in_run() -> None:  # RK-48, RK-45
    state = scenario(table=["b5 r5 k5 y5"], racks={0: "b4 b6 b7 y1"}, opened={0: True})
    new, _ = act(state, 0, "play [r5 k5 y5] [b4 b5 b6 b7]")
    assert new["racks"][0] == ["y1"]
    assert same_table(new, "[r5 k5 y5] [b4 b5 b6 b7]")
    assert ENG.result(new) is None


def test_T08_run_split_by_duplicate_and_going_out() -> None:  # RK-48, RK-70, RK-24
    state = scenario(table=["r3 r4 r5 r6 r7"], racks={0: "r5"}, opened={0: True})
    new, events = act(state, 0, "play [r3 r4 r5] [r5 r6 r7]")
    assert new["racks"][0] == []
    assert same_table(new, "[r3 r4 r5] [r5 r6 r7]")
    result = ENG.result(new)
    assert result is not None and result.winners == [0]
    assert ENG.current_seat(new) is None  # nobody plays after that (RK-70)
    assert any(e.type == "RoundScored" for e in events)


def test_T09_table_tile_removed() -> None:  # RK-46 C2
    state = scenario(table=["r5 k5 y5 b5"], racks={0: "y6 y7 y8"}, opened={0: True})
    err = rejected(state, 0, "play [r5 k5 y5] [y6 y7 y8]", "E_TILE_REMOVED")
    assert err.params["tiles"] == ["b5"]


def test_T10_no_rack_tile_played() -> None:  # RK-46 C3
    state = scenario(table=["r3 r4 r5 r6", "k6 b6 y6"], racks={0: "b1 b2"}, opened={0: True})
    rejected(state, 0, "play [r3 r4 r5] [r6 k6 b6 y6]", "E_NO_TILE_PLAYED")


def test_T11_tile_not_on_rack() -> None:  # RK-46 C4
    state = scenario(racks={0: "r9 b9 k9 r10 r11 y1"}, opened={0: True})
    err = rejected(state, 0, "play [r9 b9 k9] [r9 r10 r11]", "E_NOT_ON_RACK")
    assert err.params["tiles"] == ["r9"]


def test_T12_invalid_meld_is_named() -> None:  # RK-46 C5
    state = scenario(table=["r5 k5 y5"], racks={0: "y6 y7"}, opened={0: True})
    err = rejected(state, 0, "play [r5 k5] [y5 y6 y7]", "E_INVALID_MELD")
    assert err.params["meld"] == "r5 k5"
    assert err.params["index"] == 1


def test_T13_first_failing_check_wins() -> None:  # RK-46 (order C2 before C5)
    state = scenario(table=["r5 k5 y5 b5"], racks={0: "y6 y7 b1"}, opened={0: True})
    rejected(state, 0, "play [r5 k5 y5] [y6 y7]", "E_TILE_REMOVED")


# ---- jokers -----------------------------------------------------------------------------------


def test_T14_joker_retrieved_replaced_from_rack() -> None:  # RK-52
    state = scenario(table=["r5 j r7"], racks={0: "r6 b9 k9"}, opened={0: True})
    new, _ = act(state, 0, "play [r5 r6 r7] [b9 k9 j]")
    assert same_table(new, "[r5 r6 r7] [b9 k9 j]")
    assert new["racks"][0] == []  # the whole rack was played: P1 goes out (RK-70)
    assert ENG.result(new).winners == [0]


def test_T15_joker_replacement_taken_from_table() -> None:  # RK-52, D-13
    state = scenario(table=["r5 j r7", "r6 b6 k6 y6"], racks={0: "b9 k9"}, opened={0: True})
    new, _ = act(state, 0, "play [r5 r6 r7] [b6 k6 y6] [b9 k9 j]")
    assert same_table(new, "[r5 r6 r7] [b6 k6 y6] [b9 k9 j]")
    assert ENG.result(new).winners == [0]


def test_T16_joker_retrieved_without_replacement() -> None:  # RK-52
    state = scenario(table=["r4 r5 j"], racks={0: "r3 b9 k9"}, opened={0: True})
    rejected(state, 0, "play [r3 r4 r5] [b9 k9 j]", "E_JOKER_NOT_REPLACED")


def test_T17_tile_added_beside_joker_keeps_it() -> None:  # RK-53
    state = scenario(table=["r4 r5 j"], racks={0: "r7"}, opened={0: True})
    new, _ = act(state, 0, "play [r4 r5 j r7]")  # j still r6
    assert same_table(new, "[r4 r5 j r7]")
    rejected(state, 0, "play [r4 r5 r7 j]", "E_INVALID_MELD")


@pytest.mark.parametrize(
    ("tile", "code"),
    [("y8", None), ("k8", None), ("r8", "E_INVALID_MELD")],
)
def test_T18_group_joker_replaced_by_either_missing_colour(tile: str, code: str | None) -> None:  # RK-54
    state = scenario(table=["r8 b8 j"], racks={0: f"{tile} k3 k4"}, opened={0: True})
    command = f"play [r8 b8 {tile}] [k3 k4 j]"  # j = k5
    if code is None:
        new, _ = act(state, 0, command)
        assert same_table(new, f"[r8 b8 {tile}] [k3 k4 j]")
        assert new["racks"][0] == [] and ENG.result(new).winners == [0]
    else:
        err = rejected(state, 0, command, code)
        assert err.params["meld"] == "r8 b8 r8"


def test_T19_joker_in_group_of_four_kept_when_a_tile_leaves() -> None:  # RK-53
    state = scenario(table=["r8 b8 k8 j"], racks={0: "k9 k10"}, opened={0: True})
    new, _ = act(state, 0, "play [r8 b8 j] [k8 k9 k10]")
    assert same_table(new, "[r8 b8 j] [k8 k9 k10]")
    assert new["racks"][0] == [] and ENG.result(new).winners == [0]


def test_T20_two_retrieved_jokers_need_two_replacements() -> None:  # RK-52
    state = scenario(table=["r5 j r7", "r4 r5 j"], racks={0: "r6 r3 k1 k2"}, opened={0: True})
    rejected(state, 0, "play [r5 r6 r7] [r3 r4 r5] [k1 k2 j j]", "E_JOKER_NOT_REPLACED")
    state = scenario(table=["r5 j r7", "r4 r5 j"], racks={0: "r6 r6 k1 k2"}, opened={0: True})
    new, _ = act(state, 0, "play [r5 r6 r7] [r4 r5 r6] [k1 k2 j j]")
    assert same_table(new, "[r5 r6 r7] [r4 r5 r6] [k1 k2 j j]")
    assert new["racks"][0] == [] and ENG.result(new).winners == [0]


def test_T21_no_joker_retrieval_on_initial_meld_turn() -> None:  # RK-55, RK-46 C6
    state = scenario(table=["r5 j r7"], racks={0: "r6 r10 r11 r12 b1"})
    rejected(state, 0, "play [r5 r6 r7] [r10 r11 r12 j]", "E_INITIAL_TOUCHES_TABLE")


@pytest.mark.parametrize(
    ("command", "values", "kind"),
    [
        ("play [r5 j j] [k12 b12 y12]", [18, 36], "run"),  # 54
        ("play G:[r5 j j] [k12 b12 y12]", [15, 36], "group"),  # 51
    ],
)
def test_T22_ambiguous_meld_run_by_default_group_with_prefix(command: str, values: list[int], kind: str) -> None:
    # RK-35, RK-33
    state = scenario(racks={0: "r5 j j k12 b12 y12 b1"})
    new, _ = act(state, 0, command)
    assert new["opened"][0]
    view = ENG.view(new, None)["table"]
    assert sorted(m["value"] for m in view) == sorted(values)
    ambiguous = next(m for m in view if "r5" in m["tiles"])
    assert ambiguous["type"] == kind
    assert ambiguous["prefix"] == ("G" if kind == "group" else None)


# ---- turns, timer and the empty pool ------------------------------------------------------------


def test_T23_draw_allowed_when_a_play_is_possible() -> None:  # RK-20, D-12
    state = scenario(racks={0: "r10 r11 r12 b1"}, opened={0: True})
    top = state["pool"][0]
    new, events = act(state, 0, "draw")
    assert rack(new, 0) == rack(state, 0) + Counter([top])
    assert len(new["pool"]) == len(state["pool"]) - 1
    assert new["pool"] == state["pool"][1:]
    assert new["table"] == state["table"]
    assert ENG.current_seat(new) == 1
    received = [e for e in events if e.type == "TilesReceived"]
    assert received and all(e.seat == 0 for e in received)


@pytest.mark.parametrize(("pool", "rack_after", "pool_after"), [(20, 12, 17), (2, 11, 0)])
def test_T24_timeout_draws_penalty_tiles(pool: int, rack_after: int, pool_after: int) -> None:  # RK-23
    state = scenario(racks={0: "r1 r2 r4 b6 b8 k10 k12 y3 y9"}, pool_size=pool, opened={0: True})
    assert len(state["racks"][0]) == 9 and len(state["pool"]) == pool
    # A draft in progress is thrown away; the table stays as it was (RK-23, RK-26).
    state, _ = act(state, 0, "new r1 r2")
    new, _ = act(state, 0, "timeout")
    assert len(new["racks"][0]) == rack_after
    assert rack(new, 0) == rack(state, 0) + Counter(state["pool"][:3])
    assert len(new["pool"]) == pool_after
    assert new["table"] == state["table"]
    assert new["draft"] is None
    assert ENG.current_seat(new) == 1
    assert new["passes"] == 0


def test_T24_timeout_with_empty_pool_counts_as_pass() -> None:  # RK-23, RK-60
    state = scenario(racks={0: "r1 r2 r4 b6 b8 k10 k12 y3 y9"}, pool="", opened={0: True})
    new, _ = act(state, 0, "timeout")
    assert new["racks"][0] == state["racks"][0]
    assert new["table"] == state["table"]
    assert new["passes"] == 1
    assert ENG.current_seat(new) == 1
    # Two more passes and the blocked game ends: the timeout counted as one of the n (RK-61).
    new = pass_all(new, 1)
    new, _ = act(new, 2, "timeout")
    assert ENG.result(new) is not None


def test_T25_rejected_play_costs_nothing_then_valid_play() -> None:  # RK-22, D-04
    state = scenario(racks={0: "r10 r11 r12 b1 b2"})
    rejected(state, 0, "play [r10 r11 b1]", "E_INVALID_MELD")  # "at 20 s"
    assert len(state["racks"][0]) == 5 and ENG.current_seat(state) == 0
    new, _ = act(state, 0, "play [r10 r11 r12]")  # "at 50 s": same turn, no penalty
    assert rack(new, 0) == Counter(tiles("b1 b2"))
    assert len(new["pool"]) == len(state["pool"])


def _ending_state(options: dict | None = None) -> dict:
    """P1 to draw the last pool tile; P3 (opened) holds a run to play; known racks for scoring."""
    return scenario(
        racks={0: "r4 k6", 1: "y9 y10", 2: "k11 k12 k13 b2"},
        pool="b1",
        opened={2: True},
        options=options,
    )


def test_T26_blocked_game_ends_after_n_passes_in_a_row() -> None:  # RK-61, RK-73
    state = _ending_state()
    state, events = act(state, 0, "draw")  # the last pool tile
    assert state["pool"] == [] and any(e.type == "PoolEmptied" for e in events)
    rejected(state, 1, "draw", "E_DRAW_EMPTY_POOL")
    state = pass_all(state, 1)
    state, _ = act(state, 2, play_adding(state, "[k11 k12 k13]"))  # resets the count
    assert state["passes"] == 0
    state = pass_all(state, 0, 1)
    assert ENG.result(state) is None
    state = pass_all(state, 2)
    result = ENG.result(state)
    assert result is not None and result.details["reason"] == "empty_pool"
    # V = P1 r4 k6 b1 = 11, P2 y9 y10 = 19, P3 b2 = 2; m = 2 (RK-73).
    assert result.details["rack_values"] == [11, 19, 2]
    assert result.winners == [2]
    assert result.round_scores == [-9, -17, 26]
    rejected(state, 0, "pass", "E_NOT_YOUR_TURN")  # the game is over (RK-25)


def test_T27_one_more_turn_each_after_last_tile() -> None:  # RK-62, RK-73
    state = _ending_state({"empty_pool_end": "one_more_turn"})
    state, _ = act(state, 0, "draw")  # P1 draws the last tile
    state = pass_all(state, 1)  # P2
    state, _ = act(state, 2, play_adding(state, "[k11 k12 k13]"))  # P3
    assert ENG.result(state) is None
    assert ENG.current_seat(state) == 0
    state, _ = act(state, 0, "pass")  # P1, who drew the last tile, goes last
    result = ENG.result(state)
    assert result is not None and result.details["reason"] == "empty_pool"
    assert result.round_scores == [-9, -17, 26]
    assert ENG.current_seat(state) is None


# ---- scoring and the match --------------------------------------------------------------------


def test_T28_going_out_collects_all_racks() -> None:  # RK-72, RK-71
    state = scenario(
        players=4,
        racks={0: "r10 r11 r12", 1: "r3 b10 j", 2: "k1 y13", 3: "y2 y2 b8"},
        opened={0: True},
    )
    state, _ = act(state, 0, "play [r10 r11 r12]")
    result = ENG.result(state)
    assert result.winners == [0]
    assert result.details["rack_values"] == [0, 43, 14, 12]
    assert result.round_scores == [69, -43, -14, -12]
    assert sum(result.round_scores) == 0
    assert result.totals == [69, -43, -14, -12]
    assert result.match_over and result.match_winners == [0]


def _empty_pool_end(racks: dict[int, str], players: int = 3, via_timeout: bool = False) -> dict:
    state = scenario(players=players, racks=racks, pool="")
    for seat in range(players):
        state, _ = act(state, seat, "timeout" if via_timeout and seat == 0 else "pass")
    assert ENG.result(state) is not None
    return state


def test_T29_empty_pool_single_lowest_rack() -> None:  # RK-73
    state = _empty_pool_end({0: "r4 k6", 1: "b12 k13", 2: "y13 y12 b11 r4"})
    result = ENG.result(state)
    assert result.details["rack_values"] == [10, 25, 40]
    assert result.winners == [0]
    assert result.round_scores == [45, -15, -30]


def test_T30_empty_pool_tied_lowest_share_floored() -> None:  # RK-73, D-10
    state = _empty_pool_end({0: "r4 k6", 1: "b3 b7", 2: "y13 y12 r6"})
    result = ENG.result(state)
    assert result.details["rack_values"] == [10, 10, 31]
    assert result.winners == [0, 1]
    assert result.round_scores == [10, 10, -21]  # floor(21 / 2)


def test_T31_joker_on_rack_counts_30_when_choosing_lowest() -> None:  # RK-71, RK-73, D-15
    state = _empty_pool_end({0: "j", 1: "r5 r6"}, players=2, via_timeout=True)
    result = ENG.result(state)
    assert result.details["rack_values"] == [30, 11]
    assert result.winners == [1]
    assert result.round_scores == [-19, 19]


def test_T32_match_of_two_games_highest_total_wins() -> None:  # RK-80, RK-81, RK-12
    state = scenario(
        racks={0: "r10 r11 r12", 1: "r3 b10 j", 2: "k1 y13"},
        opened={0: True},
        options={"match_games": 2},
    )
    state, _ = act(state, 0, "play [r10 r11 r12]")  # G1: P1 +57, P2 -43, P3 -14
    result = ENG.result(state)
    assert result.round_scores == [57, -43, -14]
    assert not result.match_over
    state = ENG.next_round(state)
    assert state["round"] == 2 and state["starter"] == 1  # the next seat starts game 2 (RK-12)
    assert state["opened"] == [False] * 3 and state["table"] == []
    assert [len(r) for r in state["racks"]] == [14] * 3
    state = restage(state, racks={0: "b10 k10 y10", 1: "b11 b12 b13", 2: "r7 k8"}, turn=1)
    state, _ = act(state, 1, "play [b11 b12 b13]")  # G2: P2 goes out (36 points opens)
    result = ENG.result(state)
    assert result.round_scores == [-30, 45, -15]
    assert result.totals == [27, 2, -29]
    assert result.match_over and result.match_winners == [0]
    with pytest.raises(IllegalAction) as info:
        ENG.next_round(state)
    assert info.value.code == "E_MATCH_OVER"


def test_T33_tied_leaders_play_another_game_until_one_leads() -> None:  # RK-82, D-11
    tie_racks = {0: "r4 k6", 1: "b3 b7", 2: "y13 y12 y11 y10 y9 r9"}  # V 10, 10, 64 -> +27, +27, -54
    state = ENG.new_game(3, seed=4, options={"first_player": 1})
    for game in (1, 2):
        first = state["starter"]
        assert first == game - 1  # the starter rotates every game (RK-12)
        state = restage(state, racks=tie_racks, pool="", turn=first)
        state = pass_all(state, first, (first + 1) % 3, (first + 2) % 3)
        result = ENG.result(state)
        assert result.round_scores == [27, 27, -54]
        assert result.totals == [27 * game, 27 * game, -54 * game]
        assert not result.match_over and result.match_winners == []  # P1 = P2: one more game
        state = ENG.next_round(state)  # available: the match goes on
        assert state["round"] == game + 1
    # Game 3: P3 goes out and P1 keeps the single lead.
    state = restage(state, racks={0: "r1", 1: "r2 r3", 2: "k11 k12 k13"}, opened={2: True}, turn=2)
    state, _ = act(state, 2, "play [k11 k12 k13]")
    result = ENG.result(state)
    assert result.round_scores == [-1, -5, 6]
    assert result.totals == [53, 49, -102]
    assert result.match_over and result.match_winners == [0]


def test_T34_prefix_decides_ambiguous_and_mismatched_prefix_invalid() -> None:  # RK-35
    state = scenario(racks={0: "k13 j j r5 r6 r7 k12 b12 y12"})
    new, _ = act(state, 0, "play [k13 j j]")
    (m,) = ENG.view(new, None)["table"]
    assert (m["type"], m["value"]) == ("group", 39)
    rejected(state, 0, "play R:[k13 j j]", "E_INVALID_MELD")
    err = rejected(state, 0, "play G:[r5 r6 r7] [k12 b12 y12]", "E_INVALID_MELD")
    assert err.params["meld"] == "r5 r6 r7"


def test_T35_one_passing_joker_pairing_suffices() -> None:  # RK-52 step 3
    state = scenario(
        table=["k8 y8 j", "r6 r7 j"],
        racks={0: "b8 r5 r9 r10 b5 k5 y1"},
        opened={0: True},
    )
    new, _ = act(state, 0, "play [b8 k8 y8] [r5 r6 r7] [j r9 r10] [b5 k5 j]")
    assert new["racks"][0] == ["y1"]
    assert same_table(new, "[b8 k8 y8] [r5 r6 r7] [j r9 r10] [b5 k5 j]")


def test_T36_draft_step_by_step() -> None:  # RK-26, D-16
    state = scenario(table=["r3 r4 r5 r6 r7"], racks={0: "r5 k9"}, opened={0: True})
    rejected(state, 0, "split 1 5", "E_BAD_REF")
    rejected(state, 0, "add 3 r5", "E_BAD_REF")
    rejected(state, 0, "add 1 b2", "E_NOT_ON_RACK")
    state, _ = act(state, 0, "split 1 3")
    # The same rejections leave a started draft as it was.
    rejected(state, 0, "split 1 5", "E_BAD_REF")
    rejected(state, 0, "add 3 r5", "E_BAD_REF")
    rejected(state, 0, "add 1 b2", "E_NOT_ON_RACK")
    state, _ = act(state, 0, "add 2 r5")
    draft = ENG.view(state, 0)["draft"]
    assert [m["tiles"] for m in draft["melds"]] == [["r3", "r4", "r5"], ["r5", "r6", "r7"]]
    assert all(m["valid"] for m in draft["melds"])
    assert draft["rack"] == ["k9"]
    # The draft changed neither the table nor the rack.
    assert state["table"] == layout("[r3 r4 r5 r6 r7]")
    assert sorted(state["racks"][0]) == ["k9", "r5"]
    before = snapshot(state)
    new, _ = act(state, 0, "done")
    assert snapshot(state) == before
    assert same_table(new, "[r3 r4 r5] [r5 r6 r7]")
    assert new["racks"][0] == ["k9"]
    assert new["draft"] is None
    assert ENG.current_seat(new) == 1
