"""Run every benchmark: `python -m bench` (arguments go to each bench, e.g. `--games 100`)."""

from __future__ import annotations

import sys
import time

from bench import bench_rummikub, bench_simulate

BENCHES = [bench_rummikub.main, bench_simulate.main]


def main(argv: list[str]) -> None:
    start = time.perf_counter()
    for bench in BENCHES:
        bench(argv)
    print(f"== all benches done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main(sys.argv[1:])
