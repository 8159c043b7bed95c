"""Persistence for tables, action logs, players and results (ARCHITECTURE.md, "Storage").

Knows games only as JSON: nothing here imports `bot/` or `rules/`.
"""

from __future__ import annotations

import aiosqlite

from storage.memory import MemoryStore
from storage.models import (
    ACTIVE_STATUSES,
    EVERY_TABLE,
    GLOBAL_SCOPE,
    ActionKeyRecord,
    BoardRow,
    ClaimScope,
    ClaimWrite,
    DuplicateAction,
    LogEntry,
    MatchPlayerRecord,
    MatchResultRecord,
    PlayerRecord,
    RatingKey,
    RatingRecord,
    SeatRecord,
    TableExists,
    TableNotFound,
    TableRecord,
    TableStatus,
    VersionConflict,
)
from storage.ports import RateFn, Store
from storage.postgres import DEFAULT_POOL, PostgresStore, PostgresUnusable, display_url
from storage.sqlite import DatabaseUnusable, SqliteStore

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StoreURLError(ValueError):
    """A database URL that names no store we have (an unknown scheme, or no file)."""


def open_store(url: str, pg_pool: tuple[int, int] = DEFAULT_POOL) -> Store:
    """The store a URL names, not yet opened (`await store.open()` next). `pg_pool`: a PostgreSQL
    store's connection pool, (fewest kept open, most at once) — PG_POOL_MIN / PG_POOL_MAX.

    "memory://" is a MemoryStore; "sqlite:///data/rummy.db" (relative) or "sqlite:////srv/rummy.db"
    (absolute, the SQLAlchemy spelling) or a plain path is a SqliteStore;
    "postgresql://user:password@host:port/db" (or "postgres://…") is a PostgresStore.
    """
    if url == "memory://":
        return MemoryStore()
    if url.startswith(POSTGRES_SCHEMES):
        return PostgresStore(url, pool=pg_pool)
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
    elif "://" in url:
        # Only the scheme is named: the rest of a URL may hold a password.
        scheme = url.partition("://")[0]
        raise StoreURLError(f"unknown scheme {scheme + '://'!r} — use sqlite:///path.db, a file path, "
                            "postgresql://user@host/db, or memory:// (nothing kept)")
    else:
        path = url
    if not path:
        raise StoreURLError(f"{url!r} names no file — use sqlite:///path.db or a file path")
    return SqliteStore(path)


async def schema_version(store: Store) -> tuple[int, str]:
    """The last migration applied to an open store's database: (number, file name); (0, "") for a
    store without a schema (memory)."""
    if isinstance(store, PostgresStore):
        return await store.schema_version()
    if isinstance(store, SqliteStore):
        # A second connection that only reads: the store's own one is not part of its interface.
        async with aiosqlite.connect(store.path) as db:
            rows = list(await db.execute_fetchall(
                "SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1"))
        return (int(rows[0][0]), str(rows[0][1])) if rows else (0, "")
    return (0, "")


__all__ = [
    "ACTIVE_STATUSES", "GLOBAL_SCOPE", "ActionKeyRecord", "BoardRow", "ClaimScope", "ClaimWrite", "EVERY_TABLE", "DatabaseUnusable", "DuplicateAction",
    "LogEntry", "MatchPlayerRecord", "MatchResultRecord", "MemoryStore", "PlayerRecord", "PostgresStore",
    "PostgresUnusable", "RateFn", "RatingKey",
    "RatingRecord", "SeatRecord", "SqliteStore", "Store", "StoreURLError", "TableExists", "TableNotFound",
    "TableRecord", "TableStatus", "VersionConflict", "display_url", "open_store", "schema_version",
]
