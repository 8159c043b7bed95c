"""Rummikub rules beyond the worked examples: the meld table, prefixes, every reason code, every
option of §9, stacked decks, starter rotation, the draft (RK-26) and view privacy."""

from __future__ import annotations

import json
from collections import Counter
from random import Random
from typing import Any

import pytest

from rules import IllegalAction, SetupError
from rules.core.tiles import tile_set
from rules.rummikub.melds import GROUP, RUN, InvalidMeld, analyse
from tests.rules.scenario import (
    ENG,
    act,
    full_set,
    layout,
    play_adding,
    rejected,
    restage,
    scenario,
    snapshot,
    tiles,
)

# ---- RK-36: the meld table, every row ----------------------------------------------------------

# (meld as written, type or None for invalid, value)
MELD_TABLE = [
    ("[k7 r7 b7 y7]", GROUP, 28),
    ("[k7 r7 b7]", GROUP, 21),
    ("[k7 r7 r7]", None, 0),  # colour repeated
    ("[k7 r7 b7 y7 j]", None, 0),  # group of more than 4
    ("[k3 k4 k5 k6]", RUN, 18),
    ("[r1 r2 r3]", RUN, 6),
    ("[r12 r13 r1]", None, 0),  # 1 cannot follow 13
    ("[r5 r7 r8]", None, 0),  # gap
    ("[r5 b6 k7]", None, 0),  # mixed colours
    ("[r5 j r7]", RUN, 18),
    ("[j r12 r13]", RUN, 36),
    ("[r12 r13 j]", None, 0),  # j would be r14
    ("[j r1 r2]", None, 0),  # j would be r0
    ("[r5 j j]", RUN, 18),
    ("G:[r5 j j]", GROUP, 15),
    ("[j j r5]", RUN, 12),
    ("[r13 j j]", GROUP, 39),
    ("R:[r13 j j]", None, 0),
    ("[r5 r6]", None, 0),  # fewer than 3 tiles
]


def _spec(text: str) -> tuple[tuple[str, ...], str | None]:
    (meld,) = ENG.parse(f"play {text}").melds
    return meld.tiles, meld.prefix


@pytest.mark.parametrize(("text", "kind", "value"), MELD_TABLE, ids=[row[0] for row in MELD_TABLE])
def test_RK36_meld_table_analysis(text: str, kind: str | None, value: int) -> None:  # RK-30..36
    meld_tiles, prefix = _spec(text)
    if kind is None:
        with pytest.raises(InvalidMeld):
            analyse(meld_tiles, prefix)
    else:
        info = analyse(meld_tiles, prefix)
        assert (info.type, info.value) == (kind, value)


@pytest.mark.parametrize(("text", "kind", "value"), MELD_TABLE, ids=[row[0] for row in MELD_TABLE])
def test_RK36_meld_table_through_a_play(text: str, kind: str | None, value: int) -> None:  # RK-36, RK-46 C5
    meld_tiles, _ = _spec(text)
    state = scenario(racks={0: [*meld_tiles, "y1"]}, options={"initial_meld_min": 0})
    if kind is None:
        rejected(state, 0, f"play {text}", "E_INVALID_MELD")
    else:
        new, _ = act(state, 0, f"play {text}")
        (m,) = ENG.view(new, None)["table"]
        assert (m["type"], m["value"]) == (kind, value)


@pytest.mark.parametrize(
    ("text", "joker_sets"),
    [
        ("r5 j r7", [{"r6"}]),
        ("j r12 r13", [{"r11"}]),
        ("r8 b8 j", [{"k8", "y8"}]),  # 3-tile group: 2 candidates (RK-51)
        ("r8 b8 k8 j", [{"y8"}]),  # 4-tile group: 1 candidate
        ("G:r5 j j", [{"b5", "k5", "y5"}] * 2),  # 2 jokers in a group: the same candidates
        ("j j r5", [{"r3"}, {"r4"}]),
    ],
)
def test_RK51_represented_sets(text: str, joker_sets: list[set[str]]) -> None:
    meld_tiles, prefix = _spec(text)
    assert [set(s) for s in analyse(meld_tiles, prefix).joker_sets] == joker_sets


@pytest.mark.parametrize(
    "text",
    ["[j j j]", "[r1 j j j]", "[r5 r5 r6]", "[r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 j]", "[r5 b5 r5]"],
)
def test_RK32_RK34_more_invalid_melds(text: str) -> None:
    meld_tiles, prefix = _spec(text)
    with pytest.raises(InvalidMeld):
        analyse(meld_tiles, prefix)


def test_RK31_run_of_13_is_valid() -> None:
    info = analyse(tiles("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13"))
    assert (info.type, info.value) == (RUN, 91)
    info = analyse(tiles("j r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 j"))
    assert (info.type, info.value) == (RUN, 91)


# ---- RK-35 / RK-47: prefixes -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("R:[r5 j j]", RUN, 18),  # a prefix that agrees with the default
        ("G:[k7 r7 b7]", GROUP, 21),  # a fitting prefix on an unambiguous meld
        ("R:[r5 r6 r7]", RUN, 18),
        ("G:[j r13 j]", GROUP, 39),
        ("G:[j j r1]", GROUP, 3),
        ("[j j r1]", GROUP, 3),  # no run reading (r-1, r0): a group
        ("R:[r1 j j]", RUN, 6),
        ("[j r1 j]", GROUP, 3),  # j would be r0: a group of 1s
    ],
)
def test_RK35_prefix_readings(text: str, kind: str, value: int) -> None:
    meld_tiles, prefix = _spec(text)
    info = analyse(meld_tiles, prefix)
    assert (info.type, info.value) == (kind, value)


@pytest.mark.parametrize("text", ["G:[r5 r6 r7]", "R:[k7 r7 b7]", "R:[r13 j j]", "R:[j j r1]", "G:[r5 b6 j]"])
def test_RK35_prefix_that_does_not_fit_is_invalid(text: str) -> None:
    meld_tiles, prefix = _spec(text)
    state = scenario(racks={0: [*meld_tiles, "y1"]}, options={"initial_meld_min": 0})
    rejected(state, 0, f"play {text}", "E_INVALID_MELD")


def test_RK47_ambiguous_table_melds_keep_their_prefix() -> None:
    state = scenario(racks={0: "r5 j j k12 b12 y12 y1"})
    state, _ = act(state, 0, "play G:[r5 j j] [k12 b12 y12]")
    stored = {tuple(m["tiles"]): m["prefix"] for m in state["table"]}
    assert stored[("r5", "j", "j")] == "G"
    assert {tuple(m["tiles"]): m["prefix"] for m in ENG.view(state, 1)["table"]}[("r5", "j", "j")] == "G"
    # P2 (not opened) resubmits the table as shown and adds an initial meld: C6 holds.
    state = restage(state, table=["G:r5 j j", "k12 b12 y12"], racks={1: "r10 r11 r12 b1"}, turn=1)
    new, _ = act(state, 1, play_adding(state, "[r10 r11 r12]"))
    assert new["opened"][1]
    # Without its prefix the meld reads as a run: a different meld, so the table was touched.
    rejected(state, 1, "play [r5 j j] [k12 b12 y12] [r10 r11 r12]", "E_INITIAL_TOUCHES_TABLE")


def test_RK47_group_order_is_normalised_runs_stay_as_written() -> None:
    state = scenario(racks={0: "y9 k9 j b9 r1 r2 r3 r4"}, options={"initial_meld_min": 0})
    state, _ = act(state, 0, "play [y9 j k9 b9] [r1 r2 r3 r4]")
    assert [m["tiles"] for m in state["table"]] == [["b9", "k9", "y9", "j"], ["r1", "r2", "r3", "r4"]]


# ---- every reason code at least once (RK-46, RK-90) -------------------------------------------


def _opened(**kw: Any) -> dict:
    return scenario(opened={0: True}, **kw)


REASONS = [
    ("E_TILE_REMOVED", lambda: _opened(table=["r1 r2 r3 r4"], racks={0: "k1 k2 k3"}), "play [r1 r2 r3] [k1 k2 k3]"),
    ("E_NO_TILE_PLAYED", lambda: _opened(table=["r1 r2 r3 r4"], racks={0: "k1"}), "play [r1 r2 r3 r4]"),
    ("E_NO_TILE_PLAYED", lambda: _opened(table=["r1 r2 r3 r4"], racks={0: "k1"}), "done"),
    ("E_NOT_ON_RACK", lambda: _opened(racks={0: "k1 k2"}), "play [k1 k2 k3]"),
    ("E_NOT_ON_RACK", lambda: _opened(racks={0: "k1 k2"}), "new k1 k2 k3"),
    ("E_INVALID_MELD", lambda: _opened(racks={0: "k1 k2 b4"}), "play [k1 k2 b4]"),
    ("E_INITIAL_TOUCHES_TABLE", lambda: scenario(table=["r1 r2 r3"], racks={0: "r4 k10 k11 k12"}),
     "play [r1 r2 r3 r4] [k10 k11 k12]"),
    ("E_INITIAL_TOO_LOW", lambda: scenario(racks={0: "r1 r2 r3 b9"}), "play [r1 r2 r3]"),
    ("E_JOKER_NOT_REPLACED", lambda: _opened(table=["k5 b5 y5 j"], racks={0: "r7 r8"}), "play [k5 b5 y5] [r7 r8 j]"),
    ("E_JOKER_NOT_REPLACED", lambda: _opened(table=["k1 k2 k3 j"], racks={0: "r7 r8"}), "play [k1 k2 k3] [r7 r8 j]"),
    ("E_NOT_YOUR_TURN", lambda: scenario(turn=1), "draw"),
    ("E_PASS_NOT_ALLOWED", lambda: scenario(), "pass"),
    ("E_DRAW_EMPTY_POOL", lambda: scenario(racks={0: "r1", 1: "r2", 2: "r3"}, pool=""), "draw"),
    ("E_BAD_REF", lambda: _opened(table=["r1 r2 r3"]), "add 2 r4"),
    ("E_BAD_REF", lambda: _opened(table=["r1 r2 r3"]), "move r4 1 new"),
    ("E_BAD_REF", lambda: _opened(table=["r1 r2 r3"]), "split 1 3"),
]


@pytest.mark.parametrize(("code", "build", "command"), REASONS, ids=[f"{r[0]}-{r[2]}" for r in REASONS])
def test_RK90_reason_codes(code: str, build: Any, command: str) -> None:
    state = build()
    rejected(state, 0, command, code)


def test_RK90_E_PARSE_for_text_that_cannot_be_parsed() -> None:  # RK-46 C1, RK-90
    for text in ("play [r5 r6 x7]", "play r5 r6 r14", "fly", "split 1", "add one r5", "move r5 1 2 3", ""):
        with pytest.raises(IllegalAction) as info:
            ENG.parse(text)
        assert info.value.code == "E_PARSE"


def test_RK25_only_the_player_on_turn_acts() -> None:
    state = scenario(racks={1: "r10 r11 r12 b1"})
    for seat in (1, 2):
        for command in ("draw", "play [r10 r11 r12]", "new r10 r11 r12", "add 1 r10", "split 1 1", "reset",
                        "done", "timeout", "move r10 1 new"):
            err = rejected(state, seat, command, "E_NOT_YOUR_TURN")
            assert err.params["seat"] == seat


def test_RK25_after_the_game_ends_every_action_is_refused() -> None:  # RK-25, RK-70
    state = scenario(racks={0: "r10 r11 r12", 1: "k1 k2 k3 k4"})
    state, _ = act(state, 0, "play [r10 r11 r12]")
    assert ENG.current_seat(state) is None
    for seat in (0, 1, 2):
        for command in ("draw", "pass", "play [k1 k2 k3]", "new k1 k2 k3", "reset", "done", "timeout"):
            rejected(state, seat, command, "E_NOT_YOUR_TURN")


# ---- turn flow ----------------------------------------------------------------------------------


def test_RK10_turns_ascend_and_wrap() -> None:
    state = ENG.new_game(4, seed=3, options={"first_player": 3})
    seen = []
    for _ in range(6):
        seat = ENG.current_seat(state)
        seen.append(seat)
        state, _ = act(state, seat, "draw")
    assert seen == [2, 3, 0, 1, 2, 3]


def test_RK40_RK44_opened_player_manipulates_on_a_later_turn() -> None:
    state = scenario(table=["r3 r4 r5 r6"], racks={0: "k10 k11 k12 r7 y1"})
    rejected(state, 0, "play [r3 r4 r5 r6 r7] [k10 k11 k12]", "E_INITIAL_TOUCHES_TABLE")  # RK-42
    state, _ = act(state, 0, "play [r3 r4 r5 r6] [k10 k11 k12]")
    state, _ = act(state, 1, "draw")
    state, _ = act(state, 2, "draw")
    state, _ = act(state, 0, "play [r3 r4 r5 r6 r7] [k10 k11 k12]")  # RK-44: now free to add
    assert state["opened"][0] and state["racks"][0] == ["y1"]


def test_RK60_not_opened_player_may_open_with_an_empty_pool() -> None:
    state = scenario(racks={0: "r10 r11 r12 b1", 1: "b2", 2: "b3"}, pool="")
    rejected(state, 0, "draw", "E_DRAW_EMPTY_POOL")
    state, _ = act(state, 0, play_adding(state, "[r10 r11 r12]"))
    assert state["opened"][0]


def test_RK61_draws_do_not_count_and_a_play_resets_the_passes() -> None:
    state = scenario(racks={0: "b1", 1: "b2", 2: "b3 b4 b5 y1"}, pool="", opened={2: True})
    state, _ = act(state, 0, "pass")
    state, _ = act(state, 1, "pass")
    assert state["passes"] == 2
    state, _ = act(state, 2, play_adding(state, "[b3 b4 b5]"))
    assert state["passes"] == 0 and ENG.result(state) is None
    for seat in (0, 1):
        state, _ = act(state, seat, "pass")
    assert ENG.result(state) is None
    state, _ = act(state, 2, "pass")
    assert ENG.result(state) is not None


def test_RK62_last_tile_taken_by_a_timeout_penalty_starts_the_last_round() -> None:
    state = scenario(pool_size=2, options={"empty_pool_end": "one_more_turn"})
    state, _ = act(state, 0, "timeout")  # takes the last 2 tiles
    assert state["pool"] == []
    for seat in (1, 2):
        state, _ = act(state, seat, "pass")
    assert ENG.result(state) is None
    state, _ = act(state, 0, "pass")
    assert ENG.result(state) is not None


def test_RK63_going_out_during_the_last_round_wins_at_once() -> None:
    state = scenario(racks={0: "r1", 1: "k11 k12 k13", 2: "b7"}, pool="y5",
                     options={"empty_pool_end": "one_more_turn"}, opened={1: True})
    state, _ = act(state, 0, "draw")
    state, _ = act(state, 1, play_adding(state, "[k11 k12 k13]"))
    result = ENG.result(state)
    assert result.winners == [1] and result.details["reason"] == "out"
    assert result.round_scores == [-6, 13, -7]


def test_RK73_all_tied_score_zero() -> None:  # RK-73, D-10
    state = scenario(racks={0: "r4 k6", 1: "b3 b7", 2: "y10"}, pool="")
    for seat in (0, 1, 2):
        state, _ = act(state, seat, "pass")
    result = ENG.result(state)
    assert result.winners == [0, 1, 2] and result.round_scores == [0, 0, 0]


def test_RK74_racks_revealed_at_game_end() -> None:
    state = scenario(racks={0: "r10 r11 r12", 1: "k1 k2", 2: "j y4"})
    state, events = act(state, 0, "play [r10 r11 r12]")
    scored = next(e for e in events if e.type == "RoundScored")
    assert scored.seat is None
    assert scored.data["racks"] == [[], ["k1", "k2"], ["y4", "j"]]
    assert scored.data["values"] == [0, 3, 34]
    assert scored.data["totals"] == [37, -3, -34]
    for seat in (None, 0, 1, 2):
        assert ENG.view(state, seat)["revealed_racks"] == [[], ["k1", "k2"], ["y4", "j"]]


# ---- §9 options ---------------------------------------------------------------------------------


def test_options_defaults_follow_the_spec() -> None:
    assert ENG.new_game(2)["options"] == {
        "turn_timer_s": 60, "timeout_penalty_tiles": 3, "initial_meld_min": 30, "jokers": 2,
        "joker_rack_penalty": 30, "empty_pool_end": "blocked", "match_games": 1, "allow_draw": False,
        "first_player": "random", "hints": False,
    }


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_option_jokers_changes_the_set(jokers: int) -> None:  # RK-01, RK-80
    state = ENG.new_game(3, seed=2, options={"jokers": jokers})
    assert len(ENG.all_items(state)) == 104 + jokers
    assert Counter(ENG.all_items(state))["j"] == jokers
    assert len(state["pool"]) == 104 + jokers - 42
    # A stacked deck may not name more jokers than the set holds.
    with pytest.raises(SetupError, match="deck"):
        ENG.new_game(3, options={"jokers": jokers}, deck=["j"] * (jokers + 1))


@pytest.mark.parametrize(("minimum", "command", "ok"), [
    (0, "play [r1 r2 r3]", True),
    (20, "play [k5 b5 y5] [r1 r2 r3]", True),  # 21
    (30, "play [k5 b5 y5] [r1 r2 r3]", False),
    (50, "play [r10 r11 r12] [k5 b5 y5]", False),  # 48
    (50, "play [r11 r12 r13] [k5 b5 y5]", True),  # 51
    (36, "play [r11 r12 r13]", True),  # exactly the minimum
])
def test_option_initial_meld_min(minimum: int, command: str, ok: bool) -> None:  # RK-41, RK-43
    state = scenario(racks={0: "r1 r2 r3 k5 b5 y5 r10 r11 r12 r13 b1"}, options={"initial_meld_min": minimum})
    if ok:
        new, _ = act(state, 0, command)
        assert new["opened"][0]
    else:
        err = rejected(state, 0, command, "E_INITIAL_TOO_LOW")
        assert err.params["required"] == minimum


@pytest.mark.parametrize(("penalty", "scores"), [(0, [11, -11]), (30, [-19, 19]), (50, [-39, 39])])
def test_option_joker_rack_penalty_empty_pool(penalty: int, scores: list[int]) -> None:  # RK-56, RK-71
    state = scenario(players=2, racks={0: "j", 1: "r5 r6"}, pool="", options={"joker_rack_penalty": penalty})
    for seat in (0, 1):
        state, _ = act(state, seat, "pass")
    assert ENG.result(state).round_scores == scores


@pytest.mark.parametrize("penalty", [0, 17, 50])
def test_option_joker_rack_penalty_going_out(penalty: int) -> None:  # RK-72
    state = scenario(players=2, racks={0: "r10 r11 r12", 1: "j r3"}, options={"joker_rack_penalty": penalty})
    state, _ = act(state, 0, "play [r10 r11 r12]")
    assert ENG.result(state).round_scores == [penalty + 3, -(penalty + 3)]


@pytest.mark.parametrize("penalty", [0, 1, 2, 3])
def test_option_timeout_penalty_tiles(penalty: int) -> None:  # RK-23
    state = scenario(options={"timeout_penalty_tiles": penalty})
    new, events = act(state, 0, "timeout")
    assert Counter(new["racks"][0]) == Counter(state["racks"][0]) + Counter(state["pool"][:penalty])
    assert new["pool"] == state["pool"][penalty:]
    assert new["table"] == state["table"]
    assert new["passes"] == 0  # the pool was not empty: not a pass
    assert ENG.current_seat(new) == 1
    assert next(e for e in events if e.type == "TimedOut").data["penalty"] == penalty


def test_option_match_games() -> None:  # RK-80, RK-81
    state = ENG.new_game(2, seed=8, options={"match_games": 3, "first_player": 1})
    for game in (1, 2, 3):
        seat = state["starter"]
        state = restage(state, racks={seat: "r10 r11 r12", 1 - seat: "b5"}, turn=seat)
        state, _ = act(state, seat, "play [r10 r11 r12]")
        result = ENG.result(state)
        assert result.match_over == (game == 3)
        if game < 3:
            state = ENG.next_round(state)
    assert result.totals == [5 - 5 + 5, -5 + 5 - 5]
    assert result.match_winners == [0]


@pytest.mark.parametrize("allow_draw", [False, True])
def test_option_allow_draw(allow_draw: bool) -> None:  # RK-82, D-11
    state = scenario(racks={0: "r4 k6", 1: "b3 b7", 2: "y13 y12 y11 y10 y9 r9"}, pool="",
                     options={"allow_draw": allow_draw})
    for seat in (0, 1, 2):
        state, events = act(state, seat, "pass")
    result = ENG.result(state)
    assert result.totals == [27, 27, -54]
    assert result.match_over == allow_draw
    if allow_draw:
        assert result.match_winners == [0, 1]  # tied leaders are co-winners
        with pytest.raises(IllegalAction):
            ENG.next_round(state)
    else:
        assert result.match_winners == []
        assert any(e.type == "TieBreakNeeded" for e in events)
        assert ENG.next_round(state)["round"] == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_option_first_player(players: int) -> None:  # RK-12
    for seat in range(1, players + 1):
        assert ENG.new_game(players, options={"first_player": seat})["turn"] == seat - 1
        # It also overrides the stacked-deck default of P1.
        state = ENG.new_game(players, options={"first_player": seat}, deck=["r1", "r2"])
        assert ENG.current_seat(state) == seat - 1
    with pytest.raises(SetupError, match="first_player"):
        ENG.new_game(players, options={"first_player": players + 1})


def test_first_player_random_is_seeded_and_deck_means_P1() -> None:  # RK-12
    starters = {ENG.new_game(4, seed=seed)["turn"] for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    for seed in range(10):
        assert ENG.new_game(4, seed=seed)["turn"] == ENG.new_game(4, seed=seed)["turn"]
        assert ENG.new_game(4, seed=seed, deck=["k13"])["turn"] == 0


@pytest.mark.parametrize("timer", [0, 15, 60, 300])
def test_option_turn_timer_valid(timer: int) -> None:  # §9
    assert ENG.new_game(2, options={"turn_timer_s": timer})["options"]["turn_timer_s"] == timer


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("turn_timer_s", 14), ("turn_timer_s", 301), ("turn_timer_s", -1), ("turn_timer_s", 5),
        ("timeout_penalty_tiles", 4), ("timeout_penalty_tiles", -1),
        ("initial_meld_min", 51), ("initial_meld_min", -1),
        ("jokers", 3), ("jokers", -1),
        ("joker_rack_penalty", 51), ("joker_rack_penalty", -5),
        ("empty_pool_end", "never"), ("empty_pool_end", 1),
        ("match_games", 0), ("match_games", 11),
        ("allow_draw", "perhaps"),
        ("first_player", 0), ("first_player", "first"), ("first_player", 5),
        ("jokers", "two"), ("initial_meld_min", 12.5),
    ],
)
def test_option_invalid_values_are_setup_errors_naming_the_option(name: str, value: Any) -> None:  # §9
    with pytest.raises(SetupError) as info:
        ENG.new_game(4, options={name: value})
    assert name in str(info.value)


@pytest.mark.parametrize("name", ["timer", "Jokers", "house_rule"])
def test_option_unknown_keys_are_setup_errors_naming_them(name: str) -> None:
    with pytest.raises(SetupError) as info:
        ENG.new_game(3, options={name: 1})
    assert name in str(info.value)


@pytest.mark.parametrize("seats", [0, 1, 5])
def test_RK10_seat_count_is_checked(seats: int) -> None:
    with pytest.raises(SetupError, match="seats"):
        ENG.new_game(seats)


# ---- stacked decks (RK-11, ARCHITECTURE) --------------------------------------------------------


def test_stacked_deck_dealt_in_blocks_and_rest_follows() -> None:
    deck = ["R1", "o5", "j", "k13"] * 2 + ["b2"] * 2
    state = ENG.new_game(2, seed=11, deck=deck)
    assert state["racks"][0][:10] == tiles(deck)
    assert state["starter"] == 0
    assert sorted(ENG.all_items(state)) == full_set()
    # The same seed and deck give the same deal; the rest follows in seeded order.
    assert ENG.new_game(2, seed=11, deck=deck) == state
    assert ENG.new_game(2, seed=12, deck=deck)["pool"] != state["pool"]


@pytest.mark.parametrize(
    "deck",
    [["r5", "r5", "r5"], ["j", "j", "j"], ["x5"], ["r14"], ["r0"], tile_set() + ["r1"]],
)
def test_stacked_deck_errors(deck: list[str]) -> None:
    with pytest.raises(SetupError, match="deck"):
        ENG.new_game(3, deck=deck)


def test_stacked_deck_can_be_the_whole_set() -> None:
    deck = tile_set()
    state = ENG.new_game(4, deck=deck)
    assert state["racks"][0] == deck[:14] and state["pool"] == deck[56:]


# ---- later games (RK-12, RK-13, RK-80) ----------------------------------------------------------


def test_RK12_starter_rotates_and_every_game_is_a_fresh_deal() -> None:
    deck = tiles("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 j")
    state = ENG.new_game(4, seed=21, deck=deck, options={"match_games": 6, "first_player": 3})
    starters = []
    totals = [0] * 4
    for game in range(1, 7):
        assert state["round"] == game
        starter = state["starter"]
        starters.append(starter)
        assert ENG.current_seat(state) == starter
        assert state["opened"] == [False] * 4 and state["table"] == []  # RK-13
        assert [len(r) for r in state["racks"]] == [14] * 4 and len(state["pool"]) == 50
        assert sorted(ENG.all_items(state)) == full_set()
        if game == 1:
            assert state["racks"][0] == deck
        else:
            assert state["racks"][0] != deck  # the stacked deck is for the first game only
        state = restage(state, racks={starter: "r10 r11 r12"}, turn=starter)
        state, _ = act(state, starter, "play [r10 r11 r12]")
        result = ENG.result(state)
        totals = [t + s for t, s in zip(totals, result.round_scores, strict=True)]
        assert result.totals == totals
        if game < 6:
            with pytest.raises(IllegalAction):
                ENG.next_round(restage(state))  # a round in play cannot be skipped
            state = ENG.next_round(state)
    assert starters == [2, 3, 0, 1, 2, 3]


# ---- the draft (RK-26) --------------------------------------------------------------------------


def draft_melds(state: dict, seat: int = 0) -> list[list[str]]:
    return [m["tiles"] for m in ENG.view(state, seat)["draft"]["melds"]]


def test_RK26_draft_changes_neither_table_nor_rack_and_is_private() -> None:
    state = scenario(table=["r3 r4 r5 r6 r7"], racks={0: "r5 k9 k10 k11"}, opened={0: True})
    others_before = {seat: ENG.view(state, seat) for seat in (1, 2, None)}
    new, events = act(state, 0, "new k9 k10 k11")
    new, more = act(new, 0, "split 1 2")
    assert new["table"] == state["table"] and new["racks"] == state["racks"] and new["pool"] == state["pool"]
    assert draft_melds(new) == [["r3", "r4"], ["k9", "k10", "k11"], ["r5", "r6", "r7"]]
    assert ENG.view(new, 0)["draft"]["rack"] == ["r5"]
    for seat, before in others_before.items():
        view = ENG.view(new, seat)
        assert view == before  # other seats and spectators see nothing of the draft
        assert not view.get("draft")
    assert all(e.seat == 0 for e in events + more)


def test_RK26_new_appends_and_split_keeps_first_part() -> None:
    state = scenario(table=["r3 r4 r5 r6 r7", "b1 b2 b3"], racks={0: "k9 k10 k11 y1"}, opened={0: True})
    state, _ = act(state, 0, "new k11 k9 k10")  # placed by number in a run
    assert draft_melds(state) == [["r3", "r4", "r5", "r6", "r7"], ["b1", "b2", "b3"], ["k9", "k10", "k11"]]
    state, _ = act(state, 0, "split 1 1")
    assert draft_melds(state) == [["r3"], ["b1", "b2", "b3"], ["k9", "k10", "k11"], ["r4", "r5", "r6", "r7"]]
    state, _ = act(state, 0, "move b3 2 new")
    assert draft_melds(state)[-1] == ["b3"]


def test_RK26_meld_emptied_by_move_disappears_and_later_melds_move_up() -> None:
    state = scenario(table=["r3 r4 r5", "b7 b8 b9", "k1 k2 k3"], racks={0: "y1"}, opened={0: True})
    state, _ = act(state, 0, "move r3 1 new")
    state, _ = act(state, 0, "move r4 1 4")
    assert draft_melds(state) == [["r5"], ["b7", "b8", "b9"], ["k1", "k2", "k3"], ["r3", "r4"]]
    state, _ = act(state, 0, "move r5 1 4")
    assert draft_melds(state) == [["b7", "b8", "b9"], ["k1", "k2", "k3"], ["r3", "r4", "r5"]]
    rejected(state, 0, "add 4 y1", "E_BAD_REF")  # meld 4 no longer exists
    state, _ = act(state, 0, "add 3 y1")
    assert draft_melds(state)[2] == ["y1", "r3", "r4", "r5"]  # placed by number, even a wrong colour


@pytest.mark.parametrize(
    ("table", "command", "expected"),
    [
        ("r10 r11 r12", "add 1 j", ["r10", "r11", "r12", "j"]),  # after the highest tile
        ("r11 r12 r13", "add 1 j", ["j", "r11", "r12", "r13"]),  # before the lowest: run ends at 13
        ("r10 r11 r12", "add 1 r9", ["r9", "r10", "r11", "r12"]),  # by number
        ("r10 r11 r12", "add 1 r13", ["r10", "r11", "r12", "r13"]),
        ("r10 r11 r12", "add 1 r13 r9", ["r9", "r10", "r11", "r12", "r13"]),
        ("r10 j r12", "add 1 r13 r9", ["r9", "r10", "j", "r12", "r13"]),
        ("r5 b5 k5", "add 1 j", ["r5", "b5", "k5", "j"]),  # groups: order is free
    ],
)
def test_RK26_tiles_added_to_a_run_are_placed_by_number(table: str, command: str, expected: list[str]) -> None:
    state = scenario(table=[table], racks={0: "j r9 r13 y1"}, opened={0: True})
    state, _ = act(state, 0, command)
    assert draft_melds(state)[0] == expected


def test_RK26_moved_joker_is_placed_like_an_added_one() -> None:
    state = scenario(table=["r11 r12 r13", "k4 j k6", "b2 b3 b4"], racks={0: "k5 y1"}, opened={0: True})
    state, _ = act(state, 0, "add 2 k5")
    assert draft_melds(state)[1] == ["k4", "k5", "j", "k6"]
    state, _ = act(state, 0, "move j 2 1")
    state, _ = act(state, 0, "add 3 y1")
    assert draft_melds(state)[:2] == [["j", "r11", "r12", "r13"], ["k4", "k5", "k6"]]
    state, _ = act(state, 0, "move y1 3 new")
    state, _ = act(state, 0, "move j 1 3")
    assert draft_melds(state)[2] == ["b2", "b3", "b4", "j"]


def test_RK26_bad_references() -> None:
    state = scenario(table=["r3 r4 r5 r6 r7", "b1 b2 b3"], racks={0: "r5 k9"}, opened={0: True})
    for command in ("split 1 0", "split 1 5", "split 3 1", "split 0 1", "add 3 r5", "add 0 r5",
                    "move r9 1 2", "move b1 1 2", "move r3 3 1", "move r3 1 3", "move r3 1 1", "move r3 0 new"):
        rejected(state, 0, command, "E_BAD_REF")
    for command in ("add 1 k10", "add 1 r5 r5", "new k9 k9", "new j"):
        rejected(state, 0, command, "E_NOT_ON_RACK")
    state, _ = act(state, 0, "add 1 r5")
    rejected(state, 0, "new r5 k9", "E_NOT_ON_RACK")  # r5 is no longer on the draft rack


def test_RK26_rejected_done_keeps_the_draft_then_reset() -> None:
    state = scenario(table=["r3 r4 r5 r6 r7"], racks={0: "r5 k9"}, opened={0: True})
    state, _ = act(state, 0, "split 1 2")
    state, _ = act(state, 0, "add 1 k9")  # [r3 r4 k9] is not a meld
    err = rejected(state, 0, "done", "E_INVALID_MELD")
    assert err.params["meld"] == "r3 r4 k9"
    melds = ENG.view(state, 0)["draft"]["melds"]
    assert [m["valid"] for m in melds] == [False, True]
    state, _ = act(state, 0, "reset")
    assert state["draft"] is None and ENG.view(state, 0)["draft"] is None
    rejected(state, 0, "done", "E_NO_TILE_PLAYED")  # an untouched draft adds nothing


def test_RK26_draft_of_a_player_not_opened_shows_the_running_total() -> None:
    state = scenario(table=["b7 b8 b9"], racks={0: "r10 r11 r12 k1 k2 k3"})
    state, _ = act(state, 0, "new r10 r11 r12")
    assert ENG.view(state, 0)["draft"]["new_value"] == 33
    state, _ = act(state, 0, "add 1 k1")
    rejected(state, 0, "done", "E_INVALID_MELD")
    state, _ = act(state, 0, "reset")
    state, _ = act(state, 0, "new k1 k2 k3")
    assert ENG.view(state, 0)["draft"]["new_value"] == 6
    rejected(state, 0, "done", "E_INITIAL_TOO_LOW")
    state, _ = act(state, 0, "new r10 r11 r12")
    assert ENG.view(state, 0)["draft"]["new_value"] == 39
    new, _ = act(state, 0, "done")
    assert new["opened"][0] and new["racks"][0] == []


@pytest.mark.parametrize("ending", ["draw", "timeout", "pass", "play"])
def test_RK26_draft_is_discarded_when_the_turn_ends(ending: str) -> None:
    pool = "" if ending == "pass" else None
    racks = {0: "k9 k10 k11 y1"} if pool is None else {0: "k9 k10 k11 y1", 1: "b1", 2: "b2"}
    state = scenario(table=["r3 r4 r5 r6 r7"], racks=racks, pool=pool, opened={0: True})
    state, _ = act(state, 0, "new k9 k10 k11")
    command = play_adding(state, "[k9 k10 k11]") if ending == "play" else ending
    state, _ = act(state, 0, command)
    assert state["draft"] is None
    assert ENG.current_seat(state) == 1
    assert all(not ENG.view(state, seat).get("draft") for seat in (0, 1, 2))


# ---- views and events (ARCHITECTURE: no leaks) ---------------------------------------------------


def _views(state: dict) -> dict:
    return {seat: ENG.view(state, seat) for seat in (None, *range(state["seats"]))}


def test_view_shows_own_rack_only_and_spectator_none() -> None:
    state = ENG.new_game(4, seed=5)
    for seat in range(4):
        view = ENG.view(state, seat)
        assert Counter(view["rack"]) == Counter(state["racks"][seat])
        assert view["rack_sizes"] == [14] * 4
        assert view["pool"] == 50
    spectator = ENG.view(state, None)
    assert "rack" not in spectator and "draft" not in spectator
    json.dumps(_views(state))


def test_view_does_not_depend_on_hidden_information() -> None:
    state = ENG.new_game(3, seed=6)
    state, _ = act(state, ENG.current_seat(state), "draw")
    base = _views(state)
    # Another arrangement of the hidden tiles: racks 1, 2 and the pool shuffled together, pool reordered.
    seat = 0
    hidden = state["racks"][1] + state["racks"][2] + state["pool"]
    Random(1).shuffle(hidden)
    other = json.loads(json.dumps(state))
    n1, n2 = len(state["racks"][1]), len(state["racks"][2])
    other["racks"][1], other["racks"][2], other["pool"] = hidden[:n1], hidden[n1:n1 + n2], hidden[n1 + n2:]
    other["seed"] = 123456789
    other["deck"] = ["k13"]
    assert ENG.view(other, seat) == base[seat]
    assert ENG.view(other, None) == base[None]
    assert "123456789" not in json.dumps(ENG.view(other, seat))


def test_events_hide_drawn_tiles_from_others() -> None:
    state = scenario(options={"timeout_penalty_tiles": 2})
    for command in ("draw", "timeout"):
        seat = ENG.current_seat(state)
        drawn = state["pool"][: 1 if command == "draw" else 2]
        state, events = act(state, seat, command)
        for other in (None, *[s for s in range(3) if s != seat]):
            visible = [e.to_json() for e in events if e.visible_to(other)]
            assert "TilesReceived" not in {e["type"] for e in visible}
            assert all(e["data"].get("tiles") != drawn for e in visible)
        private = [e for e in events if e.type == "TilesReceived"]
        assert [e.seat for e in private] == [seat] and private[0].data["tiles"] == drawn


def test_state_round_trips_and_replays() -> None:
    options = {"match_games": 2}
    state = ENG.new_game(3, seed=77, options=options, deck=["r1", "r2", "r3"])
    log: list[tuple[int, str]] = []
    for _ in range(9):
        seat = ENG.current_seat(state)
        command = "timeout" if len(log) % 3 == 2 else "draw"
        log.append((seat, command))
        state, _ = act(state, seat, command)
        assert json.loads(json.dumps(state)) == state
    replay = ENG.new_game(3, seed=77, options=options, deck=["r1", "r2", "r3"])
    for seat, command in log:
        replay, _ = act(replay, seat, command)
    assert snapshot(replay) == snapshot(state)


def test_rejected_action_never_mutates_nested_state() -> None:
    state = scenario(table=["r3 r4 r5 r6 r7", "k8 y8 j"], racks={0: "r5 b8"}, opened={0: True})
    state, _ = act(state, 0, "split 1 3")
    before = snapshot(state)
    for command in ("done", "add 2 b8 b8", "move j 2 9", "play [r3 r4 r5] [r6 r7] [k8 y8 j] [r5]"):
        with pytest.raises(IllegalAction):
            ENG.apply(state, 0, ENG.parse(command))
        assert snapshot(state) == before
    assert layout("[r3 r4 r5 r6 r7]")[0] in state["table"]
