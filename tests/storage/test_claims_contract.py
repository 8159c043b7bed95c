"""Claims (Store.claim_due / claim_stale / claim_table / release_claim) on every backend: of two
owners only one gets a table, an expired lease hands it over, a release frees it."""

from __future__ import annotations

import asyncio

import pytest

from storage import ClaimWrite, Store, VersionConflict
from tests.storage.records import make_table

LEASE = 30.0


async def _playing(store: Store, table_id: str, deadline: float | None, chat: str | None = None) -> None:
    await store.create_table(make_table(table_id, status="playing", deadline=deadline, chat_id=chat or table_id))


async def test_claim_due_takes_due_playing_tables_earliest_first(store: Store) -> None:
    await _playing(store, "late", 500.0)
    await _playing(store, "early", 400.0)
    await _playing(store, "future", 2000.0)
    await _playing(store, "untimed", None)
    await store.create_table(make_table("lobby", status="lobby", deadline=100.0, chat_id="lobby"))
    assert await store.claim_due(1000.0, "A", LEASE) == ["early", "late"]


async def test_a_live_claim_keeps_the_table_from_another_owner(store: Store, other: Store) -> None:
    await _playing(store, "t1", 500.0)
    assert await store.claim_due(1000.0, "A", LEASE) == ["t1"]
    assert await other.claim_due(1000.0, "B", LEASE) == []
    assert await other.claim_due(1000.0 + LEASE - 0.5, "B", LEASE) == []
    assert not await other.claim_table("t1", "B", 1000.0, LEASE)
    # The owner itself may claim again (a renewal), which moves the lease on.
    assert await store.claim_due(1010.0, "A", LEASE) == ["t1"]
    assert await other.claim_due(1000.0 + LEASE, "B", LEASE) == []


async def test_an_expired_claim_is_handed_over(store: Store, other: Store) -> None:
    await _playing(store, "t1", 500.0)
    assert await store.claim_due(1000.0, "A", LEASE) == ["t1"]
    assert await other.claim_due(1000.0 + LEASE, "B", LEASE) == ["t1"]  # until <= now: expired
    assert await store.claim_due(1000.0 + LEASE, "A", LEASE) == []  # now B's


async def test_release_frees_the_table_but_only_for_its_owner(store: Store, other: Store) -> None:
    await _playing(store, "t1", 500.0)
    assert await store.claim_due(1000.0, "A", LEASE) == ["t1"]
    await other.release_claim("t1", "B")  # not B's: kept
    assert await other.claim_due(1000.0, "B", LEASE) == []
    await store.release_claim("t1", "A")
    assert await other.claim_due(1000.0, "B", LEASE) == ["t1"]
    await store.release_claim("nothing", "A")  # releasing what is not held is harmless


async def test_claim_due_respects_the_limit(store: Store) -> None:
    for i in range(5):
        await _playing(store, f"t{i}", 100.0 + i)
    first = await store.claim_due(1000.0, "A", LEASE, limit=2)
    assert first == ["t0", "t1"]
    assert await store.claim_due(1000.0, "B", LEASE, limit=10) == ["t2", "t3", "t4"]


async def test_claim_stale_finds_only_expired_unreleased_claims(store: Store, other: Store) -> None:
    for name in ("done", "died", "alive", "finished"):
        await _playing(store, name, None)
    assert await store.claim_table("done", "A", 1000.0, LEASE)
    assert await store.claim_table("died", "A", 1000.0, LEASE)
    assert await store.claim_table("alive", "A", 1000.0 + LEASE, LEASE)
    assert await store.claim_table("finished", "A", 1000.0, LEASE)
    await store.release_claim("done", "A")
    rec = await store.get_table("finished")
    assert rec is not None
    rec.status = "finished"
    await store.commit(rec, expected_version=rec.version)
    assert await other.claim_stale(1000.0, "B", LEASE) == []  # nothing expired yet
    assert await other.claim_stale(1000.0 + LEASE, "B", LEASE) == ["died"]
    assert await store.claim_stale(1000.0 + LEASE, "A", LEASE) == []  # B holds it now, live
    assert not await store.claim_table("died", "A", 1000.0 + LEASE, LEASE)


async def test_claim_table_needs_a_playing_table(store: Store) -> None:
    await store.create_table(make_table("lobby", status="lobby", chat_id="lobby"))
    assert not await store.claim_table("lobby", "A", 1000.0, LEASE)
    assert not await store.claim_table("missing", "A", 1000.0, LEASE)
    await _playing(store, "t1", None)
    assert await store.claim_table("t1", "A", 1000.0, LEASE)
    assert await store.claim_table("t1", "A", 1001.0, LEASE)  # the owner's own: renewed


async def test_concurrent_owners_never_share_a_table(store: Store, other: Store) -> None:
    """Many owners on two connections claim at the same instant: every due table goes to exactly one."""
    for i in range(30):
        await _playing(store, f"t{i:02}", 100.0 + i)
    stores = [store, other] * 4
    got = await asyncio.gather(*(s.claim_due(1000.0, f"owner{n}", LEASE, limit=7) for n, s in enumerate(stores)))
    flat = [t for ids in got for t in ids]
    assert sorted(flat) == [f"t{i:02}" for i in range(30)]  # each once, none lost (8 x 7 >= 30)


async def _next(store: Store, table_id: str, claim: ClaimWrite | None, version: int | None = None) -> None:
    rec = await store.get_table(table_id)
    assert rec is not None
    await store.commit(rec, expected_version=rec.version if version is None else version, claim=claim)


async def test_a_commit_takes_renews_and_drops_a_claim_in_its_own_transaction(store: Store, other: Store) -> None:
    await _playing(store, "t1", None)
    await _next(store, "t1", ClaimWrite(owner="A", until=1000.0 + LEASE))
    assert not await other.claim_table("t1", "B", 1000.0, LEASE)  # A's lease runs
    assert await other.claim_stale(1000.0 + LEASE, "B", LEASE) == ["t1"]  # and, once out, is stale
    await _next(store, "t1", ClaimWrite(owner="B", until=None))  # B's work done: dropped with its commit
    assert await store.claim_table("t1", "A", 1000.0, LEASE)
    await _next(store, "t1", ClaimWrite(owner="B", until=None))  # not B's any more: A's is kept
    assert not await other.claim_table("t1", "B", 1000.0, LEASE)


async def test_a_commit_replaces_another_owners_claim_and_a_stale_commit_writes_no_claim(
    store: Store, other: Store
) -> None:
    await _playing(store, "t1", None)
    assert await other.claim_table("t1", "B", 1000.0, LEASE)
    # A's commit passed the version check: B's work is for a version that is gone, the claim A's.
    await _next(store, "t1", ClaimWrite(owner="A", until=1000.0 + LEASE))
    assert not await other.claim_table("t1", "B", 1000.0, LEASE)
    await other.release_claim("t1", "B")  # B finishing late frees nothing of A's
    assert not await other.claim_table("t1", "B", 1000.0, LEASE)
    await store.release_claim("t1", "A")
    with pytest.raises(VersionConflict):
        await _next(other, "t1", ClaimWrite(owner="B", until=1000.0 + LEASE), version=0)
    assert await store.claim_table("t1", "A", 1000.0, LEASE)  # the refused commit took no claim


# ---- automatic moves left unplayed (`wake`) and owners proven dead (ISSUE 24, items 2 and 3) ----------


async def _waking(store: Store, table_id: str, wake: float | None, deadline: float | None = None) -> None:
    await store.create_table(make_table(table_id, status="playing", deadline=deadline, wake=wake, chat_id=table_id))


async def test_claim_due_takes_tables_whose_automatic_moves_are_due_with_the_passed_deadlines(store: Store) -> None:
    await _waking(store, "ai-early", 300.0)
    await _waking(store, "ai-later", 600.0, deadline=5000.0)  # an AI seat with a turn timer: due by its wake
    await _playing(store, "human", 450.0)
    await _waking(store, "ai-future", 2000.0)
    await _waking(store, "human-untimed", None)
    assert await store.claim_due(1000.0, "A", LEASE) == ["ai-early", "human", "ai-later"]


async def test_a_released_claim_leaves_the_unplayed_automatic_moves_due(store: Store, other: Store) -> None:
    """The stuck table of issue 24: the AI's answer was never stored, but its claim was released.
    Whatever became of the claim, the table's own row says its automatic moves are due."""
    await _waking(store, "t1", None)
    rec = await store.get_table("t1")
    assert rec is not None
    rec.wake = 1000.0  # the player's move left an AI on turn; the move's commit takes A's claim
    await store.commit(rec, expected_version=rec.version, claim=ClaimWrite(owner="A", until=1000.0 + LEASE))
    assert await other.claim_due(1000.0, "B", LEASE) == []  # A's lease runs: A is playing them
    await store.release_claim("t1", "A")  # A's AI commit failed; its release did not
    assert await other.claim_due(1000.0, "B", LEASE) == ["t1"]  # the next tick plays them


async def test_a_live_owner_takes_its_own_claims_again_at_once(store: Store) -> None:
    await _waking(store, "t1", 1000.0)
    assert await store.claim_table("t1", "A", 1000.0, LEASE)
    assert await store.claim_due(1001.0, "A", LEASE) == ["t1"]  # its lease runs, but it is A's own


async def test_the_claims_of_an_owner_proven_dead_are_taken_at_once(store: Store, other: Store) -> None:
    await _waking(store, "ai", 1000.0)
    await _playing(store, "human", None)
    assert await store.claim_table("ai", "dead", 1000.0, LEASE)
    assert await store.claim_table("human", "dead", 1000.0, LEASE)
    assert await store.claim_table("alive", "C", 1000.0, LEASE) is False  # no such table
    assert await other.claim_holders(1000.0) == ["dead"]
    assert await other.claim_holders(1000.0 + LEASE) == []  # expired leases are nobody's
    # Without proof B waits for the lease; with it, B takes both at once (the due one and the stale one).
    assert await other.claim_due(1001.0, "B", LEASE) == []
    assert await other.claim_stale(1001.0, "B", LEASE) == []
    assert await other.claim_due(1001.0, "B", LEASE, dead=["gone", "dead"]) == ["ai"]
    assert await other.claim_stale(1001.0, "B", LEASE, dead=["dead"]) == ["human"]
    assert await other.claim_holders(1001.0) == ["B"]
    # A live owner's claim stays its own even when others are named dead.
    assert await store.claim_due(1002.0, "A", LEASE, dead=["dead"]) == []
