"""The default Store: one SQLite file in WAL mode, shared safely by several bot processes."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.models import (
    ACTIVE_STATUSES,
    ActionKeyRecord,
    ClaimWrite,
    DuplicateAction,
    LogEntry,
    MatchResultRecord,
    PlayerRecord,
    TableExists,
    TableNotFound,
    TableRecord,
    VersionConflict,
    chat_key,
    next_log_seq,
    table_row,
)
from storage.record_cache import RecordCache
from storage.sqlite_claims import SqliteClaims, write_claim
from storage.sqlite_files import DatabaseUnusable, board_query, check_usable, unusable_from  # noqa: F401 - re-exported
from storage.sqlite_migrations import check_ours, migrations, split_statements
from storage.sqlite_rows import RESULT_JSON, LoopReader, from_row, insert_sql, table_from_row, to_row
from storage.sqlite_side import SideTables
from storage.sqlite_writer import CHECKPOINT_EVERY, WAL_LIMIT_BYTES, GroupWriter

T = TypeVar("T")

BUSY_TIMEOUT_MS = 5000  # how long a writer waits for another process's transaction before failing

_ACTIVE_IN = "status IN ('lobby', 'playing')"  # spelled as in the partial index so SQLite uses it
_CHAT_WHERE = f"platform = ? AND chat_id = ? AND COALESCE(topic_id, '') = ? AND {_ACTIVE_IN}"


class SqliteStore(SideTables, SqliteClaims):
    """Reads run on the loop's thread (LoopReader); every write of the process goes through one
    GroupWriter (storage/sqlite_writer.py), which commits writes that arrive together in one
    transaction; an aiosqlite connection checks the file on opening and takes backups. Other processes are held off by BEGIN IMMEDIATE + busy_timeout, and stale writers
    by the version check. The last committed record of each table is kept (storage/record_cache.py)."""

    def __init__(self, path: str, clock: Callable[[], float] = time.time, *,
                 checkpoint_every: int = CHECKPOINT_EVERY, wal_limit_bytes: int = WAL_LIMIT_BYTES) -> None:
        self.path = path
        self._clock = clock
        self._writer_settings = {"checkpoint_every": checkpoint_every, "wal_limit_bytes": wal_limit_bytes}
        self._db: aiosqlite.Connection | None = None
        self._reader: LoopReader | None = None
        self.writer: GroupWriter | None = None
        self.cache = RecordCache()
        self._lock = asyncio.Lock()  # close() once, even when called twice at the same time

    async def open(self) -> None:
        if self._db is not None:
            return
        check_usable(self.path)
        # isolation_level=None: sqlite3 opens no implicit transactions.
        db = await aiosqlite.connect(self.path, isolation_level=None)
        writer: GroupWriter | None = None
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Before anything writes: switching to WAL alone rewrites the file header.
            await check_ours(db, self.path)
            await db.execute("PRAGMA journal_mode = WAL")
            # NORMAL under WAL survives app crashes; only a power cut may lose the last few commits.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            writer = GroupWriter(self.path, BUSY_TIMEOUT_MS, **self._writer_settings)
            await writer.open()
            reader = sqlite3.connect(self.path, isolation_level=None)
            reader.row_factory = sqlite3.Row
            reader.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            self._db, self.writer, self._reader = db, writer, LoopReader(reader)
            await self._migrate()
        except BaseException as err:
            if self._reader is not None:
                self._reader.conn.close()
            self._db, self.writer, self._reader = None, None, None
            if writer is not None:
                await writer.close()
            await db.close()
            named = unusable_from(err, self.path) if isinstance(err, sqlite3.DatabaseError) else None
            if named is None:
                raise
            raise named from err

    async def backup(self, target: str | Path) -> None:
        """A consistent copy of the database at `target` (SQLite's online backup API), taken while
        other connections and processes go on writing: the copy holds every transaction committed
        when it started and none still open. An open store copies through its own connection,
        between its transactions; a closed one opens the file without migrating it, so a backup
        never waits for a running bot's write lock nor changes the file it copies. The copy is
        written next to `target` and renamed into place, so `target` is never half a database."""
        target = Path(target)
        partial = target.with_name(f".{target.name}.partial")
        partial.unlink(missing_ok=True)
        try:
            async with aiosqlite.connect(partial) as dest:
                if self._db is not None:
                    await self._db.backup(dest)
                else:
                    check_usable(self.path, must_exist=True, writable=False)  # a copy only reads it
                    try:
                        async with aiosqlite.connect(self.path, isolation_level=None) as db:
                            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                            await check_ours(db, self.path)
                            await db.backup(dest)
                    except sqlite3.DatabaseError as err:
                        named = unusable_from(err, self.path)
                        if named is None:
                            raise
                        raise named from err
            partial.replace(target)
        finally:
            partial.unlink(missing_ok=True)

    async def close(self) -> None:
        async with self._lock:
            if self.writer is not None:
                writer, self.writer = self.writer, None
                await writer.close()  # the writes already queued are made first
            if self._reader is not None:
                self._reader.conn.close()
                self._reader = None
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()
            self.cache = RecordCache()

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[LoopReader]:
        # No lock: this connection only reads, one statement at a time, never inside a transaction.
        if self._reader is None:
            raise RuntimeError("SqliteStore is not open; await store.open() first")
        yield self._reader

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` (synchronous, given the writer's connection) inside the next shared transaction,
        in its own savepoint: its error undoes only its own statements. Answered after COMMIT."""
        if self.writer is None:
            raise RuntimeError("SqliteStore is not open; await store.open() first")
        return await self.writer.write(work)

    async def _migrate(self) -> None:
        # Checking and applying happen in one IMMEDIATE transaction, so two processes starting
        # together cannot both apply the same migration.
        now = self._clock()

        def work(db: sqlite3.Connection) -> None:
            db.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                       "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
            applied = {row[0] for row in db.execute("SELECT version FROM schema_migrations")}
            for number, name, sql in migrations():
                if number in applied:
                    continue
                for statement in split_statements(sql):
                    db.execute(statement)
                db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)", (number, name, now))

        await self._write(work)

    @staticmethod
    def _chat_taken(db: sqlite3.Connection, rec: TableRecord) -> bool:
        return db.execute(f"SELECT 1 FROM game_tables WHERE {_CHAT_WHERE} AND id != ?",
                          (*chat_key(rec), rec.id)).fetchone() is not None

    async def create_table(self, rec: TableRecord, key: str | None = None,
                           reply: dict[str, Any] | None = None) -> None:
        row = table_row(rec)

        def work(db: sqlite3.Connection) -> None:
            self._check_key(db, key)
            if db.execute("SELECT 1 FROM game_tables WHERE id = ?", (rec.id,)).fetchone() is not None:
                raise TableExists(f"table {rec.id!r} already exists")
            if rec.status in ACTIVE_STATUSES and self._chat_taken(db, rec):
                raise TableExists(f"chat {chat_key(rec)} already has an active table")
            db.execute(insert_sql("game_tables", row), tuple(row.values()))
            self._record_key(db, key, rec, rec.version, reply)

        await self._write(work)
        self.cache.put(rec)

    @staticmethod
    def _key_row(db: sqlite3.Connection, key: str) -> ActionKeyRecord | None:
        found = db.execute("SELECT * FROM action_keys WHERE key = ?", (key,)).fetchone()
        return ActionKeyRecord.model_validate(from_row(found, ("reply",))) if found is not None else None

    def _check_key(self, db: sqlite3.Connection, key: str | None) -> None:
        if key is not None and (found := self._key_row(db, key)) is not None:
            raise DuplicateAction(found)

    @staticmethod
    def _record_key(db: sqlite3.Connection, key: str | None, rec: TableRecord, version: int,
                    reply: dict[str, Any] | None) -> None:
        # Stamped with the change's own time (the caller's clock), which is what pruning compares.
        if key is not None:
            db.execute("INSERT INTO action_keys VALUES (?, ?, ?, ?, ?)",
                       (key, rec.id, version, json.dumps(reply or {}, ensure_ascii=False), rec.updated_at))

    async def action_key(self, key: str) -> ActionKeyRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall("SELECT * FROM action_keys WHERE key = ?", (key,)))
        return ActionKeyRecord.model_validate(from_row(rows[0], ("reply",))) if rows else None

    async def prune_action_keys(self, before: float) -> int:
        return await self._write(lambda db: db.execute("DELETE FROM action_keys WHERE at < ?", (before,)).rowcount)

    async def get_table(self, table_id: str) -> TableRecord | None:
        async with self._read() as db:
            if self.cache.version(table_id) is not None:
                # The version guard: one indexed lookup instead of reading and decoding the row.
                found = list(await db.execute_fetchall("SELECT version FROM game_tables WHERE id = ?", (table_id,)))
                if found and (hit := self.cache.get(table_id, found[0][0])) is not None:
                    return hit
            rows = list(await db.execute_fetchall("SELECT * FROM game_tables WHERE id = ?", (table_id,)))
        return self._keep(table_from_row(rows[0])) if rows else None

    def _keep(self, rec: TableRecord) -> TableRecord:
        """Cache a record just read; the cache keeps its text, so the caller may keep the object."""
        self.cache.put(rec)
        return rec

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(f"SELECT * FROM game_tables WHERE {_CHAT_WHERE}",
                                                  (platform, chat_id, topic_id or "")))
        return table_from_row(rows[0]) if rows else None

    async def count_tables(self, statuses: Sequence[str]) -> dict[str, int]:
        counts = dict.fromkeys(statuses, 0)
        if statuses:
            marks = ", ".join("?" * len(statuses))
            async with self._read() as db:
                rows = await db.execute_fetchall(
                    f"SELECT status, count(*) FROM game_tables WHERE status IN ({marks}) GROUP BY status",
                    tuple(statuses))
            counts.update({r[0]: r[1] for r in rows})
        return counts

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT * FROM game_tables WHERE status IN ({marks}) ORDER BY created_at, id",
                tuple(statuses))
        # Kept as read: a resume reads every one of them again right after.
        return [self._keep(table_from_row(r)) for r in rows]

    async def due_tables(self, now: float) -> list[str]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT id FROM game_tables WHERE status = 'playing' AND deadline <= ? ORDER BY deadline, id",
                (now,))
        return [r[0] for r in rows]

    async def commit(
        self,
        rec: TableRecord,
        expected_version: int,
        entries: Sequence[LogEntry] = (),
        result: MatchResultRecord | None = None,
        key: str | None = None,
        reply: dict[str, Any] | None = None,
        claim: ClaimWrite | None = None,
    ) -> TableRecord:
        # Encoded here, on the loop, so the writer thread only runs SQL; the row's created_at and
        # log_seq are filled in inside the transaction from what is stored.
        row = table_row(rec)
        result_row = to_row(result.model_dump(mode="json"), RESULT_JSON) if result is not None else None
        log_rows = [(e.table_id, e.seq, e.kind, e.seat, e.text, e.at) for e in entries]

        def work(db: sqlite3.Connection) -> tuple[float, int]:
            self._check_key(db, key)  # first: a repeat is not a stale writer
            found = db.execute("SELECT version, log_seq, created_at FROM game_tables WHERE id = ?",
                               (rec.id,)).fetchone()
            if found is None:
                raise TableNotFound(rec.id)
            version, log_seq, created_at = found
            if version != expected_version:
                raise VersionConflict(rec.id, expected_version, version)
            new_seq = next_log_seq(rec.id, log_seq, entries)
            if rec.status in ACTIVE_STATUSES and self._chat_taken(db, rec):
                raise TableExists(f"chat {chat_key(rec)} already has an active table")
            db.executemany("INSERT INTO table_log VALUES (?, ?, ?, ?, ?, ?)", log_rows)
            written = {**row, "version": expected_version + 1, "created_at": created_at, "log_seq": new_seq}
            assignments = ", ".join(f"{k} = :{k}" for k in written if k != "id")
            db.execute(f"UPDATE game_tables SET {assignments} WHERE id = :id", written)
            if result_row is not None:
                self._insert_result(db, result_row)
            self._record_key(db, key, rec, expected_version + 1, reply)
            if claim is not None:
                write_claim(db, rec.id, claim)
            return created_at, new_seq

        created_at, new_seq = await self._write(work)
        # The record as written. Not parsed back from the text the cache keeps: its JSON parts are
        # the caller's own (a state round-trips JSON exactly, the engine contract), and a parse
        # was a tenth of the loop's time at saturation. The cache's copy is text, so the caller
        # may go on changing this one.
        stored = rec.model_copy(update={"version": expected_version + 1, "created_at": created_at,
                                        "log_seq": new_seq})
        self.cache.put(stored)
        return stored

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM table_log WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq))
        return [LogEntry.model_validate(dict(r)) for r in rows]

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        now = self._clock()
        await self._write(lambda db: db.execute(
            "INSERT INTO players VALUES (?, ?, ?, ?) ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name",
            (platform, user_id, name, now)))

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT * FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)))
        return PlayerRecord.model_validate(dict(rows[0])) if rows else None

    @staticmethod
    def _insert_result(db: sqlite3.Connection, row: dict[str, Any]) -> bool:
        sql = insert_sql("match_results", row) + " ON CONFLICT (table_id) DO NOTHING"
        # The primary key makes this exactly-once even across processes; DO NOTHING reports it as rowcount 0.
        return db.execute(sql, tuple(row.values())).rowcount == 1

    async def record_result(self, rec: MatchResultRecord) -> bool:
        row = to_row(rec.model_dump(mode="json"), RESULT_JSON)
        return await self._write(lambda db: self._insert_result(db, row))

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_results WHERE platform = ? AND chat_id = ? AND (? IS NULL OR game = ?) "
                "ORDER BY finished_at DESC, rowid DESC LIMIT ?",
                (platform, chat_id, game, game, max(limit, 0)))
        return [MatchResultRecord.model_validate(from_row(r, RESULT_JSON)) for r in rows]
