"""SQLite group commit: writes that arrive together share one transaction, a failing write fails
alone, a failing COMMIT fails everyone, and nobody hears of a write before its COMMIT."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

from storage import DuplicateAction, SqliteStore, TableRecord, VersionConflict
from tests.storage.records import make_entries, make_table, moved

N = 6


def stored(path: str) -> dict[str, tuple[int, int]]:
    """(version, log rows) per table, read by a plain second connection (another process)."""
    with closing(sqlite3.connect(path)) as conn:
        versions = dict(conn.execute("SELECT id, version FROM game_tables").fetchall())
        logs = dict(conn.execute("SELECT table_id, COUNT(*) FROM table_log GROUP BY table_id").fetchall())
    return {t: (v, logs.get(t, 0)) for t, v in versions.items()}


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(str(tmp_path / "group.db"))
    await s.open()
    for i in range(N):
        await s.create_table(make_table(f"t{i}", chat_id=f"chat-{i}"))
    yield s
    await s.close()


async def test_concurrent_commits_share_one_transaction(store: SqliteStore) -> None:
    assert store.writer is not None
    before = store.writer.stats.batches
    saved = await asyncio.gather(*(store.commit(*moved(i), make_entries(f"t{i}", 1, 2)) for i in range(N)))
    assert store.writer.stats.batches == before + 1  # one BEGIN … COMMIT for all of them
    assert [r.version for r in saved] == [1] * N
    assert stored(store.path) == {f"t{i}": (1, 2) for i in range(N)}


async def test_a_stale_writer_fails_alone(store: SqliteStore) -> None:
    await store.commit(*moved(0), key="k-used")
    stale, ok = 3, [i for i in range(1, N) if i != 3]
    results = await asyncio.gather(
        store.commit(*moved(stale, version=5), make_entries(f"t{stale}", 1, 1)),  # stored version is 0
        store.commit(*moved(1), make_entries("t1", 1, 1), key="k-used"),  # a repeat of another change
        *(store.commit(*moved(i), make_entries(f"t{i}", 1, 1)) for i in ok if i != 1),
        return_exceptions=True)
    assert isinstance(results[0], VersionConflict)
    assert isinstance(results[1], DuplicateAction) and results[1].record.table_id == "t0"
    assert all(isinstance(r, TableRecord) and r.version == 1 for r in results[2:])
    after = stored(store.path)
    assert after[f"t{stale}"] == (0, 0) and after["t1"] == (0, 0)  # rolled back to their savepoints
    assert all(after[f"t{i}"] == (1, 1) for i in ok if i != 1)


async def test_a_failing_commit_fails_every_caller_and_stores_nothing(store: SqliteStore) -> None:
    assert store.writer is not None

    def orphan(db: sqlite3.Connection) -> None:
        # A real failing COMMIT: a deferred foreign key is only checked there.
        db.execute("PRAGMA defer_foreign_keys = ON")
        db.execute("INSERT INTO table_log VALUES ('no-such-table', 1, 'action', 0, 'draw', 0)")

    store.writer.before_commit = orphan
    results = await asyncio.gather(*(store.commit(*moved(i), make_entries(f"t{i}", 1, 1)) for i in range(N)),
                                   return_exceptions=True)
    assert all(isinstance(r, sqlite3.IntegrityError) for r in results), results
    assert stored(store.path) == {f"t{i}": (0, 0) for i in range(N)}
    store.writer.before_commit = None
    assert (await store.get_table("t0")).version == 0  # type: ignore[union-attr]  # the cache was not updated
    assert (await store.commit(*moved(0), make_entries("t0", 1, 1))).version == 1  # and the store goes on


async def test_callers_are_answered_only_after_commit(store: SqliteStore) -> None:
    assert store.writer is not None
    loop = asyncio.get_running_loop()
    at_commit, release = asyncio.Event(), threading.Event()

    def hold(db: sqlite3.Connection) -> None:
        loop.call_soon_threadsafe(at_commit.set)
        release.wait()

    store.writer.before_commit = hold
    tasks = [asyncio.create_task(store.commit(*moved(i), make_entries(f"t{i}", 1, 1))) for i in range(N)]
    await at_commit.wait()  # every write is made; only the COMMIT is missing
    await asyncio.sleep(0)
    assert not any(t.done() for t in tasks)
    assert stored(store.path) == {f"t{i}": (0, 0) for i in range(N)}  # nobody else sees them either
    store.writer.before_commit = None
    release.set()
    assert [r.version for r in await asyncio.gather(*tasks)] == [1] * N
    assert stored(store.path) == {f"t{i}": (1, 1) for i in range(N)}


async def test_close_makes_the_writes_already_queued(store: SqliteStore) -> None:
    tasks = [asyncio.create_task(store.commit(*moved(i))) for i in range(N)]
    await asyncio.sleep(0)  # queued, not yet written
    await store.close()
    assert [t.result().version for t in tasks] == [1] * N
    assert stored(store.path) == {f"t{i}": (1, 0) for i in range(N)}


async def test_a_small_batch_runs_on_the_loop_and_waits_on_the_thread_for_another_process(
    store: SqliteStore,
) -> None:
    assert store.writer is not None
    inline = store.writer.stats.inline
    assert (await store.commit(*moved(0), make_entries("t0", 1, 1))).version == 1
    assert store.writer.stats.inline == inline + 1  # the write lock was free: no thread hand-off
    with closing(sqlite3.connect(store.path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        task = asyncio.create_task(store.commit(*moved(1), make_entries("t1", 1, 1)))
        for _ in range(20):
            await asyncio.sleep(0)  # the loop runs on: the batch waits on the writer's thread
        assert not task.done()
        other.execute("COMMIT")
        assert (await task).version == 1
    assert store.writer.stats.inline == inline + 1  # that batch went to the thread
    assert stored(store.path)["t1"] == (1, 1)
