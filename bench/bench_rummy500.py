"""Rummy 500 engine and AI benchmarks: `python -m bench.bench_rummy500 [--matches N ...]`.

Figures only (medians, p95), never assertions: they go into the issue note with the machine line.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from rules import get_engine
from rules.core.engine import Action, State
from rules.rummy500.ai import choose_action, choose_greedy_action

ENGINE = get_engine("rummy500")
MAX_ACTIONS = 6000
Policy = Callable[[dict[str, Any], Random], Action]


def play_match(
    seats: int, seed: int, policies: Sequence[Policy] | None = None, options: dict[str, Any] | None = None
) -> tuple[State, list[tuple[State, int, Action]], list[Any]]:
    """One seeded match to the target score: (final state, every (state, seat, action), round results)."""
    state = ENGINE.new_game(seats, options=options, seed=seed)
    rng = Random(seed)
    log: list[tuple[State, int, Action]] = []
    results = []
    while len(log) < MAX_ACTIONS:
        seat = ENGINE.current_seat(state)
        if seat is None:
            result = ENGINE.result(state)
            results.append(result)
            if result.match_over:
                break
            state = ENGINE.next_round(state)
            continue
        if policies is None:
            action = ENGINE.ai_action(state, seat, rng)
        else:
            action = policies[seat](ENGINE.view(state, seat), rng)
        log.append((state, seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return state, log, results


def bench_apply(matches: int) -> None:
    """Actions per second through `apply` (AI matches recorded first, then replayed and timed)."""
    logs = [play_match(2 + seed % 3, seed)[1] for seed in range(matches)]
    per_action: list[float] = []
    for log in logs:
        for state, seat, action in log:
            t0 = time.perf_counter()
            ENGINE.apply(state, seat, action)
            per_action.append(time.perf_counter() - t0)
    med = statistics.median(per_action)
    print(
        f"apply: {len(per_action)} actions from {matches} AI matches (2-4 players) | median {med * 1e6:.0f} us/action "
        f"({1 / med:,.0f} actions/s) | p95 {percentile(per_action, 0.95) * 1e6:.0f} us | "
        f"overall {len(per_action) / sum(per_action):,.0f} actions/s"
    )


def bench_ai_moves(matches: int) -> None:
    """AI decision time (view included) over the positions of seeded 3-player AI matches."""
    positions = []
    for seed in range(matches):
        _, log, _ = play_match(3, 1000 + seed)
        positions += [(state, seat) for state, seat, _ in log]
    times: dict[str, list[float]] = {}
    rng = Random(0)
    for state, seat in positions:
        t = time.perf_counter()
        choose_action(ENGINE.view(state, seat), rng)
        dt = time.perf_counter() - t
        times.setdefault(state["phase"], []).append(dt)
    every = [x for ts in times.values() for x in ts]
    print(
        f"AI decision time over {len(every)} positions ({matches} matches): p50 {percentile(every, 0.5) * 1e3:.2f} ms, "
        f"p95 {percentile(every, 0.95) * 1e3:.2f} ms, max {max(every) * 1e3:.1f} ms"
    )
    for phase, ts in sorted(times.items()):
        print(f"  phase {phase}: {len(ts)} positions, p50 {percentile(ts, 0.5) * 1e3:.2f} ms, "
              f"p95 {percentile(ts, 0.95) * 1e3:.2f} ms")


def bench_matches(matches: int) -> None:
    """3-player AI-only matches: rounds per match and how rounds ended."""
    t = time.perf_counter()
    rounds: list[int] = []
    ends: Counter[str] = Counter()
    takes: Counter[str] = Counter()
    unfinished = 0
    for seed in range(matches):
        _, log, results = play_match(3, seed)
        if not results or not results[-1].match_over:
            unfinished += 1
        rounds.append(len(results))
        for r in results:
            ends[r.details["how"]] += 1
        for _, _, action in log:
            takes[type(action).__name__] += 1
    total = sum(ends.values())
    how = ", ".join(f"{k} {v} ({v / total:.0%})" for k, v in ends.most_common())
    print(
        f"{matches} seeded 3-player AI matches in {time.perf_counter() - t:.1f} s: rounds per match mean "
        f"{statistics.mean(rounds):.1f}, median {statistics.median(rounds)}, min {min(rounds)}, max {max(rounds)}; "
        f"unfinished {unfinished}"
    )
    print(f"  how rounds ended ({total}): {how}  [lay = out without discard (+bonus), discard = out by the "
          f"last discard, market = out after a market take, stop = bank empty]")
    print(f"  actions: {dict(takes.most_common())}")


def ai_vs_greedy(matches: int, seats: int = 3) -> tuple[float, int]:
    """Matches with one AI seat (rotating) against greedy seats: the AI's share of match wins."""
    wins = 0.0
    for g in range(matches):
        ai_seat = g % seats
        policies = [choose_action if s == ai_seat else choose_greedy_action for s in range(seats)]
        _, _, results = play_match(seats, 5000 + g, policies)
        last = results[-1] if results else None
        if last is not None and last.match_over and last.match_winners:
            wins += (ai_seat in last.match_winners) / len(last.match_winners)
    return wins / matches if matches else float("nan"), matches


def bench_win_rate(matches: int) -> None:
    for seats in (3, 2):
        t = time.perf_counter()
        share, n = ai_vs_greedy(matches, seats)
        print(
            f"AI vs greedy: {n} seeded {seats}-player matches, 1 AI seat (rotating) vs {seats - 1} greedy: AI won "
            f"{share:.0%} (even = {1 / seats:.0%}) in {time.perf_counter() - t:.1f} s"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rummy500", description=__doc__)
    parser.add_argument("--apply-matches", type=int, default=10, help="AI matches replayed through apply")
    parser.add_argument("--move-matches", type=int, default=5, help="3-player matches whose positions time the AI")
    parser.add_argument("--matches", type=int, default=200, help="3-player AI-only matches")
    parser.add_argument("--versus", type=int, default=200, help="AI vs greedy matches (per player count)")
    args, _ = parser.parse_known_args(argv)
    print(f"== Rummy 500 bench | {machine()}")
    bench_apply(args.apply_matches)
    bench_ai_moves(args.move_matches)
    bench_matches(args.matches)
    bench_win_rate(args.versus)


if __name__ == "__main__":
    main(sys.argv[1:])
