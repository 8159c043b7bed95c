"""The change feed (storage/feed.py) on every backend: a commit made through one store (another
process's) is told to the feed of a second store on the same database, for the watched tables only;
a claim, which moves no version, is not a change; the PostgreSQL listener comes back after losing
its connection."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import PostgresStore, Store
from storage.feed import change_feed
from tests.storage.records import make_table

WAIT_S = 5.0  # a bound for a broken feed, not a speed figure (bench/bench_web.py measures that)
SETTLE_TRY_S = 0.5  # each commit's wait while the feed may still be starting


class Told:
    """The feed's callback: the ids it was told, and an event per id awaited by the test."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self._events: dict[str, asyncio.Event] = {}

    def __call__(self, table_id: str) -> None:
        self.ids.append(table_id)
        self._events.setdefault(table_id, asyncio.Event()).set()

    async def of(self, table_id: str, within_s: float = WAIT_S) -> None:
        event = self._events.setdefault(table_id, asyncio.Event())
        await asyncio.wait_for(event.wait(), within_s)
        event.clear()


@pytest.fixture
async def feed(other: Store) -> AsyncIterator[tuple[set[str], Told]]:
    watched: set[str] = set()
    told = Told()
    task = asyncio.create_task(change_feed(other, poll_s=0.01).run(lambda: watched, told))
    yield watched, told
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task


async def _settled(store: Store, told: Told, table_id: str) -> None:
    """Wait until the feed has taken in the table as it stands (a poll reports a newly watched table
    once; a listener reports nothing until the next commit, and nothing of a commit made before its
    LISTEN reached the server — the feed's task may not have run yet: so commit until one is told)."""
    for _ in range(round(WAIT_S / SETTLE_TRY_S)):
        rec = await store.get_table(table_id)
        assert rec is not None
        await store.commit(rec, expected_version=rec.version)
        try:
            await told.of(table_id, SETTLE_TRY_S)
            return
        except TimeoutError:
            continue
    raise AssertionError(f"the feed told nothing of {table_id} in {WAIT_S} s of commits")


async def test_a_commit_by_another_store_reaches_the_feed(store: Store, feed: tuple[set[str], Told]) -> None:
    watched, told = feed
    await store.create_table(make_table("t1", status="playing", chat_id="c1"))
    await store.create_table(make_table("t2", status="playing", chat_id="c2"))
    watched.add("t1")
    await _settled(store, told, "t1")
    told.ids.clear()
    rec = await store.get_table("t1")
    assert rec is not None
    rec.deadline = 5000.0
    await store.commit(rec, expected_version=rec.version)
    await told.of("t1")
    other = await store.get_table("t2")
    assert other is not None
    await store.commit(other, expected_version=other.version)
    await store.commit(rec, expected_version=rec.version + 1)  # after t2's, so t2 had its chance
    await told.of("t1")
    assert set(told.ids) == {"t1"}, "an unwatched table is not told"


async def test_a_claim_is_not_a_change(store: Store, feed: tuple[set[str], Told]) -> None:
    watched, told = feed
    await store.create_table(make_table("t1", status="playing", chat_id="c1", deadline=10.0))
    watched.add("t1")
    await _settled(store, told, "t1")
    told.ids.clear()
    assert await store.claim_due(100.0, "A", 30.0) == ["t1"]
    await store.release_claim("t1", "A")
    rec = await store.get_table("t1")
    assert rec is not None
    await store.commit(rec, expected_version=rec.version)
    await told.of("t1")
    assert told.ids == ["t1"], "the claim and its release told nothing; the commit once"


async def test_the_postgres_feed_listens_again_after_losing_its_connection(
        postgres_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("storage.postgres_feed.RECONNECT_S", 0.01)
    store = PostgresStore(postgres_url)
    await store.open()
    watched, told = {"t1"}, Told()
    task = asyncio.create_task(change_feed(store).run(lambda: watched, told))
    try:
        await store.create_table(make_table("t1", status="playing", chat_id="c1"))
        await _settled(store, told, "t1")
        db = await asyncpg.connect(postgres_url)
        try:
            killed = await db.fetchval("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                                       "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()")
        finally:
            await db.close()
        assert killed >= 1
        await told.of("t1")  # back: the pages look again for what they may have missed
        await _settled(store, told, "t1")  # and later commits are heard
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await store.close()
