"""A bot process for the tests to kill for real (tests/bot/test_killed_process.py).

`python -m tests.crash_child DATABASE NOW METHOD [MOVE]` ticks DATABASE (an SQLite file path or a
postgresql:// URL) as claim owner "A" with the clock at NOW — or, with MOVE, plays it as Alice at
the one table in play — and right after the store call METHOD returns it prints `paused METHOD`
and stops there — its claim held, its connections open — until
the test kills it (SIGKILL: no finally, no release, no clean close). With CRASH_CHILD_OWNER=process
in its environment it owns its claims as a real bot process does (`process_owner()`: host, pid).
"""

from __future__ import annotations

import asyncio
import os
import sys
from typing import Any

from bot.core.clock import FakeClock
from bot.core.liveness import process_owner
from bot.core.service import TableService
from storage import PostgresStore, SqliteStore, Store
from tests.bot.conftest import ALICE


class PausingStore:
    def __init__(self, inner: Store, method: str) -> None:
        self.inner, self.method = inner, method

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if name != self.method:
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            await attr(*args, **kwargs)
            print(f"paused {name}", flush=True)
            sys.stdin.readline()  # blocks the whole process, as a hung or dying one: the test kills it
            raise SystemExit("not killed")
        return call


async def main(database: str, now: float, method: str, move: str | None) -> None:
    store: Store = PostgresStore(database) if database.startswith("postgresql://") else SqliteStore(database)
    await store.open()
    owner = process_owner() if os.environ.get("CRASH_CHILD_OWNER") == "process" else "A"
    service = TableService(PausingStore(store, method), FakeClock(now), owner=owner)  # type: ignore[arg-type]
    if move is None:
        await service.tick()
    else:
        (table,) = await store.list_tables(["playing"])
        await service.act(table.id, ALICE, move)
    print("finished without pausing", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], float(sys.argv[2]), sys.argv[3], sys.argv[4] if len(sys.argv) > 4 else None))
