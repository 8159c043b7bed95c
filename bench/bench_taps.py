"""Tap-completeness (issue 25): `python -m bench.bench_taps [--games N] [--moves M]`.

For every game, N seeded matches in which the normal AI makes every move; each move is looked for on
the mover's hand screen through the presenter's controls alone (bench/taps.py: a suggested move,
picks + staged melds + a move button, or the two-step table-item move; no typing). Printed per game:
moves reachable / total (goal 100 %), how many also without the suggestions (picks and staging
alone, a command that leaves the same table counting: `j` for a declared joker the meld pins down), presses per move (median, p95; goal median <= 3), and the time to build the hand controls
with the suggestions (the engine's search runs in them). Figures only, never assertions.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from random import Random

from bench.bench_rummikub import machine, percentile
from bench.taps import plan_move
from bot.core.presenter.controls import hand_controls
from bot.core.presenter.hand_ui import HandUI
from rules import engine_names, get_engine


def bench_game(name: str, games: int, moves: int) -> None:
    engine = get_engine(name)
    routes: Counter[str] = Counter()
    presses: list[int] = []
    build: list[float] = []
    total = plain = 0
    missed: list[str] = []
    for seed in range(games):
        seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
        state = engine.new_game(seats, seed=20_000 + seed)
        for step in range(moves):
            seat = engine.current_seat(state)
            if seat is None:
                result = engine.result(state)
                if result is None or result.match_over:
                    break
                state = engine.next_round(state)
                continue
            view = engine.view(state, seat)
            t = time.perf_counter()  # before the AI moves: its searches would be in the caches
            hand_controls(name, view, seat, HandUI(), "en", True)
            build.append(time.perf_counter() - t)
            action = engine.ai_action(state, seat, Random(f"{seed}/{step}"))
            plan = plan_move(name, view, seat, action)
            total += 1
            if plan is None:
                missed.append(engine.format(action))
            else:
                routes[plan.route] += 1
                presses.append(len(plan.presses))
                plain += plan.route != "suggestion" or \
                    plan_move(name, view, seat, action, suggest=False, state=state) is not None
            state, _ = engine.apply(state, seat, action)
    reached = total - len(missed)
    print(f"{name}: reachable {reached}/{total} ({100 * reached / max(1, total):.1f} %) | without suggestions "
          f"{plain}/{total} ({100 * plain / max(1, total):.1f} %) | presses median {percentile(presses, 0.5):.0f}, "
          f"p95 {percentile(presses, 0.95):.0f}, max {max(presses, default=0)} | routes "
          + ", ".join(f"{r} {n}" for r, n in routes.most_common())
          + f" | controls p50 {percentile(build, 0.5) * 1e3:.1f} ms, p95 {percentile(build, 0.95) * 1e3:.1f} ms, "
            f"max {max(build, default=0) * 1e3:.0f} ms"
          + (f" | missed e.g. {missed[:3]}" if missed else ""))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_taps", description=__doc__)
    parser.add_argument("--games", type=int, default=8, help="seeded normal-AI matches per game")
    parser.add_argument("--moves", type=int, default=600, help="moves looked at per match at most")
    args, _ = parser.parse_known_args(argv)
    print(f"== taps | {machine()}")
    for name in engine_names():
        bench_game(name, args.games, args.moves)


if __name__ == "__main__":
    main(sys.argv[1:])
