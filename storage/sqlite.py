"""The default Store: one SQLite file in WAL mode, shared safely by several bot processes."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

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
    TableExists,
    TableNotFound,
    TableRecord,
    VersionConflict,
    chat_key,
    next_log_seq,
)
from storage.ports import RateFn
from storage.sqlite_claims import SqliteClaims

MIGRATIONS_DIR = Path(__file__).parent / "migrations"
BUSY_TIMEOUT_MS = 5000  # how long a writer waits for another process's transaction before failing

_TABLE_JSON = ("options", "deck", "seats", "state", "meta")
_RESULT_JSON = ("seats", "result")
_ACTIVE_IN = "status IN ('lobby', 'playing')"  # spelled as in the partial index so SQLite uses it
_CHAT_WHERE = f"platform = ? AND chat_id = ? AND COALESCE(topic_id, '') = ? AND {_ACTIVE_IN}"


def _to_row(data: dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    # Dumping in "json" mode first makes SQLite store exactly what the memory backend keeps.
    return {k: json.dumps(v, ensure_ascii=False) if k in json_fields and v is not None else v
            for k, v in data.items()}


def _from_row(row: sqlite3.Row | dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    return {k: json.loads(v) if k in json_fields and v is not None else v for k, v in dict(row).items()}


def _insert_sql(table: str, row: dict[str, Any]) -> str:
    return f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"


def _table(row: sqlite3.Row | dict[str, Any]) -> TableRecord:
    return TableRecord.model_validate(_from_row(row, _TABLE_JSON))


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql, in order."""
    found = sorted((int(p.name.split("_", 1)[0]), p.name, p.read_text("utf-8"))
                   for p in MIGRATIONS_DIR.glob("*.sql"))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number in {MIGRATIONS_DIR}")
    return found


def split_statements(script: str) -> list[str]:
    """Statements of a migration script, so they can run one by one inside our own transaction
    (executescript would commit any open transaction first)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if any(ln.strip() and not ln.strip().startswith("--") for ln in pending.splitlines()):
        raise ValueError(f"migration ends inside a statement: {pending.strip()[:80]!r}")
    return statements


def board_query(
    platform: str, scope: str, game: str, kind: str, since: float | None, limit: int
) -> tuple[str, tuple[Any, ...]]:
    """The SQL behind `board` (apart so a test can EXPLAIN it): no full scan for one chat's board."""
    if since is None:
        # The top of one (platform, scope, game, kind) range of ratings_board, already in order.
        return ("SELECT subject, name, rating, matches, wins, points FROM ratings "
                "WHERE platform = ? AND scope = ? AND game = ? AND kind = ? "
                "ORDER BY rating DESC, subject LIMIT ?", (platform, scope, game, kind, max(limit, 0)))
    # One index range of this chat's (or, globally, this game's) matches in the period, grouped by
    # player or team, then each group's current rating by primary key.
    column = "'p:' || user_id" if kind == "player" else "team"
    if scope == GLOBAL_SCOPE:
        where = "platform = ? AND game = ? AND finished_at >= ? AND kind = 'human'"
        args: tuple[Any, ...] = (platform, game, since)
    else:
        where = "platform = ? AND chat_id = ? AND game = ? AND finished_at >= ? AND kind = 'human'"
        args = (platform, scope, game, since)
    # A team (two humans) has two rows per match carrying the same figures: count it once.
    per = "1" if kind == "player" else "2"
    if kind == "team":
        where += " AND team IS NOT NULL"
    sql = (f"SELECT g.subject, COALESCE(r.name, g.name) AS name, r.rating, g.matches, g.wins, g.points "
           f"FROM (SELECT {column} AS subject, MAX(name) AS name, COUNT(*) / {per} AS matches, "
           f"SUM(won) / {per} AS wins, SUM(score) / {per} AS points "
           f"FROM match_players WHERE {where} GROUP BY subject) AS g "
           f"LEFT JOIN ratings r ON r.platform = ? AND r.scope = ? AND r.game = ? AND r.subject = g.subject "
           f"ORDER BY r.rating IS NULL, r.rating DESC, g.wins DESC, g.subject LIMIT ?")
    return sql, (*args, platform, scope, game, max(limit, 0))


class DatabaseUnusable(Exception):
    """The file cannot serve as the database. `reason` says why, for the caller to explain:
    "directory", "missing", "read_only", "not_sqlite", "foreign", "newer", "cannot_open" or
    "no_folder" (its folder cannot be created)."""

    def __init__(self, path: str, reason: str, detail: str = "") -> None:
        super().__init__(f"{path}: {reason}{': ' + detail if detail else ''}")
        self.path = path
        self.reason = reason
        self.detail = detail


def check_usable(path: str, *, must_exist: bool = False, writable: bool = True) -> None:
    """Refuse a directory, a missing file (when one must exist) or, unless only read, a file or
    folder we cannot write, before SQLite opens it: SQLite falls back to read-only without a word
    and fails only at the first write, with an error naming neither the file nor the cause. A real
    write attempt, not os.access: for root os.access says yes to everything, yet an immutable file
    (chattr +i) or a read-only mount still refuses."""
    file = Path(path)
    if file.is_dir():
        raise DatabaseUnusable(path, "directory")
    if must_exist and not file.exists():
        raise DatabaseUnusable(path, "missing")
    if not writable:
        return
    if file.exists():
        try:
            with open(file, "r+b"):  # opened for writing, nothing written
                pass
        except OSError as err:
            raise DatabaseUnusable(path, "read_only", "file") from err
    folder = file.parent
    try:
        # WAL keeps two files next to the database (-wal, -shm): the folder must take new files.
        with tempfile.TemporaryFile(dir=folder):
            pass
    except FileNotFoundError as err:
        raise DatabaseUnusable(path, "cannot_open", f"no folder {folder}") from err
    except OSError as err:
        raise DatabaseUnusable(path, "read_only", "folder") from err


async def check_ours(db: aiosqlite.Connection, path: str) -> None:
    """Refuse, before anything is written, a database holding another program's tables (no
    schema_migrations of ours) or migrations this version does not know (a newer Rummy Club)."""
    tables = {r[0] for r in await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
    if not tables:
        return  # a new (or empty) file: ours to set up
    if "schema_migrations" not in tables:
        raise DatabaseUnusable(path, "foreign", ", ".join(sorted(tables)[:5]))
    columns = {r[1] for r in await db.execute_fetchall("PRAGMA table_info(schema_migrations)")}
    if not {"version", "name", "applied_at"} <= columns:  # another tool's schema_migrations
        raise DatabaseUnusable(path, "foreign", "schema_migrations")
    ours = {number: name for number, name, _ in migrations()}
    for version, name in await db.execute_fetchall("SELECT version, name FROM schema_migrations"):
        if version not in ours:
            raise DatabaseUnusable(path, "newer", f"migration {name}")
        if ours[version] != name:
            raise DatabaseUnusable(path, "foreign", f"migration {version} is {name!r}, not {ours[version]!r}")


def unusable_from(err: sqlite3.DatabaseError, path: str) -> DatabaseUnusable | None:
    """The reason behind an error SQLite raised while opening, when it is one we can name."""
    text = str(err).lower()
    if "not a database" in text or "malformed" in text or "encrypted" in text:
        return DatabaseUnusable(path, "not_sqlite", str(err))
    if "readonly" in text or "read-only" in text:
        return DatabaseUnusable(path, "read_only", str(err))
    if "unable to open" in text:
        return DatabaseUnusable(path, "cannot_open", str(err))
    return None


class SqliteStore(SqliteClaims):
    def __init__(self, path: str, clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self._clock = clock
        self._db: aiosqlite.Connection | None = None
        # One connection serves every coroutine of this process; the lock keeps one coroutine's
        # statements from landing inside another's transaction. Other processes are held off by
        # BEGIN IMMEDIATE + busy_timeout, and stale writers by the version check.
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        if self._db is not None:
            return
        check_usable(self.path)
        # isolation_level=None: sqlite3 opens no implicit transactions; we BEGIN/COMMIT ourselves.
        db = await aiosqlite.connect(self.path, isolation_level=None)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            # Before anything writes: switching to WAL alone rewrites the file header.
            await check_ours(db, self.path)
            await db.execute("PRAGMA journal_mode = WAL")
            # NORMAL under WAL survives app crashes; only a power cut may lose the last few commits.
            await db.execute("PRAGMA synchronous = NORMAL")
            await db.execute("PRAGMA foreign_keys = ON")
            self._db = db
            await self._migrate()
        except sqlite3.DatabaseError as err:
            self._db = None
            await db.close()
            named = unusable_from(err, self.path)
            if named is None:
                raise
            raise named from err
        except BaseException:
            self._db = None
            await db.close()
            raise

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
                    async with self._read() as db:
                        await db.backup(dest)
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
            if self._db is not None:
                db, self._db = self._db, None
                await db.close()

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            if self._db is None:
                raise RuntimeError("SqliteStore is not open; await store.open() first")
            yield self._db

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[aiosqlite.Connection]:
        # IMMEDIATE takes the write lock up front, so a read-check-write sequence cannot be
        # overtaken by another process between the check and the write.
        async with self._read() as db:
            await db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                await db.commit()
            except BaseException:
                # Also after a failed COMMIT, or the next BEGIN would find a transaction still open.
                await db.rollback()
                raise

    async def _migrate(self) -> None:
        # Checking and applying happen in one IMMEDIATE transaction, so two processes starting
        # together cannot both apply the same migration.
        async with self._write() as db:
            await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                             "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL)")
            applied = {row[0] for row in await db.execute_fetchall("SELECT version FROM schema_migrations")}
            for number, name, sql in migrations():
                if number in applied:
                    continue
                for statement in split_statements(sql):
                    await db.execute(statement)
                await db.execute("INSERT INTO schema_migrations VALUES (?, ?, ?)",
                                 (number, name, self._clock()))

    async def _chat_taken(self, db: aiosqlite.Connection, rec: TableRecord) -> bool:
        rows = await db.execute_fetchall(f"SELECT 1 FROM game_tables WHERE {_CHAT_WHERE} AND id != ?",
                                         (*chat_key(rec), rec.id))
        return bool(rows)

    async def create_table(self, rec: TableRecord, key: str | None = None,
                           reply: dict[str, Any] | None = None) -> None:
        row = _to_row(rec.model_dump(mode="json"), _TABLE_JSON)
        async with self._write() as db:
            await self._check_key(db, key)
            if await db.execute_fetchall("SELECT 1 FROM game_tables WHERE id = ?", (rec.id,)):
                raise TableExists(f"table {rec.id!r} already exists")
            if rec.status in ACTIVE_STATUSES and await self._chat_taken(db, rec):
                raise TableExists(f"chat {chat_key(rec)} already has an active table")
            await db.execute(_insert_sql("game_tables", row), tuple(row.values()))
            await self._record_key(db, key, rec, rec.version, reply)

    @staticmethod
    async def _key_row(db: aiosqlite.Connection, key: str) -> ActionKeyRecord | None:
        rows = list(await db.execute_fetchall("SELECT * FROM action_keys WHERE key = ?", (key,)))
        return ActionKeyRecord.model_validate(_from_row(rows[0], ("reply",))) if rows else None

    async def _check_key(self, db: aiosqlite.Connection, key: str | None) -> None:
        if key is not None and (found := await self._key_row(db, key)) is not None:
            raise DuplicateAction(found)

    @staticmethod
    async def _record_key(db: aiosqlite.Connection, key: str | None, rec: TableRecord, version: int,
                          reply: dict[str, Any] | None) -> None:
        # Stamped with the change's own time (the caller's clock), which is what pruning compares.
        if key is not None:
            await db.execute("INSERT INTO action_keys VALUES (?, ?, ?, ?, ?)",
                             (key, rec.id, version, json.dumps(reply or {}, ensure_ascii=False), rec.updated_at))

    async def action_key(self, key: str) -> ActionKeyRecord | None:
        async with self._read() as db:
            return await self._key_row(db, key)

    async def prune_action_keys(self, before: float) -> int:
        async with self._write() as db, db.execute("DELETE FROM action_keys WHERE at < ?", (before,)) as cur:
            return cur.rowcount

    async def get_table(self, table_id: str) -> TableRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall("SELECT * FROM game_tables WHERE id = ?", (table_id,)))
        return _table(rows[0]) if rows else None

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(f"SELECT * FROM game_tables WHERE {_CHAT_WHERE}",
                                                  (platform, chat_id, topic_id or "")))
        return _table(rows[0]) if rows else None

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        async with self._read() as db:
            rows = await db.execute_fetchall(
                f"SELECT * FROM game_tables WHERE status IN ({marks}) ORDER BY created_at, id",
                tuple(statuses))
        return [_table(r) for r in rows]

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
    ) -> TableRecord:
        async with self._write() as db:
            await self._check_key(db, key)  # first: a repeat is not a stale writer
            rows = list(await db.execute_fetchall(
                "SELECT version, log_seq, created_at FROM game_tables WHERE id = ?", (rec.id,)))
            if not rows:
                raise TableNotFound(rec.id)
            version, log_seq, created_at = rows[0]
            if version != expected_version:
                raise VersionConflict(rec.id, expected_version, version)
            stored = rec.model_copy(update={"version": expected_version + 1, "created_at": created_at,
                                            "log_seq": next_log_seq(rec.id, log_seq, entries)})
            if stored.status in ACTIVE_STATUSES and await self._chat_taken(db, stored):
                raise TableExists(f"chat {chat_key(stored)} already has an active table")
            await db.executemany("INSERT INTO table_log VALUES (?, ?, ?, ?, ?, ?)",
                                 [(e.table_id, e.seq, e.kind, e.seat, e.text, e.at) for e in entries])
            row = _to_row(stored.model_dump(mode="json"), _TABLE_JSON)
            assignments = ", ".join(f"{k} = :{k}" for k in row if k != "id")
            await db.execute(f"UPDATE game_tables SET {assignments} WHERE id = :id", row)
            if result is not None:
                await self._insert_result(db, result)
            await self._record_key(db, key, rec, stored.version, reply)
        # Rebuilt from the row as written, so the caller holds what get_table would return.
        return _table(row)

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM table_log WHERE table_id = ? AND seq > ? ORDER BY seq", (table_id, after_seq))
        return [LogEntry.model_validate(dict(r)) for r in rows]

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        async with self._write() as db:
            await db.execute("INSERT INTO players VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (platform, user_id) DO UPDATE SET name = excluded.name",
                             (platform, user_id, name, self._clock()))

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT * FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)))
        return PlayerRecord.model_validate(dict(rows[0])) if rows else None

    @staticmethod
    async def _insert_result(db: aiosqlite.Connection, rec: MatchResultRecord) -> bool:
        row = _to_row(rec.model_dump(mode="json"), _RESULT_JSON)
        sql = _insert_sql("match_results", row) + " ON CONFLICT (table_id) DO NOTHING"
        # The primary key makes this exactly-once even across processes; DO NOTHING reports it as rowcount 0.
        async with db.execute(sql, tuple(row.values())) as cur:
            return cur.rowcount == 1

    async def record_result(self, rec: MatchResultRecord) -> bool:
        async with self._write() as db:
            return await self._insert_result(db, rec)

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_results WHERE platform = ? AND chat_id = ? AND (? IS NULL OR game = ?) "
                "ORDER BY finished_at DESC, rowid DESC LIMIT ?",
                (platform, chat_id, game, game, max(limit, 0)))
        return [MatchResultRecord.model_validate(_from_row(r, _RESULT_JSON)) for r in rows]

    # ---- standings -------------------------------------------------------------------------------

    async def unrated_results(self, limit: int = 100) -> list[MatchResultRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_results WHERE rated = 0 AND status = 'finished' "
                "ORDER BY finished_at, rowid LIMIT ?", (max(limit, 0),))
        return [MatchResultRecord.model_validate(_from_row(r, _RESULT_JSON)) for r in rows]

    async def rate_result(self, table_id: str, keys: Sequence[RatingKey], rate: RateFn) -> bool:
        async with self._write() as db:
            rows = list(await db.execute_fetchall(
                "SELECT * FROM match_results WHERE table_id = ? AND rated = 0 AND status = 'finished'",
                (table_id,)))
            if not rows:
                return False
            result = MatchResultRecord.model_validate(_from_row(rows[0], _RESULT_JSON))
            current: dict[RatingKey, RatingRecord] = {}
            for scope, subject in keys:
                found = list(await db.execute_fetchall(
                    "SELECT * FROM ratings WHERE platform = ? AND scope = ? AND game = ? AND subject = ?",
                    (result.platform, scope, result.game, subject)))
                if found:
                    current[(scope, subject)] = RatingRecord.model_validate(dict(found[0]))
            seats, ratings = rate(result, current)
            for seat in seats:
                row = seat.model_dump(mode="json")
                await db.execute(_insert_sql("match_players", row) + " ON CONFLICT DO NOTHING", tuple(row.values()))
            for rating in ratings:
                row = rating.model_dump(mode="json")
                await db.execute(_insert_sql("ratings", row) + " ON CONFLICT (platform, scope, game, subject) DO UPDATE "
                                 "SET " + ", ".join(f"{k} = excluded.{k}" for k in row), tuple(row.values()))
            await db.execute("UPDATE match_results SET rated = 1 WHERE table_id = ?", (table_id,))
        return True

    async def board(
        self, platform: str, scope: str, game: str, kind: str = "player", since: float | None = None,
        limit: int = 10,
    ) -> list[BoardRow]:
        sql, args = board_query(platform, scope, game, kind, since, limit)
        async with self._read() as db:
            rows = await db.execute_fetchall(sql, args)
        return [BoardRow.model_validate(dict(r)) for r in rows]

    async def ratings(self, platform: str, scope: str, kind: str = "player", game: str | None = None
                      ) -> list[RatingRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM ratings WHERE platform = ? AND scope = ? AND kind = ? AND (? IS NULL OR game = ?) "
                "ORDER BY rating DESC, game, subject", (platform, scope, kind, game, game))
        return [RatingRecord.model_validate(dict(r)) for r in rows]

    async def player_matches(
        self, platform: str, user_id: str, chat_id: str | None = None, game: str | None = None
    ) -> list[MatchPlayerRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_players WHERE platform = ? AND user_id = ? AND (? IS NULL OR chat_id = ?) "
                "AND (? IS NULL OR game = ?) ORDER BY finished_at, table_id",
                (platform, user_id, chat_id, chat_id, game, game))
        return [MatchPlayerRecord.model_validate(dict(r)) for r in rows]

    async def team_names(self, platform: str, chat_id: str) -> dict[str, str]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT team, name FROM team_names WHERE platform = ? AND chat_id = ?", (platform, chat_id))
        return {r[0]: r[1] for r in rows}

    async def set_team_name(self, platform: str, chat_id: str, team: str, name: str) -> None:
        async with self._write() as db:
            await db.execute("INSERT INTO team_names VALUES (?, ?, ?, ?) "
                             "ON CONFLICT (platform, chat_id, team) DO UPDATE SET name = excluded.name",
                             (platform, chat_id, team, name))

    # ---- adapter data ----------------------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?", (platform, chat_id)))
        return json.loads(rows[0][0]) if rows else {}

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        async with self._write() as db:
            await db.execute("INSERT INTO chat_settings VALUES (?, ?, ?) "
                             "ON CONFLICT (platform, chat_id) DO UPDATE SET settings = excluded.settings",
                             (platform, chat_id, json.dumps(settings, ensure_ascii=False)))

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        sql = "INSERT INTO processed_updates VALUES (?, ?, ?) ON CONFLICT (platform, update_id) DO NOTHING"
        async with self._write() as db, db.execute(sql, (platform, update_id, now)) as cur:
            return cur.rowcount == 1

    async def update_claimed(self, platform: str, update_id: str) -> bool:
        async with self._read() as db:
            return bool(await db.execute_fetchall(
                "SELECT 1 FROM processed_updates WHERE platform = ? AND update_id = ?", (platform, update_id)))

    async def prune_updates(self, platform: str, before: float) -> int:
        sql = "DELETE FROM processed_updates WHERE platform = ? AND at < ?"
        async with self._write() as db, db.execute(sql, (platform, before)) as cur:
            return cur.rowcount

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        async with self._read() as db:
            rows = await db.execute_fetchall("SELECT key, value FROM table_refs WHERE table_id = ?", (table_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        async with self._write() as db:
            if value is None:
                await db.execute("DELETE FROM table_refs WHERE table_id = ? AND key = ?", (table_id, key))
            else:
                await db.execute("INSERT INTO table_refs VALUES (?, ?, ?) "
                                 "ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value",
                                 (table_id, key, json.dumps(value, ensure_ascii=False)))
