"""How long a hint takes: `python -m bench.bench_hints [--games N]` (figures only, never assertions).

For every game: the positions of N seeded AI games (every seat on turn, levels mixed as in
tests/rules/test_game_hints.py), and for each the time of `rules.<game>.hints.hint` on the seat's
view (the view is built outside the timing), p50/p95/max, with how often each reason came up.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from collections.abc import Sequence
from importlib import import_module
from random import Random

from bench.bench_rummikub import machine, percentile
from rules import engine_names, get_engine

LEVELS = ("easy", "normal", "strong")
MAX_ACTIONS = 5000


def bench_game(name: str, games: int) -> None:
    engine = get_engine(name)
    hint = import_module(f"rules.{name}.hints").hint
    times: list[float] = []
    reasons: Counter[str] = Counter()
    for seed in range(games):
        seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
        state = engine.new_game(seats, seed=10_000 + seed)
        for step in range(MAX_ACTIONS):
            seat = engine.current_seat(state)
            if seat is None:
                result = engine.result(state)
                if result is None or result.match_over:
                    break
                state = engine.next_round(state)
                continue
            view = engine.view(state, seat)
            t = time.perf_counter()
            got = hint(view, state["options"])
            times.append(time.perf_counter() - t)
            reasons[got.reason] += 1
            action = engine.ai_action(state, seat, Random(f"{seed}/{step}"), LEVELS[(seed + seat) % 3])
            state, _ = engine.apply(state, seat, action)
    print(f"{name}: {len(times)} hints over {games} matches: p50 {percentile(times, 0.5) * 1e3:.2f} ms, "
          f"p95 {percentile(times, 0.95) * 1e3:.2f} ms, max {max(times) * 1e3:.1f} ms | reasons "
          + ", ".join(f"{r} {n}" for r, n in reasons.most_common()))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_hints", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="seeded AI matches per game")
    args, _ = parser.parse_known_args(argv)
    print(f"== hints | {machine()}")
    for name in engine_names():
        bench_game(name, args.games)


if __name__ == "__main__":
    main(sys.argv[1:])
