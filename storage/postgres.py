"""The Store on PostgreSQL (asyncpg, a connection pool), for deployments that outgrow one machine:
any number of bot processes share one database. Same contract as SqliteStore and MemoryStore
(tests/storage/); numbered migrations of its own in storage/migrations_pg/. Table writes (new
tables, commits) that arrive together share one transaction, a savepoint each
(storage/postgres_writer.py), and the last committed record of each table in play is kept and
served while its stored version is unchanged (storage/record_cache.py), as SqliteStore does.

Where SQLite serialises writers with BEGIN IMMEDIATE, this store locks the rows a change depends on
(`SELECT … FOR UPDATE`) and lets unique indexes settle races (one active table per chat, one result
per table, one change per idempotency key), so concurrent writers on other tables never wait.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

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
from storage.postgres_side import PostgresSideTables, count, insert_sql, result_from_row
from storage.postgres_writer import PgGroupWriter
from storage.record_cache import RecordCache
from storage.sqlite import DatabaseUnusable

T = TypeVar("T")

MIGRATIONS_DIR = Path(__file__).parent / "migrations_pg"
# Any constant would do: it only has to be the same in every process migrating this database.
MIGRATION_LOCK = 0x52554D4D59  # "RUMMY"
CONNECT_TIMEOUT_S = 10.0
POOL_MAX = 10

_TABLE_JSON = ("options", "deck", "seats", "state", "meta")
_RESULT_JSON = ("seats", "result")
_ACTIVE_IN = "status IN ('lobby', 'playing')"  # spelled as in the partial unique index


class PostgresUnusable(DatabaseUnusable):
    """The PostgreSQL database cannot serve: `reason` is "unreachable", "auth" (the server refused
    the user or password), "no_database", "foreign" or "newer". `path` is the URL without its
    password, `where` its host:port; nothing here ever holds the password."""

    def __init__(self, url: str, reason: str, detail: str = "") -> None:
        super().__init__(display_url(url), reason, detail)
        parts = urlsplit(url)
        self.where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        self.user = parts.username or ""
        self.database = parts.path.lstrip("/") or self.user


def display_url(url: str) -> str:
    """The URL with its password removed: safe to print and to log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return parts._replace(netloc=f"{user}@{netloc}").geturl()


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql in migrations_pg/, in order."""
    found = sorted((int(p.name.split("_", 1)[0]), p.name, p.read_text("utf-8"))
                   for p in MIGRATIONS_DIR.glob("*.sql"))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number in {MIGRATIONS_DIR}")
    return found


def _to_row(data: dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    # The same JSON text SQLite stores; `json` columns keep it as written (see 001_init.sql).
    return {k: json.dumps(v, ensure_ascii=False) if k in json_fields and v is not None else v
            for k, v in data.items()}


def _from_row(row: asyncpg.Record, json_fields: Sequence[str]) -> dict[str, Any]:
    return {k: json.loads(v) if k in json_fields and v is not None else v for k, v in row.items()}


def _table(row: asyncpg.Record) -> TableRecord:
    return TableRecord.model_validate(_from_row(row, _TABLE_JSON))




@functools.cache
def _commit_sql(names: tuple[str, ...]) -> str:
    """A commit's writes as one statement: the log entries (arrays, unnested), the idempotency key
    (when there is one) and the row update. $1 is the id, then the row's columns `names`, then the
    six log columns, then key, version, reply and time of the key, then the claim's owner and until
    (`ClaimWrite`: both null for none, until null to drop the owner's claim)."""
    assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(names, start=2))
    n = len(names) + 2
    return (f"WITH log AS (INSERT INTO table_log SELECT * FROM unnest(${n}::text[], ${n + 1}::int[], "
            f"${n + 2}::text[], ${n + 3}::int[], ${n + 4}::text[], ${n + 5}::float8[])), "
            f"keyed AS (INSERT INTO action_keys SELECT ${n + 6}::text, $1, ${n + 7}::int, ${n + 8}::json, "
            f"${n + 9}::float8 WHERE ${n + 6}::text IS NOT NULL), "
            f"claimed AS (INSERT INTO table_claims SELECT $1, ${n + 10}::text, ${n + 11}::float8 "
            f"WHERE ${n + 11}::float8 IS NOT NULL ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
            f"until = EXCLUDED.until), "
            f"released AS (DELETE FROM table_claims WHERE table_id = $1 AND owner = ${n + 10}::text "
            f"AND ${n + 11}::float8 IS NULL) "
            f"UPDATE game_tables SET {assignments} WHERE id = $1")



class PostgresStore(PostgresSideTables, PostgresClaims):
    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self._clock = clock
        self._pool: asyncpg.Pool | None = None
        self.writer: PgGroupWriter | None = None
        self.cache = RecordCache()

    def __repr__(self) -> str:  # never the password
        return f"PostgresStore({display_url(self.url)!r})"

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            pool = await asyncpg.create_pool(self.url, min_size=1, max_size=POOL_MAX, timeout=CONNECT_TIMEOUT_S)
        except asyncpg.InvalidCatalogNameError as err:
            raise PostgresUnusable(self.url, "no_database", str(err)) from None
        except (asyncpg.InvalidAuthorizationSpecificationError, asyncpg.InvalidPasswordError) as err:
            raise PostgresUnusable(self.url, "auth", str(err)) from None
        except (OSError, TimeoutError, asyncpg.CannotConnectNowError) as err:
            raise PostgresUnusable(self.url, "unreachable", str(err) or type(err).__name__) from None
        try:
            await self._migrate(pool)
        except BaseException:
            await pool.close()
            raise
        self._pool = pool
        self.writer = PgGroupWriter(pool)
        self.writer.open()

    async def close(self) -> None:
        if self.writer is not None:
            writer, self.writer = self.writer, None
            await writer.close()  # the writes already queued are made first
        if self._pool is not None:
            pool, self._pool = self._pool, None
            await pool.close()
        self.cache = RecordCache()

    async def _migrate(self, pool: asyncpg.Pool) -> None:
        # One transaction under an advisory lock: two processes starting together apply each
        # migration once, and a failing migration leaves nothing behind (DDL is transactional here).
        async with pool.acquire() as db, db.transaction():
            await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await self._check_ours(db)
            await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                             "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
            applied = {r["version"] for r in await db.fetch("SELECT version FROM schema_migrations")}
            for number, name, sql in migrations():
                if number in applied:
                    continue
                await db.execute(sql)  # no arguments: the simple protocol runs the whole script
                await db.execute("INSERT INTO schema_migrations VALUES ($1, $2, $3)", number, name, self._clock())

    async def _check_ours(self, db: asyncpg.Connection) -> None:
        """Refuse, before anything is written, a schema holding another program's tables (no
        schema_migrations of ours) or migrations this version does not know (a newer Rummy Club)."""
        tables = {r["tablename"] for r in await db.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
        if not tables:
            return  # a new (or empty) database: ours to set up
        if "schema_migrations" not in tables:
            raise PostgresUnusable(self.url, "foreign", ", ".join(sorted(tables)[:5]))
        columns = {r["column_name"] for r in await db.fetch(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'schema_migrations'")}
        if not {"version", "name", "applied_at"} <= columns:
            raise PostgresUnusable(self.url, "foreign", "schema_migrations")
        ours = {number: name for number, name, _ in migrations()}
        for version, name in await db.fetch("SELECT version, name FROM schema_migrations"):
            if version not in ours:
                raise PostgresUnusable(self.url, "newer", f"migration {name}")
            if ours[version] != name:
                raise PostgresUnusable(self.url, "foreign", f"migration {version} is {name!r}, not {ours[version]!r}")

    async def schema_version(self) -> tuple[int, str]:
        """The last migration applied: (number, file name); (0, "") before any."""
        async with self._conn() as db:
            row = await db.fetchrow("SELECT version, name FROM schema_migrations ORDER BY version DESC LIMIT 1")
        return (row["version"], row["name"]) if row else (0, "")

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

    async def _grouped(self, work: Callable[[asyncpg.Connection], Awaitable[T]]) -> T:
        """`work` in the next shared transaction (its own savepoint), answered after COMMIT."""
        if self.writer is None:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        return await self.writer.write(work)

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
        return ActionKeyRecord.model_validate(_from_row(row, ("reply",))) if row else None

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
        async with self._conn() as db:
            if self.cache.version(table_id) is not None:
                # The version guard: one indexed lookup instead of reading and decoding the row.
                version = await db.fetchval("SELECT version FROM game_tables WHERE id = $1", table_id)
                if version is not None and (hit := self.cache.get(table_id, version)) is not None:
                    return hit
            row = await db.fetchrow("SELECT * FROM game_tables WHERE id = $1", table_id)
        if row is None:
            return None
        rec = _table(row)
        self.cache.put(rec)  # the cache keeps its text, so the caller may keep the object
        return rec

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        async with self._conn() as db:
            row = await db.fetchrow(
                "SELECT * FROM game_tables WHERE platform = $1 AND chat_id = $2 AND COALESCE(topic_id, '') = $3 "
                f"AND {_ACTIVE_IN}", platform, chat_id, topic_id or "")
        return _table(row) if row else None

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT * FROM game_tables WHERE status = ANY($1::text[]) ORDER BY created_at, id",
                                  list(statuses))
        records = [_table(r) for r in rows]
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
        async def work(db: asyncpg.Connection) -> TableRecord:
            # The row lock first: a concurrent writer of this table (or of this key) has then
            # committed or rolled back, so the checks below see what it wrote.
            found = await db.fetchrow(
                "SELECT version, log_seq, created_at FROM game_tables WHERE id = $1 FOR UPDATE", rec.id)
            await self._check_key(db, key)  # before the version: a repeat is not a stale writer
            if found is None:
                raise TableNotFound(rec.id)
            if found["version"] != expected_version:
                raise VersionConflict(rec.id, expected_version, found["version"])
            stored = rec.model_copy(update={
                "version": expected_version + 1, "created_at": found["created_at"],
                "log_seq": next_log_seq(rec.id, found["log_seq"], entries)})
            row = table_row(stored)
            names = [k for k in row if k != "id"]
            # The log entries, the row and the key in one statement: one round trip, not three.
            await db.execute(_commit_sql(tuple(names)), rec.id, *(row[k] for k in names),
                             [e.table_id for e in entries], [e.seq for e in entries], [e.kind for e in entries],
                             [e.seat for e in entries], [e.text for e in entries], [e.at for e in entries],
                             key, stored.version, json.dumps(reply or {}, ensure_ascii=False), rec.updated_at,
                             claim and claim.owner, claim and claim.until)
            if result is not None:
                await self._insert_result(db, result)
            return stored

        try:
            stored = await self._grouped(work)
        except asyncpg.UniqueViolationError as err:
            raise await self._clash(err, rec, key) from None
        except asyncpg.DeadlockDetectedError:
            # Our batch and another process's locked the same tables in opposite orders, and this
            # write was the one rolled back: a lost race like any other, answered by a retry.
            raise VersionConflict(rec.id, expected_version, -1) from None
        # The record as written, parsed once from its JSON text: what get_table would return.
        return TableRecord.model_validate_json(self.cache.put(stored))

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
        row = _to_row(rec.model_dump(mode="json"), _RESULT_JSON)
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
