"""Rummikub engine and AI benchmarks: `python -m bench.bench_rummikub [--games N ...]`.

Figures only (medians, p95), never assertions: they go into the issue note with the machine line.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from rules import get_engine
from rules.core.engine import Action, State
from rules.rummikub.ai import choose_action, choose_greedy_action
from rules.rummikub.validate import validate_play

ENGINE = get_engine("rummikub")
MAX_ACTIONS = 2000
Policy = Callable[[dict[str, Any], Random], Action]


def machine() -> str:
    return (
        f"{platform.platform()} | {platform.machine()} {platform.processor() or '?'} | "
        f"Python {platform.python_version()} ({platform.python_implementation()}) | cpus {os.cpu_count()}"
    )


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def play_game(
    seats: int, seed: int, policies: Sequence[Policy] | None = None, options: dict[str, Any] | None = None
) -> tuple[State, list[tuple[State, int, Action]]]:
    """One seeded game; returns the final state and every (state before, seat, action)."""
    state = ENGINE.new_game(seats, options=options, seed=seed)
    rng = Random(seed)
    log: list[tuple[State, int, Action]] = []
    while ENGINE.result(state) is None and len(log) < MAX_ACTIONS:
        seat = ENGINE.current_seat(state)
        assert seat is not None
        if policies is None:
            action = ENGINE.ai_action(state, seat, rng)
        else:
            action = policies[seat](ENGINE.view(state, seat), rng)
        log.append((state, seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return state, log


# ---- benches -------------------------------------------------------------------------------------


def bench_apply(games: int) -> None:
    """Actions per second through `apply` (AI-vs-AI games recorded first, then replayed and timed)."""
    logs = [play_game(2 + seed % 3, seed)[1] for seed in range(games)]
    per_action: list[float] = []
    total = 0.0
    for log in logs:
        for state, seat, action in log:
            t0 = time.perf_counter()
            ENGINE.apply(state, seat, action)
            dt = time.perf_counter() - t0
            per_action.append(dt)
            total += dt
    med = statistics.median(per_action)
    print(
        f"apply: {len(per_action)} actions from {games} AI games | median {med * 1e6:.0f} us/action "
        f"({1 / med:,.0f} actions/s) | p95 {percentile(per_action, 0.95) * 1e6:.0f} us | "
        f"overall {len(per_action) / total:,.0f} actions/s"
    )


def hundred_tile_tables() -> dict[str, tuple[list[dict], list[str], list[dict]]]:
    """(T0, R0, T1) cases around a 100-tile table."""
    colours = "rbky"

    def run(c: str, lo: int, hi: int) -> dict:
        return {"tiles": [f"{c}{n}" for n in range(lo, hi + 1)], "prefix": None}

    # 4 full runs + 4 runs of 1..12 = 100 tiles; the rack holds the second 13 of every colour.
    t0 = [run(c, 1, 13) for c in colours] + [run(c, 1, 12) for c in colours]
    rack = [f"{c}13" for c in colours] + ["r1", "b5"]
    extended = [run(c, 1, 13) for c in colours] * 2
    # The same 104 tiles rearranged completely: two groups of four for every number.
    regrouped = [{"tiles": [f"{c}{n}" for c in colours], "prefix": None} for n in range(1, 14) for _ in range(2)]
    # 98 numbered tiles + both jokers; the play wins one joker back with y3 and lays it with the 13s (C8).
    y_run = ["y1", "y2", "j", "y4", "y5", "y6", "y7", "y8", "y9", "j", "y11", "y12"]
    jt0 = [run(c, 1, 13) for c in colours] + [run(c, 1, 12) for c in "rbk"] + [{"tiles": y_run, "prefix": None}]
    jrack = ["y3", "r13", "b13", "k13"]
    jt1 = [run(c, 1, 13) for c in colours] + [run(c, 1, 12) for c in "rbk"]
    jt1 += [{"tiles": ["y1", "y2", "y3", *y_run[3:]], "prefix": None}]
    jt1 += [{"tiles": ["r13", "b13", "k13", "j"], "prefix": None}]
    return {
        "extend 4 runs": (t0, rack, extended),
        "full regroup": (t0, rack, regrouped),
        "joker won back": (jt0, jrack, jt1),
    }


def bench_validate(repeats: int) -> None:
    for name, (t0, r0, t1) in hundred_tile_tables().items():
        size = sum(len(m["tiles"]) for m in t0)
        validate_play(t0, r0, t1, True, 30)  # must be legal: fail loudly, not time an error path
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            validate_play(t0, r0, t1, True, 30)
            times.append(time.perf_counter() - t)
        print(
            f"validate_play, {size}-tile T0 -> {sum(len(m['tiles']) for m in t1)}-tile T1 ({name}): "
            f"median {statistics.median(times) * 1e6:.0f} us, p95 {percentile(times, 0.95) * 1e6:.0f} us "
            f"over {repeats} runs"
        )


def bench_ai_moves(games: int) -> None:
    """AI decision time over the positions of seeded AI games (4 players; re-timed off-line)."""
    views = []
    for seed in range(games):
        _, log = play_game(4, 1000 + seed)
        views += [ENGINE.view(state, seat) for state, seat, _ in log]
    times: dict[str, list[float]] = {"not opened": [], "opened": []}
    rng = Random(0)
    for view in views:
        t = time.perf_counter()
        choose_action(view, rng)
        dt = time.perf_counter() - t
        times["opened" if view["opened"][view["you"]] else "not opened"].append(dt)
    every = times["opened"] + times["not opened"]
    print(
        f"AI move time over {len(every)} positions ({games} games): p50 {percentile(every, 0.5) * 1e3:.2f} ms, "
        f"p95 {percentile(every, 0.95) * 1e3:.2f} ms, max {max(every) * 1e3:.1f} ms"
    )
    for phase, ts in times.items():
        if ts:
            print(
                f"  {phase}: {len(ts)} positions, p50 {percentile(ts, 0.5) * 1e3:.2f} ms, "
                f"p95 {percentile(ts, 0.95) * 1e3:.2f} ms"
            )
    big = [v for v in views if len(v["rack"]) >= 25]
    if big:
        ts = []
        for view in big:
            t = time.perf_counter()
            choose_action(view, rng)
            ts.append(time.perf_counter() - t)
        print(
            f"  racks of 25+ tiles: {len(ts)} positions, p95 {percentile(ts, 0.95) * 1e3:.2f} ms, "
            f"max {max(ts) * 1e3:.1f} ms"
        )


def ai_vs_greedy(games: int, first_seed: int = 0) -> tuple[float, int, int]:
    """4-player games, AI at seats 0 and 2 or 1 and 3 (alternating): (AI share of wins, AI wins, games).

    A game won by several seats (empty-pool tie) counts as a fraction for each winner."""
    ai_wins = 0.0
    for g in range(games):
        ai_seats = {0, 2} if g % 2 == 0 else {1, 3}
        policies = [choose_action if s in ai_seats else choose_greedy_action for s in range(4)]
        state, _ = play_game(4, first_seed + g, policies)
        result = ENGINE.result(state)
        if result is None or not result.winners:
            continue
        ai_wins += sum(1 for w in result.winners if w in ai_seats) / len(result.winners)
    return ai_wins / games if games else float("nan"), round(ai_wins), games


def bench_win_rate(games: int) -> None:
    t = time.perf_counter()
    share, wins, n = ai_vs_greedy(games)
    print(
        f"AI vs greedy: {n} seeded 4-player games (2 AI + 2 greedy seats, alternating): AI seats won "
        f"{share:.0%} ({wins}/{n}; 50% = even) in {time.perf_counter() - t:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rummikub", description=__doc__)
    parser.add_argument("--apply-games", type=int, default=20, help="AI games replayed through apply")
    parser.add_argument("--validate-runs", type=int, default=300, help="timed validate_play calls per case")
    parser.add_argument("--move-games", type=int, default=8, help="4-player games whose positions time the AI")
    parser.add_argument("--games", type=int, default=100, help="AI vs greedy games for the win rate")
    args, _ = parser.parse_known_args(argv)
    print(f"== Rummikub bench | {machine()}")
    bench_apply(args.apply_games)
    bench_validate(args.validate_runs)
    bench_ai_moves(args.move_games)
    bench_win_rate(args.games)


if __name__ == "__main__":
    main(sys.argv[1:])
