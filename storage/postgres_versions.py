"""PostgresStore.get_table's version guard, for every table asked about meanwhile in one query.

A table kept in the record cache is served after one indexed lookup of its stored version. At
saturation that lookup was about one round trip per action of its own, with a pool connection
taken and given back for it (asyncpg shields each release in a task of its own): what the guard
cost was mostly the trip, not the lookup. Here the tables asked about while a lookup is in flight
wait for the next one, which reads them all (`id = ANY(…)`). Each answer comes from a read started
after its caller asked, so it is as current as a lookup of its own.
"""

from __future__ import annotations

import asyncio

import asyncpg

_SQL = "SELECT id, version FROM game_tables WHERE id = ANY($1::text[])"


class VersionReads:
    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self._asked: dict[str, list[asyncio.Future[int | None]]] = {}
        self._task: asyncio.Task[None] | None = None
        self.queries = 0  # for tests and benches: lookups made

    async def version(self, table_id: str) -> int | None:
        """The stored version of `table_id`, None when there is no such table."""
        future: asyncio.Future[int | None] = asyncio.get_running_loop().create_future()
        self._asked.setdefault(table_id, []).append(future)
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="postgres-version-reads")
        return await future

    async def close(self) -> None:
        """Once the lookups asked for are answered (before the pool closes)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def _run(self) -> None:
        try:
            while self._asked:
                asked, self._asked = self._asked, {}
                try:
                    async with self._pool.acquire() as db:
                        rows = await db.fetch(_SQL, list(asked))
                except Exception as err:  # every caller of this lookup hears of it; the next one may work
                    for futures in asked.values():
                        for future in futures:
                            if not future.done():
                                future.set_exception(err)
                    continue
                self.queries += 1
                found = {r["id"]: r["version"] for r in rows}
                for table_id, futures in asked.items():
                    for future in futures:
                        if not future.done():  # its caller may have given up
                            future.set_result(found.get(table_id))
        finally:
            self._task = None
