"""Run every benchmark: `python -m bench` (arguments go to each bench, e.g. `--games 100`)."""

from __future__ import annotations

import sys
import time
from importlib import import_module
from importlib.util import find_spec

# Each module has `main(argv)`; a game's bench runs once the game has landed.
BENCHES = [
    "bench_rummikub", "bench_rummy101", "bench_rummy500", "bench_canasta", "bench_three_thirteen",
    "bench_ai", "bench_simulate", "bench_views", "bench_telegram", "bench_discord", "bench_leaderboard",
    "bench_pictures", "bench_scale", "bench_engines", "bench_chat", "bench_web", "bench_hints", "bench_console",
    "bench_tui", "bench_hostile", "bench_faults", "bench_soak", "bench_catalogs", "bench_clock", "bench_taps",
    "bench_restart",
]


def main(argv: list[str]) -> None:
    start = time.perf_counter()
    for name in BENCHES:
        if find_spec(f"bench.{name}") is None:
            continue
        import_module(f"bench.{name}").main(argv)
    print(f"== all benches done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
