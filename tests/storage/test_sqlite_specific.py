"""What only the SQLite backend promises: WAL, migrations, durability, and sharing a file across processes."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

import storage.sqlite as sqlite_backend
import storage.sqlite_migrations as sqlite_migrations
from storage import MemoryStore, SqliteStore, VersionConflict, open_store
from storage.models import table_row
from storage.sqlite_rows import insert_sql
from tests.storage.test_store_contract import make_entries, make_result, make_table


@pytest.fixture
def db_path(tmp_path: Path) -> str:
    return str(tmp_path / "rummy.db")


@pytest.fixture
async def store(db_path: str) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(db_path)
    await s.open()
    yield s
    await s.close()


def query(path: str, sql: str) -> list[tuple[object, ...]]:
    # A plain second connection, as another process (or an operator with the sqlite3 shell) would see it.
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql).fetchall()


async def test_connection_pragmas(store: SqliteStore, db_path: str) -> None:
    assert query(db_path, "PRAGMA journal_mode") == [("wal",)]  # WAL is stored in the file itself
    db = store._db  # the per-connection settings can only be read on the store's own connection
    assert db is not None
    for pragma, expected in [("foreign_keys", 1), ("synchronous", 1), ("busy_timeout", 5000)]:  # 1 = NORMAL
        assert [tuple(r) for r in await db.execute_fetchall(f"PRAGMA {pragma}")] == [(expected,)], pragma


async def test_migrations_recorded_and_idempotent(store: SqliteStore, db_path: str) -> None:
    recorded = query(db_path, "SELECT version, name, applied_at FROM schema_migrations")
    assert [(v, n) for v, n, _ in recorded] == [(1, "001_init.sql"), (2, "002_adapters.sql"),
                                                 (3, "003_stats.sql"), (4, "004_action_keys.sql"),
                                                 (5, "005_claims.sql"), (6, "006_wake.sql"),
                                                 (7, "007_claim_scope.sql")]
    await store.close()
    await store.open()
    await store.close()
    reopened = SqliteStore(db_path)
    await reopened.open()
    await reopened.close()
    assert query(db_path, "SELECT version, name, applied_at FROM schema_migrations") == recorded


async def test_pending_migration_applies_on_reopen(
    db_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = SqliteStore(db_path)
    await first.open()
    await first.create_table(make_table())
    await first.close()
    folder = tmp_path / "migrations"
    shutil.copytree(sqlite_migrations.MIGRATIONS_DIR, folder)
    (folder / "099_nicknames.sql").write_text(
        "-- a comment; with a semicolon\nALTER TABLE players\n  ADD COLUMN nickname TEXT;\n"
        "CREATE TRIGGER touch AFTER UPDATE ON players BEGIN\n  SELECT 1;\nEND;\n")
    monkeypatch.setattr(sqlite_migrations, "MIGRATIONS_DIR", folder)
    second = SqliteStore(db_path)
    await second.open()
    await second.close()
    assert query(db_path, "SELECT version FROM schema_migrations ORDER BY version") == [(1,), (2,), (3,), (4,), (5,), (6,), (7,), (99,)]
    assert "nickname" in [c[1] for c in query(db_path, "PRAGMA table_info(players)")]
    assert query(db_path, "SELECT id FROM game_tables") == [("t1",)]


async def test_failing_migration_leaves_nothing_behind(
    db_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "migrations"
    shutil.copytree(sqlite_migrations.MIGRATIONS_DIR, folder)
    (folder / "099_broken.sql").write_text("CREATE TABLE half_done (x INTEGER);\nTHIS IS NOT SQL;\n")
    monkeypatch.setattr(sqlite_migrations, "MIGRATIONS_DIR", folder)
    with pytest.raises(sqlite3.OperationalError):
        await SqliteStore(db_path).open()
    # The whole batch is one transaction: not even 001 stays applied.
    assert query(db_path, "SELECT name FROM sqlite_master WHERE name IN ('half_done', 'game_tables')") == []


def test_split_statements() -> None:
    script = ("-- head; note\nCREATE TABLE a (x);\n"
              "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n SELECT 1;\nEND;\n-- tail")
    assert sqlite_migrations.split_statements(script) == [
        "-- head; note\nCREATE TABLE a (x);", "CREATE TRIGGER t AFTER INSERT ON a BEGIN\n SELECT 1;\nEND;"]
    with pytest.raises(ValueError):
        sqlite_migrations.split_statements("CREATE TABLE a (x)\n")


async def test_data_survives_close_and_reopen(store: SqliteStore, db_path: str) -> None:
    await store.create_table(make_table())
    stored = await store.commit(make_table(status="playing", deadline=5.0), 0, make_entries("t1", 1, 2))
    await store.upsert_player("telegram", "u1", "Ann")
    await store.record_result(make_result("old", 1.0))
    await store.close()
    again = SqliteStore(db_path)
    await again.open()
    try:
        assert await again.get_table("t1") == stored
        assert await again.log("t1") == make_entries("t1", 1, 2)
        assert (await again.get_player("telegram", "u1")) is not None
        assert [r.table_id for r in await again.results("telegram", "chat-1")] == ["old"]
        assert await again.due_tables(10.0) == ["t1"]
    finally:
        await again.close()


async def test_two_stores_share_one_file(store: SqliteStore, db_path: str) -> None:
    other = SqliteStore(db_path)  # stands in for a second bot process
    await other.open()
    try:
        await store.create_table(make_table())
        seen = await other.get_table("t1")
        assert seen is not None and seen.version == 0
        await store.commit(make_table(state={"by": "first"}), 0, make_entries("t1", 1, 1))
        with pytest.raises(VersionConflict):
            stale = seen.model_copy(update={"state": {"by": "stale"}})
            await other.commit(stale, 0, make_entries("t1", 1, 1))
        fresh = await other.get_table("t1")
        assert fresh is not None and fresh.state == {"by": "first"} and fresh.version == 1
        await other.commit(fresh.model_copy(update={"state": {"by": "second"}}), 1, make_entries("t1", 2, 1))
        assert [e.seq for e in await store.log("t1")] == [1, 2]
        assert (await store.get_table("t1")).state == {"by": "second"}  # type: ignore[union-attr]
        both = await asyncio.gather(store.record_result(make_result("t1", 1.0)),
                                    other.record_result(make_result("t1", 2.0)))
        assert sorted(both) == [False, True]
    finally:
        await other.close()


async def test_lookups_use_indexes(store: SqliteStore, db_path: str) -> None:
    chat_plan = query(db_path, "EXPLAIN QUERY PLAN SELECT * FROM game_tables WHERE "
                      + sqlite_backend._CHAT_WHERE.replace("?", "'x'"))
    assert "game_tables_active_chat" in str(chat_plan)
    due_plan = query(db_path, "EXPLAIN QUERY PLAN SELECT id FROM game_tables "
                     "WHERE status = 'playing' AND deadline <= 1.0 ORDER BY deadline, id")
    assert "game_tables_status_deadline" in str(due_plan)


async def test_unopened_store_says_so(db_path: str) -> None:
    with pytest.raises(RuntimeError, match="open"):
        await SqliteStore(db_path).get_table("t1")


@pytest.mark.parametrize(("url", "path"), [
    ("sqlite:///data/rummy.db", "data/rummy.db"),
    ("sqlite:////srv/rummy.db", "/srv/rummy.db"),
    ("data/rummy.db", "data/rummy.db"),
])
def test_open_store_sqlite_urls(url: str, path: str) -> None:
    s = open_store(url)
    assert isinstance(s, SqliteStore) and s.path == path


def test_open_store_other_urls() -> None:
    assert isinstance(open_store("memory://"), MemoryStore)
    for bad in ("mysql://db/rummy", "sqlite:///", ""):
        with pytest.raises(ValueError):
            open_store(bad)


async def test_migration_007_gives_open_lobbies_their_expiry(
    db_path: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A lobby opened before migration 007 kept its expiry in `meta`; the migration copies it to the
    indexed column, so the lobby is still claimed when it expires."""
    folder = tmp_path / "migrations"
    shutil.copytree(sqlite_migrations.MIGRATIONS_DIR, folder)
    (folder / "007_claim_scope.sql").unlink()
    monkeypatch.setattr(sqlite_migrations, "MIGRATIONS_DIR", folder)
    old = SqliteStore(db_path)
    await old.open()
    await old.close()
    row = {k: v for k, v in table_row(make_table("lb", meta={"lobby_expires": 700.0})).items()
           if k not in ("expires", "shard_key")}
    with closing(sqlite3.connect(db_path)) as conn, conn:
        conn.execute(insert_sql("game_tables", row), tuple(row.values()))
    monkeypatch.undo()
    new = SqliteStore(db_path)
    await new.open()
    try:
        rec = await new.get_table("lb")
        assert rec is not None and rec.expires == 700.0
        assert await new.claim_due(699.0, "A", 30.0) == []
        assert await new.claim_due(700.0, "A", 30.0) == ["lb"]
    finally:
        await new.close()
