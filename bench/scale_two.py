"""bench/bench_scale.py's two-process rows (PostgreSQL): this process and a second bench process
(`python -m bench.scale_two URL …`, started here), each with as many new tables of its own, both at
saturation at once on the same database; their durable actions/s against this process alone, and
each one's, its players' and the server's CPU share, which says where the rest of the machine goes
(the machine's load average before the run is printed too: the cores may be shared with other work),
and the transactions committed, deadlocks and group-commit batches run again, per the writes."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys

from bench.bench_scale import Counters, Phase, _open_tables, _phase, _saturate
from bench.scale_backends import PostgresBackend, database_counts


async def two_processes(backend: PostgresBackend, n_tables: int, seconds: float, seed: int, alone: Phase,
                         ai_workers: int) -> None:
    """Two processes on the same database, each with `n_tables` new tables of its own, both at
    saturation; against this process alone with as many tables (`alone`, its saturation row)."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "bench.scale_two", backend.url, "--tables", str(n_tables),
         "--seconds", str(seconds), "--seed", str(seed + 1), "--ai-workers", str(ai_workers)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert worker.stdin is not None and worker.stdout is not None
    loop = asyncio.get_running_loop()
    opened = await _open_tables(backend, n_tables, seed + 2, "u", ai_workers)
    tables = opened.tables
    await _saturate(tables, min(1.0, seconds / 4), Counters())
    ready = await loop.run_in_executor(None, worker.stdout.readline)
    if ready.strip() != "ready":
        worker.kill()
        raise RuntimeError(f"the second bench process did not start: {ready!r}")
    load = os.getloadavg()[0]
    commits, deadlocks = await database_counts(backend.url)
    worker.stdin.write("go\n")
    worker.stdin.flush()
    try:
        first = await _phase(backend, opened.players, _saturate(tables, seconds, counters := Counters()), counters,
                             prefix="u")
        stats1 = getattr(getattr(opened.store, "writer", None), "stats", None)
    finally:
        await opened.close()
    second = json.loads(await loop.run_in_executor(None, worker.stdout.readline))
    worker.wait()
    commits2, deadlocks2 = await database_counts(backend.url)
    rate1, rate2 = first.durable / first.seconds, second["durable"] / second["seconds"]
    one = alone.durable / alone.seconds
    both = first.durable + second["durable"]

    def share(cpu: float, seconds: float) -> str:
        return f"{100 * cpu / seconds:.0f} %"

    busy = (first.cpu + first.players + first.server_cpu) / first.seconds + \
        (second["process_cpu"] + second["players"]) / second["seconds"]
    print(f"   two processes: first {rate1:.0f} + second {rate2:.0f} = {rate1 + rate2:.0f} durable actions/s "
          f"({(rate1 + rate2) / one:.2f}x one process alone, {one:.0f}: the second adds {(rate1 + rate2 - one) / one:.2f}x); "
          f"CPU of one core: first {share(first.cpu, first.seconds)} "
          f"({1000 * first.cpu / max(first.durable, 1):.2f} ms/action, AI workers included), "
          f"its players {share(first.players, first.seconds)}, "
          f"second {share(second['process_cpu'], second['seconds'])} "
          f"({1000 * second['process_cpu'] / max(second['durable'], 1):.2f} ms/action), "
          f"its players {share(second['players'], second['seconds'])}, "
          f"server {share(first.server_cpu, first.seconds)} ({1000 * first.server_cpu / max(both, 1):.2f} ms/action): "
          f"{100 * busy:.0f} % of the 2 cores in all (load average {load:.1f} before the run); "
          f"{(commits2 - commits) / max(both, 1):.2f} transactions committed per action, "
          f"{deadlocks2 - deadlocks} deadlocks, "
          f"{getattr(stats1, 'redone', 0) + second['redone']} batches run again")


async def _worker(url: str, n_tables: int, seconds: float, seed: int, ai_workers: int) -> None:
    """The second process of `two_processes`: opens its tables, says ready, saturates on "go"."""
    backend = PostgresBackend(url)
    opened = await _open_tables(backend, n_tables, seed, "w", ai_workers)
    await _saturate(opened.tables, min(1.0, seconds / 4), Counters())
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    phase = await _phase(backend, opened.players, _saturate(opened.tables, seconds, counters := Counters()), counters,
                         prefix="w")
    stats = getattr(getattr(opened.store, "writer", None), "stats", None)
    await opened.close()
    print(json.dumps({"durable": phase.durable, "seconds": phase.seconds, "process_cpu": phase.cpu,
                      "players": phase.players, "redone": getattr(stats, "redone", 0)}), flush=True)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.scale_two")
    parser.add_argument("url", help="the first process's database")
    parser.add_argument("--tables", type=int, required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--ai-workers", type=int, required=True)
    args = parser.parse_args(argv)
    asyncio.run(_worker(args.url, args.tables, args.seconds, args.seed, args.ai_workers))


if __name__ == "__main__":
    main(sys.argv[1:])
