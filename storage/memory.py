"""An in-process Store for tests and the console: same contract as SqliteStore, nothing on disk."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from storage.models import (
    ACTIVE_STATUSES,
    LogEntry,
    MatchResultRecord,
    PlayerRecord,
    TableExists,
    TableNotFound,
    TableRecord,
    VersionConflict,
    chat_key,
    next_log_seq,
)

M = TypeVar("M", bound=BaseModel)


def _stored(rec: M) -> M:
    # A JSON round trip on the way in: the kept copy shares nothing with the caller, and whatever
    # SQLite would refuse or change (non-JSON values, int dict keys) behaves the same here.
    return type(rec).model_validate_json(rec.model_dump_json())


def _out(rec: M) -> M:
    return rec.model_copy(deep=True)  # stored data is plain JSON already, so a deep copy suffices


class MemoryStore:
    """No method awaits between reading and writing, so each call is atomic under asyncio."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._tables: dict[str, TableRecord] = {}
        self._logs: dict[str, list[LogEntry]] = {}
        self._players: dict[tuple[str, str], PlayerRecord] = {}
        self._results: dict[str, MatchResultRecord] = {}  # insertion order breaks finished_at ties
        self._chat_settings: dict[tuple[str, str], str] = {}
        self._updates: dict[tuple[str, str], float] = {}
        self._refs: dict[tuple[str, str], str] = {}

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def _chat_taken(self, rec: TableRecord) -> bool:
        return any(t.id != rec.id and t.status in ACTIVE_STATUSES and chat_key(t) == chat_key(rec)
                   for t in self._tables.values())

    async def create_table(self, rec: TableRecord) -> None:
        if rec.id in self._tables:
            raise TableExists(f"table {rec.id!r} already exists")
        if rec.status in ACTIVE_STATUSES and self._chat_taken(rec):
            raise TableExists(f"chat {chat_key(rec)} already has an active table")
        self._tables[rec.id] = _stored(rec)
        self._logs[rec.id] = []

    async def get_table(self, table_id: str) -> TableRecord | None:
        rec = self._tables.get(table_id)
        return _out(rec) if rec is not None else None

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        key = (platform, chat_id, topic_id or "")
        found = (t for t in self._tables.values() if t.status in ACTIVE_STATUSES and chat_key(t) == key)
        rec = next(found, None)
        return _out(rec) if rec is not None else None

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        found = [_out(t) for t in self._tables.values() if t.status in statuses]
        return sorted(found, key=lambda t: (t.created_at, t.id))

    async def due_tables(self, now: float) -> list[str]:
        due = [t for t in self._tables.values()
               if t.status == "playing" and t.deadline is not None and t.deadline <= now]
        return [t.id for t in sorted(due, key=lambda t: (t.deadline, t.id))]

    async def commit(
        self, rec: TableRecord, expected_version: int, entries: Sequence[LogEntry] = ()
    ) -> TableRecord:
        current = self._tables.get(rec.id)
        if current is None:
            raise TableNotFound(rec.id)
        if current.version != expected_version:
            raise VersionConflict(rec.id, expected_version, current.version)
        stored = rec.model_copy(update={"version": expected_version + 1, "created_at": current.created_at,
                                        "log_seq": next_log_seq(rec.id, current.log_seq, entries)})
        if stored.status in ACTIVE_STATUSES and self._chat_taken(stored):
            raise TableExists(f"chat {chat_key(stored)} already has an active table")
        # Every check is done; from here on nothing can fail half way.
        self._logs[rec.id].extend(_stored(e) for e in entries)
        self._tables[rec.id] = _stored(stored)
        return _out(self._tables[rec.id])

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        # seq is dense from 1, so entry seq n sits at index n - 1.
        return [_out(e) for e in self._logs.get(table_id, [])[max(after_seq, 0):]]

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        old = self._players.get((platform, user_id))
        created_at = old.created_at if old is not None else self._clock()
        rec = PlayerRecord(platform=platform, user_id=user_id, name=name, created_at=created_at)
        self._players[(platform, user_id)] = rec

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None:
        rec = self._players.get((platform, user_id))
        return _out(rec) if rec is not None else None

    async def record_result(self, rec: MatchResultRecord) -> bool:
        if rec.table_id in self._results:
            return False
        self._results[rec.table_id] = _stored(rec)
        return True

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        found = [(i, r) for i, r in enumerate(self._results.values())
                 if r.platform == platform and r.chat_id == chat_id and (game is None or r.game == game)]
        found.sort(key=lambda ir: (ir[1].finished_at, ir[0]), reverse=True)
        return [_out(r) for _, r in found[:max(limit, 0)]]

    # ---- adapter data ----------------------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        raw = self._chat_settings.get((platform, chat_id))
        return json.loads(raw) if raw is not None else {}

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        self._chat_settings[(platform, chat_id)] = json.dumps(settings)

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        if (platform, update_id) in self._updates:
            return False
        self._updates[(platform, update_id)] = now
        return True

    async def prune_updates(self, platform: str, before: float) -> int:
        old = [k for k, at in self._updates.items() if k[0] == platform and at < before]
        for k in old:
            del self._updates[k]
        return len(old)

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        return {k: json.loads(v) for (tid, k), v in self._refs.items() if tid == table_id}

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        if value is None:
            self._refs.pop((table_id, key), None)
        else:
            self._refs[(table_id, key)] = json.dumps(value)
