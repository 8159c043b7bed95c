"""Moving an installation from one database to another (`rummyclub export SRC DST`): every row of
every table the bot keeps, copied in one transaction on each side. Rows are copied as the backends
store them (the same JSON text on both), not re-encoded through the models, so nothing is lost.

Claims (migration 005) are not copied: they belong to the processes running on the old database.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import aiosqlite

from storage.memory import MemoryStore
from storage.ports import Store
from storage.postgres import PostgresStore
from storage.sqlite import BUSY_TIMEOUT_MS, SqliteStore

# Parents before children (table_log references game_tables).
TABLES = ("game_tables", "table_log", "players", "match_results", "match_players", "ratings", "team_names",
          "chat_settings", "processed_updates", "table_refs", "action_keys")
# Results finished at the same moment keep their order: SQLite's rowid, PostgreSQL's `recorded`.
_ORDER = {"match_results": {"sqlite": "finished_at, rowid", "postgres": "finished_at, recorded"}}

Row = dict[str, Any]


class TransferError(Exception):
    """The copy cannot be made (a store that keeps nothing, a destination that holds data)."""


def _kind(store: Store) -> str:
    if isinstance(store, SqliteStore):
        return "sqlite"
    if isinstance(store, PostgresStore):
        return "postgres"
    raise TransferError(f"{type(store).__name__} keeps nothing to copy — export between SQLite and PostgreSQL")


class _Side:
    """One open database, spoken to in its own SQL dialect within one transaction."""

    def __init__(self, kind: str, db: Any) -> None:
        self.kind, self.db = kind, db

    async def rows(self, table: str) -> list[Row]:
        order = _ORDER.get(table, {}).get(self.kind)
        sql = f"SELECT * FROM {table}" + (f" ORDER BY {order}" if order else "")
        if self.kind == "sqlite":
            return [dict(r) for r in await self.db.execute_fetchall(sql)]
        return [dict(r) for r in await self.db.fetch(sql)]

    async def count(self, table: str) -> int:
        if self.kind == "sqlite":
            return int(list(await self.db.execute_fetchall(f"SELECT COUNT(*) FROM {table}"))[0][0])
        return int(await self.db.fetchval(f"SELECT COUNT(*) FROM {table}"))

    async def columns(self, table: str) -> dict[str, str]:
        """Writable column -> its type (generated columns left out: the database fills them)."""
        if self.kind == "sqlite":
            return {r[1]: str(r[2]).upper() for r in await self.db.execute_fetchall(f"PRAGMA table_info({table})")}
        found = await self.db.fetch(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() "
            "AND table_name = $1 AND is_identity = 'NO' AND is_generated = 'NEVER'", table)
        return {r["column_name"]: r["data_type"] for r in found}

    async def insert(self, table: str, rows: Sequence[Row]) -> None:
        if not rows:
            return
        columns = await self.columns(table)
        names = [c for c in rows[0] if c in columns]
        missing = set(columns) - set(names)
        if missing:
            raise TransferError(f"{table}: the source has no {', '.join(sorted(missing))} — migrate it first")
        # PostgreSQL's booleans are SQLite's 0/1 integers; every other value carries over as it is.
        flags = {c for c in names if columns[c] == "boolean"}
        values = [tuple(bool(r[c]) if c in flags and r[c] is not None else r[c] for c in names) for r in rows]
        if self.kind == "sqlite":
            await self.db.executemany(
                f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})", values)
        else:
            await self.db.executemany(f"INSERT INTO {table} ({', '.join(names)}) "
                                      f"VALUES ({', '.join(f'${i}' for i in range(1, len(names) + 1))})", values)


@asynccontextmanager
async def _side(store: Store, write: bool) -> AsyncIterator[_Side]:
    kind = _kind(store)
    if isinstance(store, SqliteStore):
        # A connection of its own on the store's file (the store's writer commits in batches on
        # another thread): a read transaction is one snapshot of every table; IMMEDIATE holds every
        # other writer off while the copy is written.
        db = await aiosqlite.connect(store.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            await db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            try:
                yield _Side(kind, db)
            except BaseException:
                await db.rollback()
                raise
            if write:
                await db.commit()
            else:
                await db.rollback()
        finally:
            await db.close()
    else:
        assert isinstance(store, PostgresStore)
        # Reading: one snapshot for every table, while the bot may still be writing.
        isolation = "read_committed" if write else "repeatable_read"
        async with store._conn() as db, db.transaction(isolation=isolation):  # noqa: SLF001
            yield _Side(kind, db)


async def copy_store(src: Store, dst: Store) -> dict[str, int]:
    """Copy every table, log, player, result, rating, chat setting and key from `src` into the empty
    `dst` (both open); returns rows copied per table. `TransferError` (nothing written) if `dst` holds
    any data or either store keeps nothing (memory)."""
    if isinstance(src, MemoryStore) or isinstance(dst, MemoryStore):
        raise TransferError("memory:// keeps nothing — export between SQLite and PostgreSQL databases")
    copied: dict[str, int] = {}
    async with _side(src, write=False) as source, _side(dst, write=True) as target:
        held = [t for t in TABLES if await target.count(t)]
        if held:
            raise TransferError(f"the destination already holds data ({', '.join(held)}) — export into an empty "
                                "database")
        for table in TABLES:
            rows = await source.rows(table)
            await target.insert(table, rows)
            copied[table] = len(rows)
    return copied


__all__ = ["TABLES", "TransferError", "copy_store"]
