"""SQLite and PostgreSQL keep each table's last committed record: served while the stored version
is unchanged, never stale when another process writes the table, never shared with a caller."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from storage import PostgresStore, SeatRecord, SqliteStore
from tests.storage.records import make_entries, make_table

Store = SqliteStore | PostgresStore


@pytest.fixture(params=["sqlite", "postgres"])
async def stores(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[tuple[Store, Store]]:
    """Two processes' stores on one database."""
    if request.param == "sqlite":
        first, second = SqliteStore(str(tmp_path / "c.db")), SqliteStore(str(tmp_path / "c.db"))
    else:
        url: str = request.getfixturevalue("postgres_url")
        first, second = PostgresStore(url), PostgresStore(url)
    await first.open()
    await second.open()
    yield first, second
    await first.close()
    await second.close()


async def test_a_read_after_our_commit_comes_from_memory(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    await store.create_table(make_table())
    saved = await store.commit(make_table(status="playing", state={"hand": ["r1"]}), 0, make_entries("t1", 1, 1))
    hits = store.cache.hits
    assert await store.get_table("t1") == saved
    assert store.cache.hits == hits + 1


async def test_another_process_writing_the_table_is_seen(stores: tuple[Store, Store]) -> None:
    store, other = stores
    await store.create_table(make_table())
    await store.commit(make_table(status="playing", state={"by": "first"}), 0)
    theirs = await other.get_table("t1")
    assert theirs is not None and theirs.state == {"by": "first"}
    await other.commit(theirs.model_copy(update={"state": {"by": "other"}}), 1, make_entries("t1", 1, 1))
    mine = await store.get_table("t1")
    assert mine is not None and mine.version == 2 and mine.state == {"by": "other"} and mine.log_seq == 1
    # And back: the first store's commit on top of it is seen by the other one.
    await store.commit(mine.model_copy(update={"state": {"by": "first again"}}), 2)
    assert (await other.get_table("t1")).state == {"by": "first again"}  # type: ignore[union-attr]


async def test_records_handed_out_are_copies(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    await store.create_table(make_table())
    saved = await store.commit(make_table(status="playing", state={"hand": ["r1"]}, meta={"m": [1]}), 0)
    saved.state["hand"].append("changed")  # type: ignore[index]
    saved.seats[0].away = True
    read = await store.get_table("t1")
    assert read is not None and read.state == {"hand": ["r1"]} and not read.seats[0].away
    read.state["hand"].clear()  # type: ignore[index]
    read.meta["m"].append(2)
    read.seats.append(SeatRecord(kind="ai", platform=None, user_id=None, name="AI"))
    again = await store.get_table("t1")
    assert again is not None and again.state == {"hand": ["r1"]} and again.meta == {"m": [1]}
    assert len(again.seats) == 1


async def test_finished_tables_leave_the_cache(stores: tuple[Store, Store]) -> None:
    store, _ = stores
    await store.create_table(make_table())
    await store.commit(make_table(status="finished"), 0)
    assert store.cache.version("t1") is None
    assert (await store.get_table("t1")).status == "finished"  # type: ignore[union-attr]
