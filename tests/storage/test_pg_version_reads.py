"""PostgresStore's version guard for cached tables (storage/postgres_versions.py): the tables asked
about together share one lookup, and each answer is as current as a lookup of its own (another
process's commit made before the ask is seen)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest

from storage import PostgresStore, TableRecord
from tests.storage.records import make_entries, make_table

N = 5


@pytest.fixture
async def stores(postgres_url: str) -> AsyncIterator[tuple[PostgresStore, PostgresStore]]:
    """Two processes' stores on one database, `N` tables in play cached by the first."""
    first, second = PostgresStore(postgres_url), PostgresStore(postgres_url)
    await first.open()
    await second.open()
    for i in range(N):
        await first.create_table(make_table(f"t{i}", chat_id=f"chat-{i}"))
        await first.commit(make_table(f"t{i}", chat_id=f"chat-{i}", status="playing"), 0, make_entries(f"t{i}", 1, 1))
    yield first, second
    await first.close()
    await second.close()


async def test_tables_asked_about_together_share_one_lookup(stores: tuple[PostgresStore, PostgresStore]) -> None:
    store, _ = stores
    assert store.versions is not None
    queries, hits = store.versions.queries, store.cache.hits
    found = await asyncio.gather(*(store.get_table(f"t{i}") for i in range(N)), store.get_table("t0"))
    assert store.versions.queries == queries + 1
    assert store.cache.hits == hits + N + 1  # every one served from memory after that lookup
    assert [r.id if r else None for r in found] == [*(f"t{i}" for i in range(N)), "t0"]
    assert all(isinstance(r, TableRecord) and r.version == 1 for r in found)


async def test_a_commit_by_another_process_is_seen_by_the_shared_lookup(
        stores: tuple[PostgresStore, PostgresStore]) -> None:
    store, other = stores
    moved = await other.get_table("t2")
    assert moved is not None
    moved.state = {"moved": "elsewhere"}
    await other.commit(moved, 1, make_entries("t2", 2, 1))
    found = await asyncio.gather(*(store.get_table(f"t{i}") for i in range(N)))
    assert [r.version for r in found if r] == [1, 1, 2, 1, 1]
    assert found[2] is not None and found[2].state == {"moved": "elsewhere"}


async def test_a_table_gone_meanwhile_is_read_as_gone(stores: tuple[PostgresStore, PostgresStore]) -> None:
    store, _ = stores
    db = await asyncpg.connect(store.url)  # a table deleted by hand: the guard finds no row
    try:
        await db.execute("DELETE FROM table_log WHERE table_id = 't1'")
        await db.execute("DELETE FROM game_tables WHERE id = 't1'")
    finally:
        await db.close()
    found = await asyncio.gather(store.get_table("t1"), store.get_table("t3"))
    assert found[0] is None and found[1] is not None and found[1].version == 1
