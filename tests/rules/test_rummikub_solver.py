"""The exact Rummikub solver (rules/rummikub/solver.py) against an independent integer program.

Generated positions: a valid table of melds (some with jokers) and a rack from one 106-tile set. `RUMMIKUB_SOLVER_POSITIONS` (default 1000) sets how many; they run in chunks so
pytest-xdist can share them. Every returned table must pass `validate_play` (C2..C8), and its tile
count must equal the reference's optimum (RK-45..55). The sweep's dominance pruning is checked
against the plain sweep, plan by plan.
"""

from __future__ import annotations

import os
from random import Random

import pytest

from rules.rummikub.dominance import _AT_LEAST, _cover_set
from rules.rummikub.keys import LINES
from rules.rummikub.mirror import mirror_melds, mirror_tiles, sweep_down
from rules.rummikub.positions import random_position
from rules.rummikub.solver import MOST_TILES, _plans, _weights, solve, solve_opening
from rules.rummikub.sweep import FULL, LEAN, Problem, run_dp
from rules.rummikub.validate import validate_play
from tests.rules.rummikub_reference import max_tiles

POSITIONS = int(os.environ.get("RUMMIKUB_SOLVER_POSITIONS", "1000"))
# The default sweep keeps `make test` bounded on a 2-core machine: tables of 4..8 melds, racks of
# 8..14. `RUMMIKUB_SOLVER_FULL=1` draws the full range (4..12 melds, racks of 8..20).
FULL_RANGE = os.environ.get("RUMMIKUB_SOLVER_FULL") == "1"
MELDS, RACK = ((4, 12), (8, 20)) if FULL_RANGE else ((4, 8), (8, 14))
CHUNK = 50


def T(*melds: str) -> list[dict]:
    out = []
    for text in melds:
        prefix = None
        if text.startswith("G:"):
            prefix, text = "G", text[2:]
        out.append({"tiles": text.split(), "prefix": prefix})
    return out


def checked(table: list[dict], rack: list[str]) -> int:
    """Tiles the solver lays; its table is checked by the engine's own validator."""
    found = solve(table, rack)
    if found is None:
        return 0
    validate_play(table, rack, found.melds, True, 30)
    return len(found.placed)


@pytest.mark.parametrize("first", range(0, POSITIONS, CHUNK))
def test_solver_matches_the_integer_program(first: int) -> None:
    for seed in range(first, min(first + CHUNK, POSITIONS)):
        pos = random_position(Random(seed), melds=MELDS, rack=RACK)
        assert checked(pos.table, pos.rack) == max_tiles(pos.table, pos.rack), f"seed {seed}"


# ---- joker edge cases (RK-50..54, C8) ---------------------------------------------------------------

EDGE_CASES = [
    # (table, rack, most tiles): a lone joker laid off onto a 3-group, a 3-run and a 4-run
    (T("r5 b5 k5"), ["j"], 1),
    (T("r5 r6 r7"), ["j"], 1),
    (T("k2 k3 k4 k5"), ["j"], 1),
    # a joker inside a 4-group: the 4th colour wins it back, the joker then needs a meld
    (T("r8 b8 k8 j"), ["y8", "r1", "r2"], 3),
    (T("r8 b8 k8 j"), ["y8"], 0),  # y8 frees the joker, but no meld can take it
    # a 7-run with the joker in the middle
    (T("b3 b4 b5 j b7 b8 b9"), ["b6", "k1", "k2"], 3),
    (T("b3 b4 b5 j b7 b8 b9"), ["b6"], 1),
    # winning back a table joker is the only way to place more: r6 frees the joker for k9 b9
    (T("r5 j r7"), ["r6", "b9", "k9"], 3),
    (T("r4 r5 j"), ["r3", "b9", "k9"], 1),  # T-16: no r6 anywhere, so the joker stays as r6
    (T("r5 j r7", "r4 r5 j"), ["r6", "r6", "k1", "k2"], 4),  # T-20
    (T("r5 j r7", "r4 r5 j"), ["r6", "r3", "k1", "k2"], 4),
    (T("k8 y8 j", "r6 r7 j"), ["b8", "r5", "r9", "r10", "b5", "k5", "y1"], 6),  # T-35
]


@pytest.mark.parametrize("table,rack,best", EDGE_CASES)
def test_joker_edge_cases(table: list[dict], rack: list[str], best: int) -> None:
    assert max_tiles(table, rack) == best  # the reference agrees with the hand count
    assert checked(table, rack) == best


def test_lone_joker_on_a_full_run_of_13_splits_it() -> None:  # RK-31: at most 13 tiles
    table = T(" ".join(f"r{n}" for n in range(1, 14)))
    assert checked(table, ["j"]) == max_tiles(table, ["j"]) == 1  # [r1..r7 j] [r8..r13]
    assert checked(T("r1 b1 k1 y1"), ["j"]) == max_tiles(T("r1 b1 k1 y1"), ["j"]) == 0  # a full group


def test_most_value_breaks_ties_between_equal_tile_counts() -> None:
    found = solve(T("r5 r6 r7"), ["r4", "r8"])
    assert found is not None and found.placed == ["r4", "r8"]
    found = solve(T("r5 b5 k5"), ["y5", "r8", "r9", "r10"])
    assert found is not None and sorted(found.placed) == ["r10", "r8", "r9", "y5"]
    # one slot, two candidates: the higher tile goes
    found = solve(T("r5 r6 r7", "b9 b10 b11"), ["r8", "b12"])
    assert found is not None and len(found.placed) == 2


def test_opening_is_the_highest_value_from_the_rack() -> None:  # RK-41/42, T-22, T-34
    melds = solve_opening(["r10", "r11", "r12", "b12", "k12", "y1"], 30)
    assert melds is not None and [sorted(m["tiles"]) for m in melds] == [["b12", "k12", "r12"]]
    melds = solve_opening(["k13", "j", "j", "r1"], 30)
    assert melds is not None and melds[0]["prefix"] == "G"
    assert solve_opening(["k5", "b5", "y5", "r1", "r2", "r3"], 30) is None  # 21 < 30 (T-03)
    melds = solve_opening(["r10", "r11", "r12", "j", "b2"], 30)
    assert melds is not None and all("j" not in m["tiles"] for m in melds)  # the joker stays home


# ---- the sweep's shortcuts change no optimum -------------------------------------------------------------


@pytest.mark.parametrize("first", range(0, 60, 20))
def test_dropping_dominated_states_keeps_every_optimum(first: int) -> None:
    """Each plan of the sweep, with and without the dominance pruning (rules/rummikub/dominance.py),
    on small generated positions: the same best score, lean and full."""
    for seed in range(first, first + 20):
        pos = random_position(Random(5000 + seed), melds=(4, 8), rack=(8, 14))
        for plan in _plans(pos.table, pos.rack):
            for mode in (LEAN, FULL):
                scores = []
                for prune in (True, False):
                    p = Problem(pos.table, pos.rack, _weights(MOST_TILES), 2, mode, plan)
                    p.prune = prune
                    found = run_dp(p)
                    scores.append(found and found[0])
                assert scores[0] == scores[1], f"seed {5000 + seed} {plan} {mode}"


def _covers(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """The definition, by search: b's runs matched to distinct runs of a at least as long, the rest of a
    runs of 3+ (which may simply end)."""
    if not b:
        return all(x == 3 for x in a)
    return any((x, b[0]) in _AT_LEAST and _covers(a[:i] + a[i + 1 :], b[1:]) for i, x in enumerate(a))


def test_the_cover_sets_of_the_dominance_match_their_definition() -> None:
    """rules/rummikub/dominance.py builds the lines covering a line from its runs; every line against
    every line of up to 4 runs (a colour has at most 4 open runs) by search gives the same sets."""
    for b, line in enumerate(LINES):
        if len(line) <= 4:
            assert _cover_set(b) == {a for a, other in enumerate(LINES) if _covers(other, line)}, line


def test_the_shared_move_memo_leaves_no_trace_between_solves() -> None:
    """The move memo and the rest ids are shared by every sweep of the process (rules/rummikub/
    colour_moves.py, keys.py): a position solved again after others gets the very same table."""
    positions = [random_position(Random(7000 + seed), melds=(4, 8), rack=(8, 14)) for seed in range(25)]
    first = [solve(pos.table, pos.rack) for pos in positions[:3]]
    for pos in reversed(positions):
        solve(pos.table, pos.rack)
    again = [solve(pos.table, pos.rack) for pos in positions[:3]]
    assert again == first


def test_sweeping_from_13_down_finds_the_same_optimum() -> None:
    """The solver sweeps from the table's sparser end (rules/rummikub/mirror.py): a position and its
    mirror image (every n written 14 - n), swept opposite ways unless the table is balanced, lay the
    same most tiles; mirroring a table twice gives it back."""
    swept_down = 0
    for seed in range(40):
        pos = random_position(Random(9000 + seed), melds=(4, 8), rack=(8, 14))
        assert mirror_melds(mirror_melds(pos.table)) == [{"tiles": m["tiles"], "prefix": m["prefix"]} for m in pos.table]
        table, rack = mirror_melds(pos.table), mirror_tiles(pos.rack)
        swept_down += sweep_down(pos.table)
        if sweep_down(pos.table):
            assert not sweep_down(table)
        found, mirrored = solve(pos.table, pos.rack), solve(table, rack)
        assert (found is None) == (mirrored is None), f"seed {9000 + seed}"
        if found is not None and mirrored is not None:
            assert len(found.placed) == len(mirrored.placed) == checked(pos.table, pos.rack), f"seed {9000 + seed}"
            validate_play(table, rack, mirrored.melds, True, 30)
    assert 0 < swept_down < 40  # both ways were swept
