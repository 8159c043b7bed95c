"""Commits made by any process sharing the store, told to this one: what the web server's open
pages wait on when a move is committed by another bot process (issue 15's several processes).

One small interface, `ChangeFeed.run(watched, changed)`: until cancelled, call `changed(table_id)`
soon after a commit of a table in `watched()` (the tables with open pages, read anew each time).
A spurious call is allowed (the page re-reads the record and sends nothing when its version has
not moved); a missed one is not. Backends:

- PostgreSQL: LISTEN/NOTIFY (storage/postgres_feed.py), sent by a trigger inside the committing
  transaction (migrations_pg/006), so a notification never announces a commit that rolled back.
- SQLite: a poll on a connection of its own, only while pages are open: `PRAGMA data_version`
  (free: it moves only when another connection committed, our own writer's included), then one
  primary-key query for the watched tables' versions.
- Any other store (memory: nothing to share with another process): the watched tables' versions
  read through the store itself.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from storage.ports import Store
from storage.postgres import PostgresStore
from storage.sqlite import SqliteStore

POLL_S = 0.05  # the SQLite poll: half of the 100 ms a move may take to reach another process's page

Watched = Callable[[], Collection[str]]
Changed = Callable[[str], None]


class ChangeFeed(Protocol):
    async def run(self, watched: Watched, changed: Changed) -> None:
        """Until cancelled: `changed(table_id)` after every commit of a watched table."""


def report(seen: dict[str, int], versions: dict[str, int], changed: Changed) -> None:
    """Tell of every table whose version moved since the last poll. A table seen for the first time
    is told too: its page may have read the row just before a commit this poll is the first to see."""
    for table_id, version in versions.items():
        if seen.get(table_id) != version:
            seen[table_id] = version
            changed(table_id)


@dataclass
class StorePollFeed:
    store: Store
    interval_s: float = POLL_S

    async def versions(self, ids: set[str]) -> dict[str, int]:
        found = {i: await self.store.get_table(i) for i in ids}
        return {i: rec.version for i, rec in found.items() if rec is not None}

    async def run(self, watched: Watched, changed: Changed) -> None:
        seen: dict[str, int] = {}
        try:
            while True:
                await asyncio.sleep(self.interval_s)
                ids = set(watched())
                for gone in seen.keys() - ids:
                    del seen[gone]
                if ids:
                    report(seen, await self.versions(ids), changed)
        finally:
            self.close()

    def close(self) -> None:
        """Release what the poll holds (nothing here)."""


@dataclass
class SqlitePollFeed(StorePollFeed):
    """Reads on the event loop's thread, as the store's own reader does (storage/sqlite.py,
    LoopReader): under WAL a reader never waits for a writer, and both queries cost microseconds."""

    path: str = ""
    _conn: sqlite3.Connection | None = None
    _data_version: int | None = None
    _asked: set[str] = field(default_factory=set)

    async def versions(self, ids: set[str]) -> dict[str, int]:
        try:
            if self._conn is None:
                uri = Path(self.path).resolve().as_uri() + "?mode=ro"
                self._conn = sqlite3.connect(uri, uri=True, isolation_level=None)
            data_version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if data_version == self._data_version and ids <= self._asked:
                return {}  # nothing committed since the last read, and no page opened since
            marks = ", ".join("?" * len(ids))
            rows = self._conn.execute(f"SELECT id, version FROM game_tables WHERE id IN ({marks})", tuple(ids))
            found = dict(rows.fetchall())
        except sqlite3.Error:  # busy past the timeout (a crashed writer's recovery): the next poll tries again
            self.close()
            return {}
        self._data_version, self._asked = data_version, ids
        return found

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._data_version = None, None


def change_feed(store: Store, poll_s: float = POLL_S) -> ChangeFeed:
    """The feed that suits the store (not started: the caller runs `run` as a task)."""
    if isinstance(store, PostgresStore):
        from storage.postgres_feed import PostgresFeed  # asyncpg's listener, only for a PostgreSQL store
        return PostgresFeed(store.url)
    if isinstance(store, SqliteStore):
        return SqlitePollFeed(store, poll_s, path=store.path)
    return StorePollFeed(store, poll_s)
