"""Issue 16 bench: `python -m bench.bench_ai [--positions N] [--big N]`. Figures only, never asserted.

Sections (each a function; the AI-vs-greedy, difficulty and hint sections of issue 16 go beside them):
- solver: our exact solver against rummikub-solver 1.0.0 (the public MILP, cvxpy + HiGHS; the
  `bench` extra) on the same generated mid-game positions: tiles laid by each, how often each is
  optimal under our rules (its table must also pass our `validate_play`, C8 included), times.
- big racks: racks of 25..40 tiles, our solver only.
Times are wall-clock; on a shared machine the CPU time of this process is printed beside them.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence
from random import Random

from bench.bench_rummikub import machine, percentile
from rules.core.errors import IllegalAction
from rules.rummikub.positions import Position, random_position
from rules.rummikub.solver import solve
from rules.rummikub.validate import validate_play

_COLOUR_NAMES = {"k": "Black", "b": "Blue", "y": "Orange", "r": "Red"}


def _ours(pos: Position) -> tuple[int, float, float]:
    """(tiles laid, seconds, CPU seconds of this process)."""
    t, c = time.perf_counter(), time.process_time()
    found = solve(pos.table, pos.rack)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    if found is not None:
        validate_play(pos.table, pos.rack, found.melds, True, 30)  # must hold: fail loudly
    return (len(found.placed) if found else 0), dt, dc


def _theirs(pos: Position) -> tuple[int, bool, float, float] | None:
    """(tiles laid, accepted by our validator, seconds, CPU seconds of this process, HiGHS threads
    included), or None when the library is missing."""
    try:
        import rummikub_solver as rs  # the bench extra only
    except ImportError:
        return None
    rules = rs.RuleSet(solver_backend=rs.MILPSolver.HIGHS)
    by_name = {repr(t).strip("<>").split(" (")[0]: t for t in rules.tiles}

    def tile(t: str):  # noqa: ANN202 - the library's own tile type
        return by_name["Joker"] if t == "j" else by_name[f"{_COLOUR_NAMES[t[0]]} {t[1:]}"]

    name_of = {v: k for k, v in by_name.items()}
    state = rules.new_game()
    state.initial = False
    state.add_table(*[tile(t) for m in pos.table for t in m["tiles"]])
    state.add_rack(*[tile(t) for t in pos.rack])
    t, c = time.perf_counter(), time.process_time()
    sol = rules.solve(state)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    if sol is None:
        return 0, True, dt, dc
    melds = []
    for group in sol.sets:
        tiles = []
        for x in group:
            name = name_of[x]
            if name == "Joker":
                tiles.append("j")
            else:
                colour, number = name.split(" ")
                tiles.append(next(k for k, v in _COLOUR_NAMES.items() if v == colour) + number)
        melds.append(_written(tiles))
    try:
        validate_play(pos.table, pos.rack, melds, True, 30)
        ok = True
    except IllegalAction:
        ok = False
    return len(sol.tiles), ok and not sol.free_jokers, dt, dc


def _written(tiles: list[str]) -> dict:
    """The library's set as our notation writes it: a run ascending with its jokers in the gaps."""
    numbered = sorted((t for t in tiles if t != "j"), key=lambda t: int(t[1:]))
    jokers = len(tiles) - len(numbered)
    if len({t[1:] for t in numbered}) == 1 and (len(numbered) > 1 or len(tiles) <= 4):
        return {"tiles": numbered + ["j"] * jokers, "prefix": "G" if len(numbered) == 1 else None}
    out = [numbered[0]]
    for t in numbered[1:]:
        gap = int(t[1:]) - int(out[-1][1:]) - 1 if out[-1] != "j" else 0
        out += ["j"] * gap + [t]
        jokers -= gap
    top = int(numbered[-1][1:])
    while jokers > 0:
        out = [*out, "j"] if top < 13 else ["j", *out]
        top += 1
        jokers -= 1
    return {"tiles": out, "prefix": None}


def bench_solver(positions: int, first_seed: int = 0, when: str = "a fresh process") -> None:
    """`positions` positions from `first_seed` on, each solved once by each solver. The solver's move
    memo is per process (rules/rummikub/colour_moves.py): a fresh process fills it as it goes, a
    running bot has it filled by the positions it solved before, so both are printed (on positions
    never seen before in either case)."""
    ours_t, theirs_t, ratio, ours_c, theirs_c, our_tiles, their_tiles, their_ok, both = [], [], [], [], [], 0, 0, 0, 0
    by_jokers: dict[int, list[float]] = {}  # table jokers -> our times: each one is a plan more to sweep
    batch = [random_position(Random(seed), melds=(4, 12), rack=(8, 20))
             for seed in range(first_seed, first_seed + positions)]
    laid = []
    # Ours on every position first, then theirs: HiGHS's worker threads keep spinning for some ms after
    # each of its solves (measured: a 6.5 ms CPU loop right after one reads 10-12 ms of process CPU), so
    # interleaving the two would time ours with a core taken by theirs.
    for pos in batch:
        n, dt, dc = _ours(pos)
        laid.append(n)
        ours_t.append(dt)
        ours_c.append(dc)
        by_jokers.setdefault(sum(m["tiles"].count("j") for m in pos.table), []).append(dt)
        our_tiles += n
    for pos, n, dt in zip(batch, laid, ours_t, strict=True):
        other = _theirs(pos)
        if other is not None:
            m, ok, dt2, dc2 = other
            their_tiles += m
            their_ok += ok and m == n
            ratio.append(dt / dt2)
            theirs_t.append(dt2)
            theirs_c.append(dc2)
            both += 1
    print(
        f"solver, {when}: {positions} positions (tables of 4..12 melds, racks of 8..20, seeds {first_seed}..) "
        f"| ours: {our_tiles} tiles, "
        f"optimal on every one (the ILP proof in tests, RUMMIKUB_SOLVER_FULL=1 for seeds 0..999), "
        f"median {statistics.median(ours_t) * 1e3:.1f} ms, "
        f"p95 {percentile(ours_t, 0.95) * 1e3:.1f} ms (CPU: median {statistics.median(ours_c) * 1e3:.1f} ms, "
        f"p95 {percentile(ours_c, 0.95) * 1e3:.1f} ms)"
    )
    print("  ours by table jokers: " + "; ".join(
        f"{k}: {len(v)} positions, median {statistics.median(v) * 1e3:.1f} ms, p95 {percentile(v, 0.95) * 1e3:.1f} ms"
        for k, v in sorted(by_jokers.items())))
    if both:
        print(
            f"  rummikub-solver 1.0.0: {their_tiles} tiles, optimal and accepted by validate_play on "
            f"{their_ok}/{both} ({their_ok / both:.0%}); median {statistics.median(theirs_t) * 1e3:.1f} ms, "
            f"p95 {percentile(theirs_t, 0.95) * 1e3:.1f} ms | medians ours/theirs "
            f"{statistics.median(ours_t[:both]) / statistics.median(theirs_t):.2f}x "
            f"(CPU {statistics.median(ours_c[:both]) / statistics.median(theirs_c):.2f}x); per-position time "
            f"ours/theirs: median {statistics.median(ratio):.2f}x, p95 {percentile(ratio, 0.95):.2f}x"
        )
    else:
        print("  rummikub-solver not installed (pip install -e '.[bench]'): no comparison")


def bench_big_racks(positions: int) -> None:
    times, cpu = [], []
    for seed in range(positions):
        _, dt, dc = _ours(random_position(Random(10_000 + seed), melds=(4, 12), rack=(25, 40)))
        times.append(dt)
        cpu.append(dc)
    print(
        f"solver, racks of 25..40: {positions} positions | median {statistics.median(times) * 1e3:.1f} ms, "
        f"p95 {percentile(times, 0.95) * 1e3:.1f} ms, max {max(times) * 1e3:.0f} ms (CPU: median "
        f"{statistics.median(cpu) * 1e3:.1f} ms, p95 {percentile(cpu, 0.95) * 1e3:.1f} ms)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ai", description=__doc__)
    parser.add_argument("--positions", type=int, default=200, help="mid-game positions for the solver")
    parser.add_argument("--big", type=int, default=50, help="positions with racks of 25..40 tiles")
    args, _ = parser.parse_known_args(argv)
    print(f"== AI bench (issue 16) | {machine()}")
    bench_solver(args.positions)
    bench_big_racks(args.big)
    bench_solver(args.positions, args.positions, f"after {args.positions + args.big} other positions (a running bot)")


if __name__ == "__main__":
    main(sys.argv[1:])
