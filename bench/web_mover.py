"""The other process of bench_web's cross-process row: `python -m bench.web_mover <database> <table>`
makes one move (a draw, by whoever is on turn) per line read from stdin and prints the new version
and the monotonic time its commit returned to the service (a commit listener: before the views
the answer builds; CLOCK_MONOTONIC, one clock for every process here)."""

from __future__ import annotations

import asyncio
import sys
import time

from bot.core.models import Player
from bot.core.presenter.games import turn_of
from bot.core.service import TableService
from storage import open_store

PLAYERS = (Player("bench", "1", "Alice"), Player("bench", "2", "Bob"))


async def main(database: str, table_id: str) -> None:
    store = open_store(database)
    await store.open()
    service = TableService(store, owner="mover")
    committed: dict[int, float] = {}
    service.commit_listeners.append(lambda rec: committed.setdefault(rec.version, time.perf_counter()))
    loop = asyncio.get_running_loop()
    try:
        while await loop.run_in_executor(None, sys.stdin.readline):
            turn = turn_of(await service.get(table_id))
            out = await service.act(table_id, PLAYERS[turn or 0], "draw")
            print(out.table.version, committed[out.table.version], flush=True)
    finally:
        await store.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
