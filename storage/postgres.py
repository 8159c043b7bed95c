"""The Store on PostgreSQL (asyncpg, a connection pool), for deployments that outgrow one machine:
any number of bot processes share one database. Same contract as SqliteStore and MemoryStore
(tests/storage/); numbered migrations of its own in storage/migrations_pg/. Table writes (new
tables, commits) that arrive together share one transaction (storage/postgres_writer.py), and the
last committed record of each table in play is kept and served while its stored version is
unchanged (storage/record_cache.py), as SqliteStore does. The schema and its migrations are in
storage/postgres_schema.py, the row codec and the commit statement in storage/postgres_rows.py.

Where SQLite serialises writers with BEGIN IMMEDIATE, this store locks the rows a change depends on
(`SELECT … FOR UPDATE`) and lets unique indexes settle races (one active table per chat, one result
per table, one change per idempotency key), so concurrent writers on other tables never wait.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, NoReturn, TypeVar

import asyncpg

from storage.models import (
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
from storage.postgres_claims import PostgresClaims
from storage.postgres_liveness import Liveness, gone
from storage.postgres_rows import RESULT_JSON, commit_columns, commit_sql, from_row, table_from_row, to_row
from storage.postgres_schema import PostgresUnusable, display_url, migrate
from storage.postgres_side import PostgresSideTables, count, insert_sql, result_from_row
from storage.postgres_versions import VersionReads
from storage.postgres_writer import IN_FLIGHT, PgGroupWriter, Refused
from storage.record_cache import RecordCache
from storage.unavailable import OutageInOneLine

__all__ = ["PostgresStore", "PostgresUnusable", "display_url"]

T = TypeVar("T")

CONNECT_TIMEOUT_S = 10.0
# The pool's (fewest kept open, most at once): PG_POOL_MIN / PG_POOL_MAX. Each process also holds two
# connections of its own (the liveness lock, the change feed's LISTEN), so N processes need
# N * (max + 2) of the server's max_connections.
DEFAULT_POOL = (1, 10)

_ACTIVE_IN = "status IN ('lobby', 'playing')"  # spelled as in the partial unique index

# asyncpg's pool logs each failed reconnect with a traceback: one line each is enough (storage/unavailable.py).
logging.getLogger("asyncpg.pool").addFilter(OutageInOneLine())


async def keep_session(_db: asyncpg.Connection) -> None:
    """The pool's reset on release, in place of asyncpg's default query (RESET ALL, CLOSE ALL,
    UNLISTEN *, pg_advisory_unlock_all()): a round trip on every release, about one per action, for
    session state this store never leaves behind. Its connections set nothing (search_path comes in
    the URL, as a startup setting), open no cursor outside a transaction, LISTEN only on the feed's
    own connection and take advisory locks for the transaction only. A transaction left open is
    still rolled back: asyncpg does that before calling this."""


class PostgresStore(PostgresSideTables, PostgresClaims):
    def __init__(self, url: str, clock: Callable[[], float] = time.time, pool: tuple[int, int] = DEFAULT_POOL) -> None:
        if not 1 <= pool[0] <= pool[1] or pool[1] < 2:
            raise ValueError(f"pool {pool}: at least 1 connection kept, at most at least 2 and no fewer than kept")
        self.url = url
        self.pool_size = pool
        self._clock = clock
        self._pool: asyncpg.Pool | None = None
        self.writer: PgGroupWriter | None = None
        self.versions: VersionReads | None = None
        self.cache = RecordCache()
        self.liveness = Liveness(url)

    def __repr__(self) -> str:  # never the password
        return f"PostgresStore({display_url(self.url)!r})"

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(self.url, min_size=self.pool_size[0], max_size=self.pool_size[1],
                                             timeout=CONNECT_TIMEOUT_S, reset=keep_session)
        except asyncpg.InvalidCatalogNameError as err:
            raise PostgresUnusable(self.url, "no_database", str(err)) from None
        except (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError) as err:
            raise PostgresUnusable(self.url, "auth", str(err)) from None
        except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as err:
            raise PostgresUnusable(self.url, "unreachable", str(err) or type(err).__name__) from None
        try:
            await migrate(pool, self.url, self._clock)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        # Batches in flight leave a connection of the pool for reads.
        self.writer = PgGroupWriter(pool, in_flight=min(IN_FLIGHT, self.pool_size[1] - 1))
        self.writer.open()
        self.versions = VersionReads(pool)

    async def close(self) -> None:
        await self.liveness.close()
        if self.writer is not None:
            writer, self.writer = self.writer, None
            await writer.close()  # the writes already queued are made first
        if self.versions is not None:
            versions, self.versions = self.versions, None
            await versions.close()
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        self.cache = RecordCache()

    async def schema_version(self) -> tuple[int, str]:
        """The last migration applied: (number, file name); (0, "") before any."""
        async with self._conn() as db:
            row = await db.fetchrow("SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1")
        return (row["version"], row["name"]) if row else (0, "")

    async def hold_liveness(self, owner: str) -> None:
        if self._pool is None:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        await self.liveness.hold(owner)

    async def gone(self, owners: Sequence[str]) -> list[str]:
        if not owners:
            return []
        async with self._conn() as db:
            return await gone(db, owners)

    @asynccontextmanager
    async def _conn(self) -> AsyncIterator[asyncpg.Connection]:
        if self._pool is None:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        async with self._pool.acquire() as db:
            yield db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[asyncpg.Connection]:
        async with self._conn() as db, db.transaction():
            yield db

    async def _grouped(self, work: Callable[[asyncpg.Connection], Awaitable[T]], announce: str | None = None) -> T:
        """`work` in the next shared transaction (its own savepoint), answered after COMMIT; the change
        feed is told of `announce` (a table whose version moved) with the batch's other tables."""
        if self.writer is None:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        return await self.writer.write(work, announce)

    # ---- tables ----------------------------------------------------------------------------------

    async def create_table(self, rec: TableRecord, key: str | None = None,
                           reply: dict[str, Any] | None = None) -> None:
        row = table_row(rec)

        async def work(db: asyncpg.Connection) -> None:
            await self._check_key(db, key)
            await db.execute(insert_sql("game_tables", row), *row.values())
            await self._record_key(db, key, rec, rec.version, reply)

        try:
            await self._grouped(work)
        except asyncpg.UniqueViolationError as err:
            raise await self._clash(err, rec, key) from None
        self.cache.put(rec)

    async def _clash(self, err: asyncpg.UniqueViolationError, rec: TableRecord, key: str | None) -> Exception:
        """What a unique index refused, as the contract names it. Read after the rollback: the
        other transaction that won the race has committed by then."""
        constraint = err.constraint_name
        if constraint == "game_tables_pkey":
            return TableExists(f"table {rec.id!r} already exists")
        if constraint == "game_tables_active_chat":
            return TableExists(f"chat {chat_key(rec)} already has an active table")
        if constraint == "action_keys_pkey" and key is not None:
            async with self._conn() as db:
                found = await self._key_row(db, key)
            if found is not None:
                return DuplicateAction(found)
        return err

    @staticmethod
    async def _key_row(db: asyncpg.Connection, key: str) -> ActionKeyRecord | None:
        row = await db.fetchrow("SELECT * FROM action_keys WHERE key = $1", key)
        return ActionKeyRecord.model_validate(from_row(row, ("reply",))) if row else None

    async def _check_key(self, db: asyncpg.Connection, key: str | None) -> None:
        if key is not None and (found := await self._key_row(db, key)) is not None:
            raise DuplicateAction(found)

    @staticmethod
    async def _record_key(db: asyncpg.Connection, key: str | None, rec: TableRecord, version: int,
                          reply: dict[str, Any] | None) -> None:
        # Stamped with the change's own time (the caller's clock), which is what pruning compares.
        if key is not None:
            await db.execute("INSERT INTO action_keys VALUES ($1, $2, $3, $4, $5)",
                             key, rec.id, version, json.dumps(reply or {}, ensure_ascii=False), rec.updated_at)

    async def action_key(self, key: str) -> ActionKeyRecord | None:
        async with self._conn() as db:
            return await self._key_row(db, key)

    async def prune_action_keys(self, before: float) -> int:
        async with self._conn() as db:
            return count(await db.execute("DELETE FROM action_keys WHERE at < $1", before))

    async def get_table(self, table_id: str) -> TableRecord | None:
        if self.cache.version(table_id) is not None and self.versions is not None:
            # The version guard: an indexed lookup (shared with the tables asked about meanwhile)
            # instead of reading and decoding the row.
            version = await self.versions.version(table_id)
            if version is not None and (hit := self.cache.get(table_id, version)) is not None:
                return hit
        async with self._conn() as db:
            row = await db.fetchrow("SELECT * FROM game_tables WHERE id = $1", table_id)
        if row is None:
            return None
        rec = table_from_row(row)
        self.cache.put(rec)  # the cache keeps its text, so the caller may keep the object
        return rec

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        async with self._conn() as db:
            row = await db.fetchrow(
                "SELECT * FROM game_tables WHERE platform = $1 AND chat_id = $2 AND COALESCE(topic_id, '') = $3 "
                f"AND {_ACTIVE_IN}", platform, chat_id, topic_id or "")
        return table_from_row(row) if row else None

    async def count_tables(self, statuses: Sequence[str]) -> dict[str, int]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT status, count(*) AS n FROM game_tables WHERE status = ANY($1::text[]) "
                                  "GROUP BY status", list(statuses))
        return {**dict.fromkeys(statuses, 0), **{r["status"]: r["n"] for r in rows}}

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT * FROM game_tables WHERE status = ANY($1::text[]) ORDER BY created_at, id",
                                  list(statuses))
        records = [table_from_row(r) for r in rows]
        for rec in records:
            self.cache.put(rec)  # kept as read: a resume reads every one of them again right after
        return records

    async def due_tables(self, now: float) -> list[str]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT id FROM game_tables WHERE status = 'playing' AND deadline <= $1 "
                                  "ORDER BY deadline, id", now)
        return [r["id"] for r in rows]

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
        row = table_row(rec)
        names = commit_columns(row)
        try:  # the entries among themselves: a table's, numbered densely (against the log: in SQL)
            base = None if not entries else entries[0].seq - 1
            next_log_seq(rec.id, base or 0, entries)
        except ValueError:
            base = -1  # no log_seq matches: refused, the checks below say why

        async def work(db: asyncpg.Connection) -> TableRecord:
            # The guarded update and everything else in one statement, one round trip: the row's
            # lock is taken by the UPDATE (a concurrent writer of this table has then committed or
            # rolled back, and the guard is checked again on its row).
            found = await db.fetchrow(
                commit_sql(tuple(names)), rec.id, *(row[k] for k in names), expected_version, len(entries), base,
                [e.table_id for e in entries], [e.seq for e in entries], [e.kind for e in entries],
                [e.seat for e in entries], [e.text for e in entries], [e.at for e in entries],
                key, json.dumps(reply or {}, ensure_ascii=False), rec.updated_at,
                claim and claim.owner, claim and claim.until)
            if found is None:
                await self._refused(db, rec.id, expected_version, entries, key)
            stored = rec.model_copy(update={
                "version": expected_version + 1, "created_at": found["created_at"], "log_seq": found["log_seq"]})
            if result is not None:
                await self._insert_result(db, result)
            return stored

        try:
            stored = await self._grouped(work, announce=rec.id)
        except asyncpg.UniqueViolationError as err:
            raise await self._clash(err, rec, key) from None
        except asyncpg.DeadlockDetectedError:
            # Our batch and another process's locked the same tables in opposite orders, and this
            # write was the one rolled back: a lost race like any other, answered by a retry.
            raise VersionConflict(rec.id, expected_version, -1) from None
        # The record as written, parsed once from its JSON text: what get_table would return.
        return TableRecord.model_validate_json(self.cache.put(stored))

    async def _refused(self, db: asyncpg.Connection, table_id: str, expected_version: int,
                       entries: Sequence[LogEntry], key: str | None) -> NoReturn:
        """Why a commit's guard refused, in the order the contract checks: read only, as the guard
        wrote nothing, so the batch goes on without a savepoint (`Refused`)."""
        try:
            await self._check_key(db, key)  # before the version: a repeat is not a stale writer
            found = await db.fetchrow("SELECT version, log_seq FROM game_tables WHERE id = $1", table_id)
            if found is None:
                raise TableNotFound(table_id)
            if found["version"] != expected_version:
                raise VersionConflict(table_id, expected_version, found["version"])
            next_log_seq(table_id, found["log_seq"], entries)  # the ValueError of entries not continuing the log
            # Not reached: the guard refuses only a moved version or such entries, and a version never comes back.
            raise VersionConflict(table_id, expected_version, found["version"])
        except (DuplicateAction, TableNotFound, VersionConflict, ValueError) as err:
            raise Refused(err) from err

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT * FROM table_log WHERE table_id = $1 AND seq > $2 ORDER BY seq",
                                  table_id, after_seq)
        return [LogEntry.model_validate(dict(r)) for r in rows]

    # ---- players and results ---------------------------------------------------------------------

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        async with self._conn() as db:
            await db.execute("INSERT INTO players VALUES ($1, $2, $3, $4) "
                             "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name",
                             platform, user_id, name, self._clock())

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None:
        async with self._conn() as db:
            row = await db.fetchrow("SELECT * FROM players WHERE platform = $1 AND user_id = $2", platform, user_id)
        return PlayerRecord.model_validate(dict(row)) if row else None

    @staticmethod
    async def _insert_result(db: asyncpg.Connection, rec: MatchResultRecord) -> bool:
        row = to_row(rec.model_dump(mode="json"), RESULT_JSON)
        # The primary key makes this exactly-once across processes: a concurrent insert waits, then does nothing.
        status = await db.execute(insert_sql("match_results", row) + " ON CONFLICT (table_id) DO NOTHING",
                                  *row.values())
        return count(status) == 1

    async def record_result(self, rec: MatchResultRecord) -> bool:
        async with self._conn() as db:
            return await self._insert_result(db, rec)

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        async with self._conn() as db:
            rows = await db.fetch(
                "SELECT * FROM match_results WHERE platform = $1 AND chat_id = $2 AND ($3::text IS NULL OR game = $3) "
                "ORDER BY finished_at DESC, recorded DESC LIMIT $4", platform, chat_id, game, max(limit, 0))
        return [result_from_row(r) for r in rows]
