"""PostgreSQL for many processes (issue 27, item 7): the pool's size is the operator's (PG_POOL_MIN /
PG_POOL_MAX), and the change feed is told once per commit batch — every committed table's id, none of
a refused commit — instead of once per move."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import PostgresStore, VersionConflict
from storage.postgres_writer import CHANNEL, PAYLOAD_BYTES, SEPARATOR, payloads
from tests.storage.records import make_table

N = 40


class Listener:
    """A LISTEN on a connection of its own, as another process's web server holds it."""

    def __init__(self) -> None:
        self.payloads: list[str] = []
        self.arrived = asyncio.Event()

    def __call__(self, _conn: object, _pid: int, _channel: str, payload: str) -> None:
        self.payloads.append(payload)
        self.arrived.set()

    def ids(self) -> list[str]:
        return [i for p in self.payloads for i in p.split(SEPARATOR)]

    async def until(self, ids: set[str]) -> None:
        while not ids <= set(self.ids()):
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 5.0)


@pytest.fixture
async def heard(postgres_url: str) -> AsyncIterator[Listener]:
    listener = Listener()
    db = await asyncpg.connect(postgres_url)
    await db.add_listener(CHANNEL, listener)
    yield listener
    await db.close()


async def test_the_pool_has_the_configured_size(postgres_url: str) -> None:
    store = PostgresStore(postgres_url, pool=(3, 4))
    await store.open()
    try:
        assert store._pool is not None
        assert (store._pool.get_min_size(), store._pool.get_max_size()) == (3, 4)
        assert store._pool.get_size() >= 3  # the fewest are opened at once
    finally:
        await store.close()


@pytest.mark.parametrize("pool", [(0, 5), (3, 2), (1, 1)])
def test_a_pool_that_cannot_work_is_refused(postgres_url: str, pool: tuple[int, int]) -> None:
    with pytest.raises(ValueError, match="pool"):
        PostgresStore(postgres_url, pool=pool)


async def test_commits_of_one_batch_are_told_in_one_notification(postgres_url: str, heard: Listener) -> None:
    store = PostgresStore(postgres_url)
    await store.open()
    try:
        await asyncio.gather(*(store.create_table(make_table(f"t{i}", chat_id=f"c{i}")) for i in range(N)))
        assert heard.payloads == []  # a new table moves no version: nothing to tell
        assert store.writer is not None
        before = store.writer.stats.batches
        recs = [await store.get_table(f"t{i}") for i in range(N)]
        await asyncio.gather(*(store.commit(r, r.version) for r in recs if r is not None))
        batches = store.writer.stats.batches - before
        await heard.until({f"t{i}" for i in range(N)})
        assert sorted(heard.ids()) == sorted(f"t{i}" for i in range(N))  # each once
        assert len(heard.payloads) == batches < N  # one per batch, not one per commit
    finally:
        await store.close()


async def test_a_refused_commit_is_not_told(postgres_url: str, heard: Listener) -> None:
    store = PostgresStore(postgres_url)
    await store.open()
    try:
        await store.create_table(make_table("ok", chat_id="a"))
        await store.create_table(make_table("stale", chat_id="b"))
        ok, stale = await store.get_table("ok"), await store.get_table("stale")
        assert ok is not None and stale is not None
        results = await asyncio.gather(store.commit(ok, ok.version), store.commit(stale, stale.version + 5),
                                       return_exceptions=True)
        assert isinstance(results[1], VersionConflict)
        await heard.until({"ok"})
        await store.commit(ok, ok.version + 1)  # a later notification: the refused one had its chance
        await asyncio.sleep(0)
        assert "stale" not in heard.ids()
    finally:
        await store.close()


def test_payloads_stay_under_notifys_limit_and_keep_every_id() -> None:
    ids = [f"table-{i:06d}-" + "x" * 40 for i in range(600)]
    out = payloads(ids + ids[:10])  # a repeat is told once
    assert len(out) > 1
    assert all(len(p.encode()) <= PAYLOAD_BYTES for p in out)
    assert [i for p in out for i in p.split(SEPARATOR)] == ids
    assert payloads([]) == []


async def test_the_claim_reads_the_partial_indexes(postgres_url: str) -> None:
    """Among many tables in play and finished, the due ones are found through (platform, time) indexes
    of their status, never by reading every table."""
    from storage import ClaimScope
    from storage.postgres_claims import _ARMS, _scope

    store = PostgresStore(postgres_url)
    await store.open()
    try:
        await asyncio.gather(*(store.create_table(make_table(
            f"t{i}", chat_id=f"c{i}", status=("playing", "finished")[i % 2], deadline=1e9 + i, wake=None))
            for i in range(1000)))
        where, extra = _scope(ClaimScope(platforms=("telegram",)), 2)
        async with store._conn() as db:
            await db.execute("ANALYZE game_tables")
            plan = "\n".join(r[0] for r in await db.fetch(f"EXPLAIN {_ARMS.format(p=where)}", 1000.0, *extra))
    finally:
        await store.close()
    assert "Seq Scan" not in plan, plan
    for index in ("game_tables_due_deadline", "game_tables_lobby_expires"):
        assert index in plan, plan
