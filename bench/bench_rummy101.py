"""Rummy 101 engine and AI benchmarks: `python -m bench.bench_rummy101 [--matches N ...]`.

Figures only (medians, p95, shares), never assertions: they go into the issue note with the machine line.
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
from rules.rummy101 import search
from rules.rummy101.ai import choose_action, choose_greedy_action

ENGINE = get_engine("rummy101")
MAX_ACTIONS = 20000
Policy = Callable[[dict[str, Any], Random], Action]


def play_match(
    seats: int, seed: int, policies: Sequence[Policy] | None = None, options: dict[str, Any] | None = None
) -> tuple[State, list[tuple[State, int, Action]], list[dict[str, Any]]]:
    """One seeded match; returns the final state, every (state before, seat, action) and each round's details."""
    state = ENGINE.new_game(seats, options=options, seed=seed)
    rng = Random(seed)
    log: list[tuple[State, int, Action]] = []
    rounds: list[dict[str, Any]] = []
    while len(log) < MAX_ACTIONS:
        seat = ENGINE.current_seat(state)
        if seat is None:
            result = ENGINE.result(state)
            assert result is not None
            rounds.append({**result.details, "winners": result.winners})
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
    return state, log, rounds


def round_kind(details: dict[str, Any]) -> str:
    if details["reason"] == "stock":
        return "stock exhausted"
    kinds = [k for k, on in (("one-turn", details["one_turn"]), ("joker", details["joker_finish"])) if on]
    return " + ".join(kinds) + " finish" if kinds else "normal finish"


# ---- benches -------------------------------------------------------------------------------------


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
        f"apply: {len(per_action)} actions from {matches} AI matches | median {med * 1e6:.0f} us/action "
        f"({1 / med:,.0f} actions/s) | p95 {percentile(per_action, 0.95) * 1e6:.0f} us | "
        f"overall {len(per_action) / sum(per_action):,.0f} actions/s"
    )


def bench_ai_moves(matches: int) -> None:
    """AI decision time over the positions of seeded 4-player AI matches (re-timed off-line)."""
    views = []
    for seed in range(matches):
        _, log, _ = play_match(4, 1000 + seed)
        views += [ENGINE.view(state, seat) for state, seat, _ in log]
    times: dict[str, list[float]] = {"draw phase": [], "play, not opened": [], "play, opened": []}
    rng = Random(0)
    for view in views:
        # The meld search is memoised per hand; time every decision cold, as a live table would see it.
        search.clear_caches()
        t = time.perf_counter()
        choose_action(view, rng)
        dt = time.perf_counter() - t
        if view["phase"] == "draw":
            times["draw phase"].append(dt)
        elif view["status"][view["you"]] == "unopened":
            times["play, not opened"].append(dt)
        else:
            times["play, opened"].append(dt)
    every = [dt for ts in times.values() for dt in ts]
    print(
        f"AI decision time over {len(every)} positions ({matches} matches): p50 {percentile(every, 0.5) * 1e3:.2f} ms, "
        f"p95 {percentile(every, 0.95) * 1e3:.2f} ms, max {max(every) * 1e3:.1f} ms"
    )
    for phase, ts in times.items():
        if ts:
            print(
                f"  {phase}: {len(ts)} positions, p50 {percentile(ts, 0.5) * 1e3:.2f} ms, "
                f"p95 {percentile(ts, 0.95) * 1e3:.2f} ms"
            )


def bench_round_ends(matches: int) -> None:
    """How rounds end in 4-player AI-only matches (default options: 3 rounds, fixed, no Joker button)."""
    t = time.perf_counter()
    kinds: Counter[str] = Counter()
    actions = 0
    for seed in range(matches):
        _, log, rounds = play_match(4, seed)
        actions += len(log)
        kinds.update(round_kind(r) for r in rounds)
    total = sum(kinds.values())
    shares = ", ".join(f"{k} {v} ({v / total:.0%})" for k, v in kinds.most_common())
    print(
        f"round ends in {matches} seeded 4-player AI matches ({total} rounds, {actions} actions, "
        f"{time.perf_counter() - t:.1f} s): {shares}"
    )


def ai_vs_greedy(matches: int, first_seed: int = 0) -> tuple[float, float, int]:
    """4-player matches, AI at seats 0 and 2 or 1 and 3 (alternating), greedy in the others.

    Returns (AI share of match wins, AI share of round wins, matches); shared wins count fractionally."""
    match_wins = round_wins = 0.0
    rounds_won = 0
    for g in range(matches):
        ai_seats = {0, 2} if g % 2 == 0 else {1, 3}
        policies = [choose_action if s in ai_seats else choose_greedy_action for s in range(4)]
        state, _, rounds = play_match(4, first_seed + g, policies)
        winners = state["match_winners"]
        if winners:
            match_wins += sum(1 for w in winners if w in ai_seats) / len(winners)
        for r in rounds:
            if r["winners"]:
                rounds_won += 1
                round_wins += sum(1 for w in r["winners"] if w in ai_seats) / len(r["winners"])
    return match_wins / matches, round_wins / max(1, rounds_won), matches


def bench_win_rate(matches: int) -> None:
    t = time.perf_counter()
    share, round_share, n = ai_vs_greedy(matches)
    print(
        f"AI vs greedy: {n} seeded 4-player matches (2 AI + 2 greedy seats, alternating): AI seats won "
        f"{share:.0%} of matches and {round_share:.0%} of won rounds (50% = even) in {time.perf_counter() - t:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_rummy101", description=__doc__)
    parser.add_argument("--apply-games", type=int, default=20, help="AI matches replayed through apply")
    parser.add_argument("--move-games", type=int, default=8, help="4-player matches whose positions time the AI")
    parser.add_argument("--games", type=int, default=200, help="matches for round ends and AI vs greedy")
    args, _ = parser.parse_known_args(argv)
    print(f"== Rummy 101 bench | {machine()}")
    bench_apply(args.apply_games)
    bench_ai_moves(args.move_games)
    bench_round_ends(args.games)
    bench_win_rate(args.games)


if __name__ == "__main__":
    main(sys.argv[1:])
