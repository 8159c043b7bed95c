"""Issue 12, item 8: SqliteStore.backup is a consistent online copy (SQLite's backup API): taken
while another connection holds a write open, it is a valid database with every committed table
and nothing of the open transaction."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

from storage import DatabaseUnusable, SqliteStore
from tests.storage.test_store_contract import make_entries, make_table


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(str(tmp_path / "live.db"))
    await s.open()
    await s.create_table(make_table("t1", chat_id="chat-1"))
    rec = await s.get_table("t1")
    assert rec is not None
    await s.commit(rec, rec.version, make_entries("t1", 1, 3))
    yield s
    await s.close()


def uncommitted_write(path: str) -> sqlite3.Connection:
    """Another writer (a second bot process, say) in the middle of a transaction."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    row = make_table("t2", chat_id="chat-2").model_dump(mode="json")
    row = {k: json.dumps(v) if isinstance(v, dict | list) else v for k, v in row.items()}
    conn.execute(f"INSERT INTO game_tables ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                 tuple(row.values()))
    # Every writer of a table moves its version on (the stores' cached records are guarded by it).
    conn.execute("UPDATE game_tables SET status = 'abandoned', version = version + 1 WHERE id = 't1'")
    return conn


async def assert_committed_copy(copy: Path) -> None:
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    restored = SqliteStore(str(copy))
    await restored.open()
    try:
        rec = await restored.get_table("t1")
        assert rec is not None and rec.status == "lobby" and rec.log_seq == 3
        assert [e.text for e in await restored.log("t1")] == ["draw #1", "draw #2", "draw #3"]
        assert await restored.get_table("t2") is None  # never committed
    finally:
        await restored.close()


@pytest.mark.parametrize("through", ["another store", "the open store"])
async def test_backup_while_another_connection_writes(store: SqliteStore, tmp_path: Path, through: str) -> None:
    writer = uncommitted_write(store.path)
    try:
        source = SqliteStore(store.path) if through == "another store" else store
        # A closed store copies without migrating, so it never waits for the writer's lock.
        await asyncio.wait_for(source.backup(tmp_path / "copy.db"), 10)
    finally:
        writer.execute("COMMIT")
        writer.close()
    await assert_committed_copy(tmp_path / "copy.db")
    assert [p.name for p in tmp_path.iterdir() if "partial" in p.name] == []
    # The live database has moved on; the copy has not.
    assert (await store.get_table("t1")).status == "abandoned"  # type: ignore[union-attr]


async def test_backup_replaces_a_file_only_when_whole(store: SqliteStore, tmp_path: Path) -> None:
    target = tmp_path / "copy.db"
    target.write_bytes(b"an older backup")
    await store.backup(target)
    await assert_committed_copy(target)


async def test_backup_of_a_missing_database_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(DatabaseUnusable) as err:
        await SqliteStore(str(tmp_path / "nope.db")).backup(tmp_path / "copy.db")
    assert err.value.reason == "missing"
    assert sorted(p.name for p in tmp_path.iterdir()) == []


async def test_backup_of_another_programs_database_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("CREATE TABLE users (id)")
    with pytest.raises(DatabaseUnusable) as err:
        await SqliteStore(str(db)).backup(tmp_path / "copy.db")
    assert err.value.reason == "foreign"
    assert not (tmp_path / "copy.db").exists()


async def test_backup_of_a_read_only_database(store: SqliteStore, tmp_path: Path) -> None:
    # A copy only reads: an immutable source (chattr +i refuses even root) is still copied.
    await store.close()
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", store.path]).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        await SqliteStore(store.path).backup(tmp_path / "copy.db")
    finally:
        subprocess.run(["chattr", "-i", store.path], check=True)
    await assert_committed_copy(tmp_path / "copy.db")
