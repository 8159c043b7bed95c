"""Claims within a scope (issue 27), on every backend: a process claims only the due tables it can show
(its platforms, its Discord shards), and lobbies past their `expires` are claimed like passed deadlines."""

from __future__ import annotations

from typing import Any

import pytest

from storage import ClaimScope, SqliteStore, Store
from tests.storage.records import make_table

LEASE = 30.0
TELEGRAM = ClaimScope(platforms=("telegram",))
DISCORD = ClaimScope(platforms=("discord",))


async def _playing(store: Store, table_id: str, platform: str, deadline: float | None = 500.0, **fields: Any) -> None:
    await store.create_table(make_table(table_id, status="playing", deadline=deadline, chat_id=table_id,
                                        platform=platform, **fields))


async def test_each_platform_claims_only_its_own_tables(store: Store, other: Store) -> None:
    await _playing(store, "tg", "telegram", 400.0)
    await _playing(store, "dc", "discord", 300.0)
    await _playing(store, "term", "console", 200.0)
    assert await store.claim_due(1000.0, "tg-process", LEASE, scope=TELEGRAM) == ["tg"]
    assert await other.claim_due(1000.0, "dc-process", LEASE, scope=DISCORD) == ["dc"]
    # Neither took the terminal's table; a process showing every platform does.
    assert await store.claim_due(1000.0, "any", LEASE) == ["term"]


async def test_a_process_of_two_platforms_claims_both(store: Store) -> None:
    await _playing(store, "tg", "telegram", 400.0)
    await _playing(store, "dc", "discord", 300.0)
    both = ClaimScope(platforms=("telegram", "discord"))
    assert await store.claim_due(1000.0, "both", LEASE, scope=both) == ["dc", "tg"]


async def test_an_automatic_turn_is_claimed_only_by_its_platform(store: Store) -> None:
    await _playing(store, "dc", "discord", None, wake=300.0)
    assert await store.claim_due(1000.0, "tg-process", LEASE, scope=TELEGRAM) == []
    assert await store.claim_due(1000.0, "dc-process", LEASE, scope=DISCORD) == ["dc"]


async def test_shards_split_a_platforms_tables_by_shard_key(store: Store, other: Store) -> None:
    for key in range(4):
        await _playing(store, f"g{key}", "discord", 100.0 + key, shard_key=key)
    await _playing(store, "old", "discord", 50.0)  # no shard key: any Discord process
    even = ClaimScope(platforms=("discord",), shards=(2, (0,)))
    odd = ClaimScope(platforms=("discord",), shards=(2, (1,)))
    assert await store.claim_due(1000.0, "shard0", LEASE, scope=odd) == ["old", "g1", "g3"]
    assert await other.claim_due(1000.0, "shard1", LEASE, scope=even) == ["g0", "g2"]


async def test_shards_leave_other_platforms_tables_alone(store: Store) -> None:
    await _playing(store, "tg", "telegram", 100.0)
    await _playing(store, "dc", "discord", 100.0, shard_key=5)
    scope = ClaimScope(platforms=("telegram", "discord"), shards=(4, (0,)))
    assert await store.claim_due(1000.0, "p", LEASE, scope=scope) == ["tg"]


async def test_claim_stale_takes_over_only_the_scopes_tables(store: Store, other: Store) -> None:
    await _playing(store, "tg", "telegram", None)
    await _playing(store, "dc", "discord", None)
    assert await store.claim_table("tg", "dead", 1000.0, LEASE)
    assert await store.claim_table("dc", "dead", 1000.0, LEASE)
    assert await other.claim_stale(1000.0 + LEASE, "dc-process", LEASE, scope=DISCORD) == ["dc"]
    assert await other.claim_stale(1000.0 + LEASE, "tg-process", LEASE, scope=TELEGRAM) == ["tg"]


async def test_an_expired_lobby_is_claimed_like_a_passed_deadline(store: Store, other: Store) -> None:
    await store.create_table(make_table("old", status="lobby", chat_id="a", expires=300.0))
    await store.create_table(make_table("fresh", status="lobby", chat_id="b", expires=5000.0))
    await store.create_table(make_table("dc", status="lobby", chat_id="c", platform="discord", expires=100.0))
    await _playing(store, "tg", "telegram", 400.0)
    assert await store.claim_due(1000.0, "A", LEASE, scope=TELEGRAM) == ["old", "tg"]
    assert await other.claim_due(1000.0, "B", LEASE, scope=TELEGRAM) == []  # A's, under its lease
    assert await other.claim_due(1000.0, "B", LEASE, scope=DISCORD) == ["dc"]


async def test_a_started_table_is_not_claimed_for_its_lobby_expiry(store: Store) -> None:
    await store.create_table(make_table("t", status="lobby", chat_id="a", expires=300.0))
    rec = await store.get_table("t")
    assert rec is not None
    rec.status = "playing"
    await store.commit(rec, expected_version=rec.version)
    assert await store.claim_due(1000.0, "A", LEASE) == []


async def test_expires_and_shard_key_are_stored(store: Store) -> None:
    await store.create_table(make_table("t", status="lobby", expires=123.5, shard_key=2**40))
    rec = await store.get_table("t")
    assert rec is not None
    assert (rec.expires, rec.shard_key) == (123.5, 2**40)


async def test_sqlite_claims_read_the_partial_indexes(store: Store) -> None:
    """The claim reads what is due through (platform, time) indexes, never every table."""
    if not isinstance(store, SqliteStore):
        pytest.skip("SQLite's query plan")
    from storage.sqlite_claims import _DUE, _scope

    args: dict[str, object] = {"now": 1.0}
    sql = f"EXPLAIN QUERY PLAN {_DUE.format(p=_scope(args, TELEGRAM))}"
    async with store._read() as db:
        plan = " | ".join(str(tuple(r)) for r in await db.execute_fetchall(sql, args))
    for index in ("game_tables_due_deadline", "game_tables_due_wake", "game_tables_lobby_expires"):
        assert index in plan, plan
    assert "SCAN g" not in plan, plan


async def test_count_tables_counts_by_status(store: Store) -> None:
    await store.create_table(make_table("a", status="lobby", chat_id="a"))
    await _playing(store, "b", "telegram")
    await _playing(store, "c", "discord")
    await store.create_table(make_table("d", status="finished", chat_id="d"))
    assert await store.count_tables(["lobby", "playing"]) == {"lobby": 1, "playing": 2}
    assert await store.count_tables(["abandoned"]) == {"abandoned": 0}
