"""Tile Canasta engine and AI benchmarks: `python -m bench.bench_canasta [--games N ...]`.

Figures only (medians, p95, shares), never assertions: they go into the issue note with the
machine line.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from rules import get_engine
from rules.canasta.ai import choose_action, choose_greedy_action
from rules.core.engine import Action, State

ENGINE = get_engine("canasta")
MAX_ACTIONS = 20_000
Policy = Callable[[dict[str, Any], Random], Action]


def play_match(
    seed: int, policies: Sequence[Policy] | None = None, options: dict[str, Any] | None = None,
    keep_log: bool = False,
) -> tuple[State, list[tuple[State, int, Action]], list[dict[str, Any]]]:
    """One seeded match; returns the final state, (state before, seat, action) if asked, and every
    round's result details."""
    state = ENGINE.new_game(4, options=options, seed=seed)
    rng = Random(seed)
    log: list[tuple[State, int, Action]] = []
    rounds: list[dict[str, Any]] = []
    for _ in range(MAX_ACTIONS):
        seat = ENGINE.current_seat(state)
        if seat is None:
            result = ENGINE.result(state)
            assert result is not None
            rounds.append(result.details)
            if result.match_over:
                break
            state = ENGINE.next_round(state)
            continue
        if policies is None:
            action = ENGINE.ai_action(state, seat, rng)
        else:
            action = policies[seat](ENGINE.view(state, seat), rng)
        if keep_log:
            log.append((state, seat, action))
        state, _ = ENGINE.apply(state, seat, action)
    return state, log, rounds


def bench_apply(games: int) -> None:
    """Actions per second through `apply` (AI matches recorded first, then replayed and timed)."""
    logs = [play_match(seed, keep_log=True)[1] for seed in range(games)]
    per_action: list[float] = []
    for log in logs:
        for state, seat, action in log:
            t0 = time.perf_counter()
            ENGINE.apply(state, seat, action)
            per_action.append(time.perf_counter() - t0)
    med = statistics.median(per_action)
    print(
        f"apply: {len(per_action)} actions from {games} AI matches | median {med * 1e6:.0f} us/action "
        f"({1 / med:,.0f} actions/s) | p95 {percentile(per_action, 0.95) * 1e6:.0f} us | "
        f"overall {len(per_action) / sum(per_action):,.0f} actions/s"
    )


def bench_ai_moves(games: int) -> None:
    """AI and greedy decision time over the positions of seeded AI matches (re-timed off-line)."""
    positions: list[tuple[State, int]] = []
    for seed in range(games):
        _, log, _ = play_match(1000 + seed, keep_log=True)
        positions += [(state, seat) for state, seat, _ in log]
    views = [ENGINE.view(state, seat) for state, seat in positions]
    rng = Random(0)
    times = []
    for state, seat in positions:
        t = time.perf_counter()
        ENGINE.ai_action(state, seat, rng)
        times.append(time.perf_counter() - t)
    print(
        f"engine.ai_action (view + decision) over {len(times)} positions: p50 {percentile(times, 0.5) * 1e3:.3f} ms, "
        f"p95 {percentile(times, 0.95) * 1e3:.3f} ms, max {max(times) * 1e3:.2f} ms"
    )
    for label, policy in (("AI", choose_action), ("greedy", choose_greedy_action)):
        times = []
        for view in views:
            t = time.perf_counter()
            policy(view, rng)
            times.append(time.perf_counter() - t)
        print(
            f"{label} decision time over {len(times)} positions ({games} matches): "
            f"p50 {percentile(times, 0.5) * 1e3:.3f} ms, p95 {percentile(times, 0.95) * 1e3:.3f} ms, "
            f"max {max(times) * 1e3:.2f} ms"
        )


def bench_matches(games: int) -> None:
    """AI-only matches: how rounds end and canastas per round; then the AI team against a greedy team
    (the AI plays Team A in even-numbered matches and Team B in odd ones)."""
    t = time.perf_counter()
    ends: Counter[str] = Counter()
    canastas = rounds = 0
    for seed in range(games):
        _, _, details = play_match(seed)
        for d in details:
            ends[d["reason"]] += 1
            canastas += sum(team["canasta_count"] for team in d["teams"])
            rounds += 1
    print(
        f"AI-only: {games} seeded matches (3 rounds each + tie-breaks), {rounds} rounds: going out "
        f"{ends['out'] / rounds:.1%}, stock exhausted {ends['stock'] / rounds:.1%}; canastas per round "
        f"{canastas / rounds:.2f} (both teams) | {time.perf_counter() - t:.1f} s"
    )
    t = time.perf_counter()
    wins = draws = 0
    rounds_won = rounds_played = 0
    for seed in range(games):
        ai_team = seed % 2
        policies = [choose_action if s % 2 == ai_team else choose_greedy_action for s in range(4)]
        state, _, details = play_match(10_000 + seed, policies)
        winners = state["match_winners"]
        if len(winners) == 4:
            draws += 1
        elif winners and winners[0] % 2 == ai_team:
            wins += 1
        for d in details:
            rounds_played += 1
            scores = d["team_scores"]
            rounds_won += scores[ai_team] > scores[1 - ai_team]
    print(
        f"AI team vs greedy team: {games} seeded matches, AI team won {wins / games:.1%} ({wins}/{games}, "
        f"{draws} drawn); rounds won {rounds_won / rounds_played:.1%} of {rounds_played} | "
        f"{time.perf_counter() - t:.1f} s"
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_canasta", description=__doc__)
    parser.add_argument("--apply-games", type=int, default=20, help="AI matches replayed through apply")
    parser.add_argument("--move-games", type=int, default=10, help="matches whose positions time the AI")
    parser.add_argument("--games", type=int, default=200, help="seeded matches for the end/canasta/win figures")
    args, _ = parser.parse_known_args(argv)
    print(f"== Tile Canasta bench | {machine()}")
    bench_apply(args.apply_games)
    bench_ai_moves(args.move_games)
    bench_matches(args.games)


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
