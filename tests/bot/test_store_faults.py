"""The store failing under a running service (ISSUE 24, items 2 and 3): no table is left stuck with
an AI on turn, a blip costs the live process a tick and not a lease, and a restarted process takes a
proven-dead predecessor's tables at once (without proof, after the lease). Failures are made by a
store wrapper that fails chosen calls; time is a fake clock and `tick(now)`: nothing sleeps."""

from __future__ import annotations

import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.clockwork import GONE_CONFIRM_S
from bot.core.liveness import process_owner, proven_dead
from bot.core.models import StoreUnavailable
from bot.core.service import CLAIM_LEASE_S, TableService
from storage import LogEntry, MemoryStore, PostgresStore, SqliteStore, Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_exactly_once import ai_table
from tests.failing_store import FailingStore


@pytest.fixture(params=["memory", "sqlite", "postgres"])
async def inner(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "memory":
        store: Store = MemoryStore()
    elif request.param == "sqlite":
        store = SqliteStore(str(tmp_path / "faults.db"))
    else:
        store = PostgresStore(request.getfixturevalue("postgres_url"))
    await store.open()
    yield store
    await store.close()


def moves(log: list[LogEntry]) -> list[tuple[str, int | None, str]]:
    return [(e.kind, e.seat, e.text) for e in log]


def service_on(store: Store | FailingStore, clock: FakeClock, owner: str) -> TableService:
    return TableService(store, clock, owner=owner, new_table_id=lambda: "t1", new_seed=lambda: 42)  # type: ignore[arg-type]


async def reference() -> list[tuple[str, int | None, str]]:
    """Alice's draw and the AI's answer, as one undisturbed process stores them."""
    store = MemoryStore()
    service = service_on(store, FakeClock(), "R")
    table = await ai_table(service, turn_timer_s=0)
    await service.act(table, ALICE, "draw")
    return moves(await store.log(table))


async def draw_answer_lost(inner: Store, clock: FakeClock, owner: str, *, release_fails: bool) -> str:
    """Alice (no turn timer) draws against an AI; the draw is stored, the AI's answer is not (its
    commit fails) and its claim's release succeeds or not. Returns the table."""
    failing = FailingStore(inner)
    service = service_on(failing, clock, owner)
    table = await ai_table(service, turn_timer_s=0)
    failing.fail("commit", skip=1)  # the draw's commit goes through, the AI's answer fails
    if release_fails:
        failing.fail("release_claim")
    with pytest.raises(StoreUnavailable):
        await service.act(table, ALICE, "draw")
    rec = await inner.get_table(table)
    assert rec is not None and rec.state is not None
    assert rec.state["turn"] == 1 and rec.deadline is None  # the AI on turn, no deadline to wake it
    assert rec.wake is not None and rec.wake <= clock.now()  # but its automatic moves are due
    return table


async def test_an_ai_answer_not_stored_whose_claim_was_released_is_played_by_the_next_tick(inner: Store) -> None:
    expected = await reference()
    clock = FakeClock()
    table = await draw_answer_lost(inner, clock, "A", release_fails=False)
    assert await inner.claim_holders(clock.now()) == []  # the claim is gone: nothing held the table before
    (outcome,) = await service_on(inner, clock, "B").tick()  # any process's next tick, on the same clock
    assert outcome.table.state is not None and outcome.table.state["turn"] == 0
    assert moves(await inner.log(table)) == expected
    assert await inner.claim_holders(clock.now()) == []
    assert await service_on(inner, clock, "B").tick() == []  # nothing left over


async def test_after_a_blip_the_live_process_takes_its_own_claim_at_its_next_tick(inner: Store) -> None:
    expected = await reference()
    clock = FakeClock()
    failing = FailingStore(inner)
    a = service_on(failing, clock, "A")
    table = await ai_table(a, turn_timer_s=0)
    failing.fail("commit", skip=1)
    failing.fail("release_claim")  # the store went away for both: A's claim stays, its lease running
    with pytest.raises(StoreUnavailable):
        await a.act(table, ALICE, "draw")
    assert await inner.claim_holders(clock.now()) == ["A"]
    # Still out of reach at A's next ticks: each fails as a whole (the scheduler logs it and goes on).
    failing.fail("claim_holders", times=2)
    for _ in range(2):
        with pytest.raises(StoreUnavailable):
            await a.tick()
    clock.advance(2.0)  # back two seconds later, the lease far from over
    assert await service_on(inner, clock, "B").tick() == []  # B keeps off A's live claim
    (outcome,) = await a.tick()
    assert outcome.table.state is not None and outcome.table.state["turn"] == 0
    assert moves(await inner.log(table)) == expected
    assert await inner.claim_holders(clock.now()) == []
    assert failing.failed == ["commit", "release_claim", "claim_holders", "claim_holders"]


def earlier_life() -> str:
    """A claim owner this process cannot be now: this host, this pid, another token (a restart that
    got the same pid, as a container's first process does)."""
    return f"{socket.gethostname()}:{os.getpid()}:0dead000"


async def test_a_restarted_process_takes_a_proven_dead_predecessors_table_at_once(inner: Store) -> None:
    expected = await reference()
    clock = FakeClock()
    table = await draw_answer_lost(inner, clock, earlier_life(), release_fails=True)
    assert await inner.claim_holders(clock.now()) == [earlier_life()]
    (outcome,) = await service_on(inner, clock, process_owner()).tick()  # no lease waited
    assert outcome.table.state is not None and outcome.table.state["turn"] == 0
    assert moves(await inner.log(table)) == expected
    assert await inner.claim_holders(clock.now()) == []


async def test_without_proof_a_predecessors_table_waits_for_the_lease(inner: Store) -> None:
    expected = await reference()
    clock = FakeClock()
    elsewhere = "another-host:4242:0abc0000"  # a process this host cannot see: maybe alive
    table = await draw_answer_lost(inner, clock, elsewhere, release_fails=True)
    restarted = service_on(inner, clock, process_owner())
    assert await restarted.tick() == []
    clock.advance(CLAIM_LEASE_S - 1)
    assert await restarted.tick() == []
    assert moves(await inner.log(table)) == expected[:-1]
    clock.advance(1)
    (outcome,) = await restarted.tick()
    assert moves(await inner.log(table)) == expected


def test_only_a_gone_process_of_this_host_is_proven_dead() -> None:
    mine = process_owner()
    assert not proven_dead(mine)  # a live service of this process
    assert proven_dead(earlier_life())
    assert not proven_dead(f"{socket.gethostname()}:1:abcd0000")  # pid 1 runs (it is someone's)
    assert not proven_dead("another-host:4242:0abc0000")
    assert not proven_dead("A")  # not a process owner at all


async def test_postgres_shows_a_predecessor_on_another_host_gone_once_its_session_ended(postgres_url: str) -> None:
    """Another host's process cannot be seen here, but PostgreSQL ends its liveness session when it
    dies: its tables are taken once that has lasted GONE_CONFIRM_S, not after the lease."""
    expected = await reference()
    clock = FakeClock()
    elsewhere = "another-host:4242:0abc0000"
    before, after = PostgresStore(postgres_url), PostgresStore(postgres_url)
    await before.open()
    await after.open()
    try:
        table = await draw_answer_lost(before, clock, elsewhere, release_fails=True)
        restarted = service_on(after, clock, process_owner())
        assert await restarted.tick() == []  # its session is open: maybe alive
        await before.close()  # the process dies: PostgreSQL ends its session
        assert await restarted.tick() == []  # seen gone once: maybe a live process cut off a moment
        clock.advance(GONE_CONFIRM_S)
        (outcome,) = await restarted.tick()  # still gone: its tables are taken, the lease far from over
        assert moves(await after.log(table)) == expected
        assert await after.claim_holders(clock.now()) == []
    finally:
        await before.close()
        await after.close()


async def test_a_player_gone_away_on_turn_is_played_by_the_next_tick_when_the_stand_in_could_not_start(
    inner: Store,
) -> None:
    clock = FakeClock()
    failing = FailingStore(inner)
    service = service_on(failing, clock, "A")
    rec = await service.open_table("rummikub", "test", "chat1", ALICE, options={"turn_timer_s": 0})
    await service.join(rec.id, BOB)
    started = await service.start(rec.id, ALICE)
    assert started.table.state is not None
    turn = started.table.state["turn"]
    failing.fail("claim_table")  # `/away` is stored; the stand-in's claim is not
    with pytest.raises(StoreUnavailable):
        await service.set_away(rec.id, (ALICE, BOB)[turn], True)
    stored = await inner.get_table(rec.id)
    assert stored is not None and stored.seats[turn].away and stored.state is not None
    assert stored.state["turn"] == turn and stored.wake is not None  # the away seat's turn, the AI's to play
    (outcome,) = await service_on(inner, clock, "B").tick()
    assert outcome.table.state is not None and outcome.table.state["turn"] == 1 - turn  # the other's turn now
    assert [e.kind for e in await inner.log(rec.id)][-1] == "ai"
