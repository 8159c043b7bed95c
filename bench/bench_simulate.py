"""`simulate` throughput: AI-only matches through the table service into a real SQLite file.

Every move is a committed transaction (log entry + snapshot), as in a live game, so this measures
what a busy server would pay per action. `python -m bench.bench_simulate [--sim-games N]`.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_rummikub import machine, percentile
from bot.simulate import simulate
from storage import SqliteStore


async def _run(games: int, seats: int, seed: int) -> list[tuple[float, int]]:
    """Per match: (seconds, actions)."""
    per_match = []
    with tempfile.TemporaryDirectory() as tmp:
        store = SqliteStore(str(Path(tmp) / "bench.db"))
        await store.open()
        try:
            for i in range(games):
                started = time.perf_counter()
                summary = await simulate(store, "rummikub", 1, seed + i, seats)
                per_match.append((time.perf_counter() - started, summary.actions))
        finally:
            await store.close()
    return per_match


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_simulate")
    parser.add_argument("--sim-games", type=int, default=20)
    parser.add_argument("--sim-seats", type=int, default=4)
    args, _ = parser.parse_known_args(argv)
    per_match = asyncio.run(_run(args.sim_games, args.sim_seats, seed=1000))
    seconds = [s for s, _ in per_match]
    actions = [a for _, a in per_match]
    per_action_ms = [1000 * s / a for s, a in per_match]
    print(f"== simulate through TableService + SQLite ({machine()})")
    print(f"   {len(per_match)} matches of {args.sim_seats} AI seats, {sum(actions)} committed actions")
    print(f"   per match: median {statistics.median(seconds) * 1000:.0f} ms, {statistics.median(actions):.0f} actions")
    print(f"   per action: median {statistics.median(per_action_ms):.2f} ms, p95 {percentile(per_action_ms, 0.95):.2f} ms")
    print(f"   throughput: {sum(actions) / sum(seconds):.0f} actions/s")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
