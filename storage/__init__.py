"""Persistence for tables, action logs, players and results (ARCHITECTURE.md, "Storage").

Knows games only as JSON: nothing here imports `bot/` or `rules/`.
"""

from __future__ import annotations

from storage.memory import MemoryStore
from storage.models import (
    ACTIVE_STATUSES,
    GLOBAL_SCOPE,
    ActionKeyRecord,
    BoardRow,
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
from storage.sqlite import SqliteStore


def open_store(url: str) -> Store:
    """The store a URL names, not yet opened (`await store.open()` next).

    "memory://" is a MemoryStore; "sqlite:///data/rummy.db" (relative) or "sqlite:////srv/rummy.db"
    (absolute, the SQLAlchemy spelling) or a plain path is a SqliteStore.
    """
    if url == "memory://":
        return MemoryStore()
    if url.startswith("sqlite:///"):
        path = url.removeprefix("sqlite:///")
    elif "://" in url:
        raise ValueError(f"unsupported store URL {url!r}; use memory://, sqlite:///path.db or a file path")
    else:
        path = url
    if not path:
        raise ValueError(f"store URL {url!r} names no file")
    return SqliteStore(path)


__all__ = [
    "ACTIVE_STATUSES", "ActionKeyRecord", "DuplicateAction", "GLOBAL_SCOPE", "BoardRow", "LogEntry", "MatchPlayerRecord", "MatchResultRecord", "MemoryStore",
    "PlayerRecord", "RateFn", "RatingKey", "RatingRecord", "SeatRecord",
    "SqliteStore", "Store", "TableExists", "TableNotFound", "TableRecord", "TableStatus", "VersionConflict",
    "open_store",
]
