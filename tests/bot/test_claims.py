"""Several processes on one database: each passed deadline is applied by exactly one of them, and a
process killed while holding a table's claim has the turn finished by another once its lease runs
out — nothing applied twice (ISSUE 15, item 5)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.service import CLAIM_LEASE_S, TableService
from storage import LogEntry, PostgresStore, SqliteStore, Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_exactly_once import ai_table
from tests.bot.test_service import ALICE_RACK, BOB_RACK
from tests.crash import Died, DyingStore

TIMER = 60.0
TABLES = 6


class CountingStore:
    """Forwards to a real store, counting commits: a lost race shows up as a commit that conflicted."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.commits = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def commit(self, *args: Any, **kwargs: Any) -> Any:
        self.commits += 1
        return await self.inner.commit(*args, **kwargs)


@pytest.fixture(params=["sqlite", "postgres"])
async def shared(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Callable[[], Store]]:
    """A factory of stores on one database: each one is a process's own connection(s)."""
    opened: list[Store] = []
    if request.param == "sqlite":
        def make() -> Store:
            return SqliteStore(str(tmp_path / "shared.db"))
    else:
        url: str = request.getfixturevalue("postgres_url")

        def make() -> Store:
            return PostgresStore(url)

    def opener() -> Store:
        s = make()
        opened.append(s)
        return s

    yield opener
    for s in opened:
        await s.close()


async def human_tables(service: TableService, count: int) -> list[str]:
    """Alice and Bob at `count` tables (one chat each), Alice on turn with a 60 s timer."""
    ids = []
    for n in range(count):
        rec = await service.open_table("rummikub", "test", f"chat{n}", ALICE, options={"turn_timer_s": TIMER},
                                       deck=ALICE_RACK + BOB_RACK)
        await service.join(rec.id, BOB)
        await service.start(rec.id, ALICE)
        ids.append(rec.id)
    return ids


def timeouts(log: list[LogEntry]) -> int:
    return sum(1 for e in log if e.kind == "timeout")


async def test_two_processes_ticking_together_apply_each_timeout_once(shared: Callable[[], Store]) -> None:
    clock = FakeClock()
    one, two = CountingStore(shared()), CountingStore(shared())
    for s in (one, two):
        await s.open()
    ids = iter(range(100))
    setup = TableService(one.inner, clock, new_table_id=lambda: f"t{next(ids)}")  # type: ignore[arg-type]
    tables = await human_tables(setup, TABLES)
    a = TableService(one, clock, owner="A")  # type: ignore[arg-type]
    b = TableService(two, clock, owner="B")  # type: ignore[arg-type]
    clock.advance(TIMER + 1)
    got_a, got_b = await asyncio.gather(a.tick(), b.tick())
    done = [o.table.id for o in got_a + got_b]
    assert sorted(done) == sorted(tables)  # every due table handled, by one process each
    for table in tables:
        assert timeouts(await one.log(table)) == 1, table
        rec = await a.get(table)
        assert rec.state is not None and rec.state["turn"] == 1  # Bob on turn now
    # The claims kept each process to its own tables: not one commit was wasted on a lost race.
    assert one.commits + two.commits == TABLES
    assert await a.tick() == [] and await b.tick() == []  # nothing due any more


async def dying_tick(path: str, clock: FakeClock, table: str, at: int, after: bool) -> None:
    """Process A ticks a due table and is killed at its store call `at` (before or after it ran)."""
    inner = SqliteStore(path)
    await inner.open()
    try:
        with pytest.raises(Died):
            await TableService(DyingStore(inner, at, after), clock, owner="A").tick()  # type: ignore[arg-type]
    finally:
        await inner.close()


def query(path: str, sql: str) -> list[tuple[Any, ...]]:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(sql).fetchall()


def moves(log: list[LogEntry]) -> list[tuple[str, int | None, str]]:
    return [(e.kind, e.seat, e.text) for e in log]


async def setup_due_ai_table(path: str, clock: FakeClock) -> str:
    """Alice (on turn, 60 s timer) against an AI; her deadline has passed: her timeout and the AI's
    answer are what the next tick does."""
    store = SqliteStore(path)
    await store.open()
    table = await ai_table(TableService(store, clock), turn_timer_s=TIMER)
    await store.close()
    return table


@pytest.mark.parametrize("after", [False, True], ids=["before", "after"])
async def test_a_process_killed_holding_a_claim_is_taken_over_once_its_lease_expires(
    tmp_path: Path, after: bool
) -> None:
    # The reference: one process ticks and finishes the turn undisturbed.
    clock = FakeClock()
    ref_path = str(tmp_path / "ref.db")
    table = await setup_due_ai_table(ref_path, clock)
    clock.advance(TIMER + 1)
    ref = SqliteStore(ref_path)
    await ref.open()
    counter = DyingStore(ref)
    (outcome,) = await TableService(counter, clock, owner="A").tick()  # type: ignore[arg-type]
    expected = moves(await ref.log(table))
    await ref.close()
    assert outcome.table.state is not None and outcome.table.state["turn"] == 0  # the AI answered
    assert [k for k, _, _ in expected[-2:]] == ["timeout", "ai"]
    steps = counter.calls
    assert steps >= 4  # claim, read, one commit of the timeout and the AI's answer, release

    held_cases = 0
    for at in range(1, steps + 1):
        clock = FakeClock()
        path = str(tmp_path / f"crash-{at}.db")
        table = await setup_due_ai_table(path, clock)
        clock.advance(TIMER + 1)
        await dying_tick(path, clock, table, at, after)

        b_store = SqliteStore(path)
        await b_store.open()
        b = TableService(b_store, clock, owner="B")
        left = moves(await b_store.log(table))
        held = bool(query(path, "SELECT 1 FROM table_claims WHERE owner = 'A'"))
        await b.tick()
        if held:  # A's lease is still running: B must not touch what A may be doing
            assert moves(await b_store.log(table)) == left, (at, after)
        clock.advance(CLAIM_LEASE_S)
        await b.tick()  # the lease ran out: B takes over and finishes the turn
        log = await b_store.log(table)
        assert moves(log) == expected, (at, after, moves(log))
        assert timeouts(log) == 1
        rec = await b.get(table)
        assert rec.state == await b.replay(table), (at, after)
        assert await b.tick() == []  # nothing left over
        assert query(path, "SELECT * FROM table_claims") == []  # and no claim behind
        await b_store.close()
        held_cases += held
    assert held_cases >= 3  # from the claim to its release, a kill leaves a live claim behind


async def test_a_live_claim_keeps_a_second_process_off_the_table(tmp_path: Path) -> None:
    clock = FakeClock()
    path = str(tmp_path / "live.db")
    table = await setup_due_ai_table(path, clock)
    clock.advance(TIMER + 1)
    store = SqliteStore(path)
    await store.open()
    try:
        # A claimed the table (and is, as far as anyone knows, still working on it).
        assert await store.claim_due(clock.now(), "A", CLAIM_LEASE_S) == [table]
        b = TableService(store, clock, owner="B")
        assert await b.tick() == []
        assert (await b.resume(table)).table.log_seq == (await store.get_table(table)).log_seq  # type: ignore[union-attr]
        assert timeouts(await store.log(table)) == 0
    finally:
        await store.close()
