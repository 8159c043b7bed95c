"""The PostgreSQL change feed: LISTEN on one connection of its own (a pooled connection would be
handed to other work). The group writer NOTIFYs once per batch, inside the batch's transaction
(storage/postgres_writer.py), with the ids of the tables it committed, so it is delivered only if
and once the commit is. Channels are per database, not per schema: an id this process does not
watch (another schema's, a table without pages) is dropped here."""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import asyncpg

from storage.feed import Changed, Watched
from storage.postgres_writer import CHANNEL, SEPARATOR

RECONNECT_S = 1.0


@dataclass
class PostgresFeed:
    url: str

    async def run(self, watched: Watched, changed: Changed) -> None:
        first = True
        while True:
            try:
                conn = await asyncpg.connect(self.url)
            except (OSError, asyncpg.PostgresError):
                if first:
                    raise  # a feed that never worked is the caller's to see
                await asyncio.sleep(RECONNECT_S)
                continue
            try:
                await self._listen(conn, watched, changed, catch_up=not first)
            finally:
                with contextlib.suppress(Exception):
                    await conn.close()
            first = False
            await asyncio.sleep(RECONNECT_S)

    @staticmethod
    async def _listen(conn: asyncpg.Connection, watched: Watched, changed: Changed, catch_up: bool) -> None:
        """Until the connection is lost."""
        def notified(_conn: object, _pid: int, _channel: str, payload: str) -> None:
            seen = watched()
            for table_id in payload.split(SEPARATOR):
                if table_id in seen:
                    changed(table_id)

        lost = asyncio.Event()
        conn.add_termination_listener(lambda _c: lost.set())
        await conn.add_listener(CHANNEL, notified)
        if catch_up:  # commits made while nobody listened: every page looks again
            for table_id in list(watched()):
                changed(table_id)
        await lost.wait()
