"""The Rummikub AI (rules/rummikub/ai.py): always legal, sensible on known positions, bounded.

Random-play soak: `RUMMIKUB_AI_GAMES` (default 200) seeded AI-only games. Positions are built as the
view the engine hands the AI, or as real states from a stacked deck when the move is applied.
"""

from __future__ import annotations

import os
from collections import Counter
from functools import cache
from random import Random
from typing import Any

import pytest

from rules import IllegalAction, get_engine
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, tile_set
from rules.rummikub import ai, rack_search
from rules.rummikub.actions import Draw, Pass, Play
from rules.rummikub.melds import InvalidMeld, analyse
from rules.rummikub.validate import validate_play

ENG = get_engine("rummikub")
GAMES = int(os.environ.get("RUMMIKUB_AI_GAMES", "200"))
CHUNK = 20
MAX_ACTIONS = 2000


def table_meld(text: str) -> dict[str, Any]:
    prefix = None
    if text.startswith("G:"):
        prefix, text = "G", text[2:]
    tiles = text.split()
    info = analyse(tiles, prefix)
    return {"tiles": tiles, "prefix": prefix, "type": info.type, "value": info.value}


def view(
    rack: str, table: tuple[str, ...] = (), opened: bool = False, pool: int = 40, minimum: int = 30
) -> dict[str, Any]:
    """A seat-0 view as `eng.view` builds it, with just the keys the AI reads."""
    return {
        "rack": rack.split(),
        "table": [table_meld(m) for m in table],
        "opened": [opened, True, True],
        "you": 0,
        "pool": pool,
        "initial_meld_min": minimum,
        "rack_sizes": [len(rack.split()), 14, 14],
        "turn": 0,
    }


def decide(v: dict[str, Any]) -> Any:
    action = ai.choose_action(v, Random(1))
    if isinstance(action, Play):
        layout = [{"tiles": list(m.tiles), "prefix": m.prefix} for m in action.melds]
        opened = v["opened"][v["you"]]
        validate_play(v["table"], v["rack"], layout, opened, v["initial_meld_min"])
    return action


def melds_of(action: Play) -> list[tuple[str, ...]]:
    """The melds as sorted tile tuples (order-free comparison)."""
    return sorted(tuple(sorted(m.tiles)) for m in action.melds)


def m(text: str) -> tuple[str, ...]:
    return tuple(sorted(text.split()))


# ---- random AI-only games (RK-20, RK-46: no illegal action; RK-01: nothing appears or vanishes) ----


@pytest.mark.parametrize("first", range(0, GAMES, CHUNK))
def test_ai_only_games_are_legal_end_and_conserve_tiles(first: int) -> None:
    full = sorted(tile_set())
    for seed in range(first, min(first + CHUNK, GAMES)):
        seats = 2 + seed % 3
        state = ENG.new_game(seats, seed=seed)
        rng = Random(seed)
        actions = 0
        while ENG.result(state) is None and actions < MAX_ACTIONS:
            seat = ENG.current_seat(state)
            action = ENG.ai_action(state, seat, rng)
            try:
                state, _ = ENG.apply(state, seat, action)
            except IllegalAction as err:  # pragma: no cover - the failure message is the point
                pytest.fail(f"seed {seed}: AI chose an illegal {ENG.format(action)!r}: {err}")
            actions += 1
        assert ENG.result(state) is not None, f"seed {seed}: no end after {actions} actions"
        assert sorted(ENG.all_items(state)) == full, f"seed {seed}: tiles not conserved"


def test_ai_games_with_other_options() -> None:
    """No jokers, a 50-point initial meld, `one_more_turn` ending, 0-point initial meld."""
    full_no_jokers = sorted(tile_set(jokers=0))
    for seed, options in enumerate(
        [
            {"jokers": 0},
            {"initial_meld_min": 50},
            {"empty_pool_end": "one_more_turn", "jokers": 1},
            {"initial_meld_min": 0},
        ]
    ):
        state = ENG.new_game(2 + seed % 3, options=options, seed=100 + seed)
        rng = Random(seed)
        for _ in range(MAX_ACTIONS):
            if ENG.result(state) is not None:
                break
            seat = ENG.current_seat(state)
            state, _ = ENG.apply(state, seat, ENG.ai_action(state, seat, rng))
        assert ENG.result(state) is not None
        if options.get("jokers") == 0:
            assert sorted(ENG.all_items(state)) == full_no_jokers


# ---- the initial meld (RK-40..43) -----------------------------------------------------------------


def test_opens_with_exactly_the_best_value() -> None:  # RK-41
    action = decide(view("r10 r11 r12 k1 k2"))
    assert isinstance(action, Play)
    assert melds_of(action) == [m("r10 r11 r12")]
    # r12 fits a run (33) or a group (36), not both: the group is worth more.
    action = decide(view("r10 r11 r12 b12 k12 y1"))
    assert melds_of(action) == [m("r12 b12 k12")]
    assert ai.best_opening_value(["r10", "r11", "r12", "b12", "k12", "y1"]) == 36


def test_opening_takes_every_disjoint_meld() -> None:  # RK-41/42
    action = decide(view("r1 r2 r3 b9 k9 y9 k11 k12 k13 y5"))
    assert melds_of(action) == sorted([m("r1 r2 r3"), m("b9 k9 y9"), m("k11 k12 k13")])


def test_uses_a_joker_to_reach_30() -> None:  # RK-42, D-07
    action = decide(view("r10 r11 j b2 k5 y7"))
    assert isinstance(action, Play)
    assert melds_of(action) == [m("r10 r11 j")]


def test_keeps_the_joker_when_the_value_suffices_without_it() -> None:
    action = decide(view("r10 r11 r12 j b2"))
    assert melds_of(action) == [m("r10 r11 r12")]


def test_group_reading_of_one_tile_and_two_jokers() -> None:  # RK-35, T-34
    action = decide(view("k13 j j r1"))
    assert isinstance(action, Play)
    (meld,) = action.melds
    assert sorted(meld.tiles) == ["j", "j", "k13"]
    assert analyse(meld.tiles, meld.prefix).value == 39
    assert ai.best_opening_value(["k13", "j", "j"]) == 39
    assert ai.best_opening_value(["r5", "j", "j", "k12", "b12", "y12"]) == 54  # T-22: run reading, 18 + 36


def test_does_not_open_below_30() -> None:  # RK-43, T-03
    assert isinstance(decide(view("k5 b5 y5 r1 r2 r3 y9 b12")), Draw)
    assert isinstance(decide(view("k5 b5 y5 r1 r2 r3 y9 b12", pool=0)), Pass)


def test_respects_other_initial_minimums() -> None:  # option initial_meld_min
    assert isinstance(decide(view("r10 r11 r12 k1", minimum=34)), Draw)
    action = decide(view("r1 r2 r3 k9", minimum=0))
    assert isinstance(action, Play) and melds_of(action) == [m("r1 r2 r3")]


def test_never_touches_the_table_before_opening() -> None:  # RK-41, C6, T-05, T-21
    table = ("b7 b8 b9", "r5 j r7", "G:k4 j j")
    v = view("b10 r10 k10 y10 r6 r11 r12 r13", table=table)
    action = decide(v)
    assert isinstance(action, Play)
    layout = [(list(x.tiles), x.prefix) for x in action.melds]
    for old in v["table"]:
        assert (old["tiles"], old["prefix"]) in layout  # exact tiles and prefix, unchanged
    new = action.melds[len(table) :]
    assert sorted(t for x in new for t in x.tiles) == sorted(["b10", "r10", "k10", "y10", "r11", "r12", "r13"])
    assert sum(analyse(x.tiles, x.prefix).value for x in new) == 76


def test_opening_through_the_engine_from_a_stacked_deck() -> None:  # RK-11, RK-41
    rack0 = ["r10", "r11", "r12", "b1", "b3", "b5", "b7", "k2", "k4", "k6", "k8", "y1", "y5", "y9"]
    state = ENG.new_game(2, seed=5, deck=rack0)
    action = ENG.ai_action(state, 0, Random(0))
    state, _ = ENG.apply(state, 0, action)
    assert state["opened"][0] is True
    assert sorted(state["racks"][0]) == sorted(set(rack0) - {"r10", "r11", "r12"})


def test_best_opening_value_without_jokers() -> None:
    assert ai.best_opening_value(["r10", "r11", "r12", "k1", "k2"]) == 33
    assert ai.best_opening_value(["r10", "r11", "j"]) == 33  # [r10 r11 j], j = r12
    assert ai.best_opening_value(["r10", "r11", "j"], jokers_allowed=False) == 0
    assert ai.best_opening_value([]) == 0


# ---- after opening ------------------------------------------------------------------------------


def test_lays_melds_and_extends_table_runs_and_groups() -> None:
    v = view("r3 r4 r5 y6 b10 k8 k1", table=("b7 b8 b9", "y3 y4 y5", "r8 b8 y8"), opened=True)
    action = decide(v)
    assert melds_of(action) == sorted([m("r3 r4 r5"), m("y3 y4 y5 y6"), m("b7 b8 b9 b10"), m("r8 b8 y8 k8")])


def test_extends_both_ends_and_chains() -> None:
    action = decide(view("r2 r6 r7 b1", table=("r3 r4 r5",), opened=True))
    assert melds_of(action) == [m("r2 r3 r4 r5 r6 r7")]


def test_takes_the_fourth_tile_of_a_group() -> None:  # RK-48, T-07
    action = decide(view("b4 b6 b7 y1", table=("r5 b5 k5 y5",), opened=True))
    assert melds_of(action) == sorted([m("r5 k5 y5"), m("b4 b5 b6 b7")])


def test_takes_the_end_tile_of_a_long_run() -> None:  # RK-48
    action = decide(view("b6 y6 r1", table=("k3 k4 k5 k6",), opened=True))
    assert melds_of(action) == sorted([m("k3 k4 k5"), m("k6 b6 y6")])


def test_splits_a_run_to_insert_a_duplicate() -> None:  # RK-48, T-08
    action = decide(view("r5 k9", table=("r3 r4 r5 r6 r7",), opened=True))
    assert melds_of(action) == sorted([m("r3 r4 r5"), m("r5 r6 r7")])


def test_wins_a_joker_back_and_lays_it_again() -> None:  # RK-52, T-14
    action = decide(view("r6 b9 k9 y1", table=("r5 j r7",), opened=True))
    assert melds_of(action) == sorted([m("r5 r6 r7"), m("b9 k9 j")])


def test_keeps_a_joker_rather_than_waste_it() -> None:
    action = decide(view("j y1 b5", table=("r5 r6 r7",), opened=True))
    assert isinstance(action, Draw)


def test_goes_out_with_a_joker() -> None:  # RK-70
    action = decide(view("j", table=("r5 r6 r7",), opened=True))
    assert melds_of(action) == [m("r5 r6 r7 j")]


def test_dumps_jokers_when_the_pool_is_empty() -> None:  # RK-71: a joker left costs 30
    action = decide(view("j y1 b5", table=("r5 r6 r7",), opened=True, pool=0))
    assert melds_of(action) == [m("r5 r6 r7 j")]


def test_draws_when_nothing_fits() -> None:  # RK-20
    assert isinstance(decide(view("r1 b5 k9 y12", table=("y3 y4 y5",), opened=True)), Draw)


def test_passes_when_the_pool_is_empty_and_nothing_fits() -> None:  # RK-60
    assert isinstance(decide(view("r1 b5 k9 y12", table=("y3 y4 y5",), opened=True, pool=0)), Pass)


def test_never_removes_table_tiles() -> None:  # C2 on a crowded table
    table = ("r1 r2 r3 r4 r5 r6 r7", "b5 r5 k5 y5", "k9 k10 k11 k12 k13", "y2 j y4", "r11 b11 j")
    action = decide(view("r4 k8 y5 y1 b12 k12 y12 j r13", table=table, opened=True))
    assert isinstance(action, Play)
    before = Counter(t for x in table for t in x.split())
    after = Counter(t for x in action.melds for t in x.tiles)
    assert not before - after


def test_same_view_same_action() -> None:
    v = view("r3 r4 r5 y6 b10 k8 k1 j", table=("b7 b8 b9", "y3 y4 y5"), opened=True)
    assert ai.choose_action(v, Random(1)) == ai.choose_action(v, Random(2))


def test_huge_rack_stays_bounded() -> None:
    """30+ tiles and both jokers: the node budget caps the search (no wall-clock assertion)."""
    rng = Random(3)
    for size in (32, 44):
        tiles = [t for t in tile_set() if t != JOKER]
        rng.shuffle(tiles)
        rack = tiles[: size - 2] + [JOKER, JOKER]
        search = rack_search.RackSearch(rack_search.KEEP_JOKERS)
        search.best([t for t in rack if t != JOKER], 2)
        assert rack_search.NODE_BUDGET - search.budget <= rack_search.NODE_BUDGET + 4 * size
        for opened in (False, True):
            action = decide(view(" ".join(rack), table=("r1 r2 r3 r4",), opened=opened))
            assert isinstance(action, Play)


# ---- the exact rack search against brute force --------------------------------------------------


def _all_melds() -> list[tuple[Counter[str], int, int, int]]:
    """Every valid meld over the tile set, any run length, 0..2 jokers anywhere:
    (tiles needed, numbered tiles, jokers, value)."""
    shapes: list[tuple[tuple[str, ...], str | None]] = []
    for c in COLOURS:
        for start in range(1, MAX_NUMBER - 1):
            for end in range(start + 2, MAX_NUMBER + 1):
                tiles = [f"{c}{n}" for n in range(start, end + 1)]
                shapes.append((tuple(tiles), None))
                for a in range(len(tiles)):
                    for b in range(a, len(tiles)):
                        variant = list(tiles)
                        variant[a] = variant[b] = JOKER
                        shapes.append((tuple(variant), None))
    for n in range(1, MAX_NUMBER + 1):
        for mask in range(1, 16):
            numbered = tuple(f"{c}{n}" for i, c in enumerate(COLOURS) if mask >> i & 1)
            for nj in range(3):
                if 3 <= len(numbered) + nj <= 4:
                    shapes.append((numbered + (JOKER,) * nj, "G" if len(numbered) == 1 else None))
    out = []
    for tiles, prefix in shapes:
        try:
            info = analyse(tiles, prefix)
        except InvalidMeld:
            continue
        jokers = tiles.count(JOKER)
        out.append((Counter(tiles), len(tiles) - jokers, jokers, info.value))
    return out


ALL_MELDS = _all_melds()


def brute_best(rack: list[str], weights: rack_search.Weights, jokers_allowed: bool = True) -> int:
    """Max total score of disjoint melds, by exhaustive search over every fitting meld shape."""
    if not jokers_allowed:
        rack = [t for t in rack if t != JOKER]
    have = Counter(rack)
    fitting = []
    for need, numbered, jokers, value in ALL_MELDS:
        if all(have[t] >= k for t, k in need.items()):
            score = weights.numbered * numbered + weights.joker * jokers + weights.value * value
            if score > 0:
                fitting.append((need, score))

    @cache
    def best(key: frozenset[tuple[str, int]]) -> int:
        left = Counter(dict(key))
        result = 0
        for need, score in fitting:
            if all(left[t] >= k for t, k in need.items()):
                result = max(result, score + best(frozenset((+(left - need)).items())))
        return result

    return best(frozenset(have.items()))


@pytest.mark.parametrize("seed", range(6))
def test_rack_search_matches_brute_force(seed: int) -> None:
    rng = Random(seed)
    full = tile_set()
    for _ in range(25):
        rack = rng.sample(full, rng.randint(5, 9))
        if seed % 2:  # half the racks crowd one colour and a few numbers, so melds overlap
            rack = [t for t in rng.sample(full, 60) if t == JOKER or t[0] in "rb" and int(t[1:]) <= 6][:9]
        assert ai.best_opening_value(rack) == brute_best(rack, rack_search.OPENING), rack
        assert ai.best_opening_value(rack, jokers_allowed=False) == brute_best(rack, rack_search.OPENING, False), rack
        for weights in (rack_search.KEEP_JOKERS, rack_search.DUMP_JOKERS):
            got, _ = rack_search.rack_melds(rack, weights)
            assert got == brute_best(rack, weights), (rack, weights)


# ---- strength ------------------------------------------------------------------------------------


def test_greedy_baseline_is_legal() -> None:
    for seed in range(6):
        state = ENG.new_game(3, seed=seed)
        rng = Random(seed)
        for _ in range(MAX_ACTIONS):
            if ENG.result(state) is not None:
                break
            seat = ENG.current_seat(state)
            state, _ = ENG.apply(state, seat, ai.choose_greedy_action(ENG.view(state, seat), rng))
        assert ENG.result(state) is not None


def ai_share_vs_greedy(games: int, first_seed: int) -> float:
    """4 players, AI at seats 0+2 or 1+3 (alternating); the AI seats' share of the wins."""
    share = 0.0
    for g in range(games):
        ai_seats = {0, 2} if g % 2 == 0 else {1, 3}
        state = ENG.new_game(4, seed=first_seed + g)
        rng = Random(g)
        for _ in range(MAX_ACTIONS):
            if ENG.result(state) is not None:
                break
            seat = ENG.current_seat(state)
            policy = ai.choose_action if seat in ai_seats else ai.choose_greedy_action
            state, _ = ENG.apply(state, seat, policy(ENG.view(state, seat), rng))
        winners = ENG.result(state).winners
        share += sum(1 for w in winners if w in ai_seats) / max(1, len(winners))
    return share / games


def test_ai_beats_the_greedy_baseline() -> None:
    # Measured: the AI seats win every one of 60 seeded games (bench); 16 here keep the test quick.
    assert ai_share_vs_greedy(16, first_seed=500) > 0.5
