"""A real process killed (SIGKILL) while it holds a table's claim: another process leaves the table
alone while the lease runs, then finishes the turn — nothing applied twice, nothing lost (ISSUE 15,
item 5). tests/bot/test_claims.py kills at every store call in-process (DyingStore); here it is a
separate interpreter with its own connections, killed by the kernel, on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import asyncpg
import pytest

from bot.core.clock import FakeClock
from bot.core.liveness import process_owner
from bot.core.service import CLAIM_LEASE_S, TableService
from storage import PostgresStore, SqliteStore, Store
from tests.bot.conftest import ALICE
from tests.bot.test_claims import TIMER, moves, timeouts
from tests.bot.test_exactly_once import ai_table

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 120.0  # a guard against a child that never reaches its pause, not a wait


@pytest.fixture(params=["sqlite", "postgres"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return str(tmp_path / "killed.db")
    url: str = request.getfixturevalue("postgres_url")
    return url


def open_store(database: str) -> Store:
    return PostgresStore(database) if database.startswith("postgresql://") else SqliteStore(database)


async def claims_of(database: str, owner: str) -> int:
    sql = "SELECT COUNT(*) FROM table_claims WHERE owner = "
    if not database.startswith("postgresql://"):
        with closing(sqlite3.connect(database)) as db:
            return int(db.execute(sql + "?", (owner,)).fetchone()[0])
    db = await asyncpg.connect(database)
    try:
        return int(await db.fetchval(sql + "$1", owner))
    finally:
        await db.close()


async def due_ai_table(database: str, clock: FakeClock) -> str:
    """Alice (60 s timer) against an AI, her deadline passed: her timeout and the AI's answer are due."""
    store = open_store(database)
    await store.open()
    table = await ai_table(TableService(store, clock), turn_timer_s=TIMER)
    await store.close()
    clock.advance(TIMER + 1)
    return table


async def run_until_paused(database: str, now: float, method: str, *move: str,
                           env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    child = subprocess.Popen([sys.executable, "-m", "tests.crash_child", database, repr(now), method, *move],
                             cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, **(env or {})})
    assert child.stdout is not None
    line = await asyncio.wait_for(asyncio.get_running_loop().run_in_executor(None, child.stdout.readline),
                                  START_TIMEOUT_S)
    assert line.strip() == f"paused {method}", line
    return child


@pytest.mark.parametrize("method", ["claim_due", "commit"],
                         ids=["killed-holding-the-claim", "killed-after-its-commit"])
async def test_a_killed_process_claim_is_taken_over_and_the_turn_finished_once(
    tmp_path: Path, database: str, method: str
) -> None:
    # The reference: the same table ticked by one process, undisturbed.
    ref_clock = FakeClock()
    ref_path = str(tmp_path / "reference.db")
    ref_table = await due_ai_table(ref_path, ref_clock)
    ref = SqliteStore(ref_path)
    await ref.open()
    await TableService(ref, ref_clock, owner="R").tick()
    expected = moves(await ref.log(ref_table))
    await ref.close()
    assert [k for k, _, _ in expected[-2:]] == ["timeout", "ai"]

    clock = FakeClock()
    table = await due_ai_table(database, clock)
    child = await run_until_paused(database, clock.now(), method)
    child.kill()  # SIGKILL: the kernel ends it mid-turn, holding the claim
    child.wait()
    assert await claims_of(database, "A") == 1

    store = open_store(database)
    await store.open()
    try:
        b = TableService(store, clock, owner="B")
        left = moves(await store.log(table))
        assert await b.tick() == []  # A's lease still runs: B keeps off the table
        assert moves(await store.log(table)) == left
        clock.advance(CLAIM_LEASE_S)
        await b.tick()  # the lease ran out: B takes the table over
        log = await store.log(table)
        assert moves(log) == expected  # the turn finished, as one undisturbed process finishes it
        assert timeouts(log) == 1  # and nothing applied twice
        rec = await b.get(table)
        assert rec.state is not None and rec.state["turn"] == 0  # Alice on turn again
        assert rec.state == await b.replay(table)
        assert await claims_of(database, "A") == 0 and await claims_of(database, "B") == 0
        assert await b.tick() == []
    finally:
        await store.close()


async def test_a_process_killed_after_storing_a_move_leaves_the_ai_answer_to_another(
    tmp_path: Path, database: str
) -> None:
    ref_clock = FakeClock()
    ref = SqliteStore(str(tmp_path / "reference.db"))
    await ref.open()
    ref_service = TableService(ref, ref_clock, owner="R")
    ref_table = await ai_table(ref_service)
    await ref_service.act(ref_table, ALICE, "draw")
    expected = moves(await ref.log(ref_table))
    await ref.close()
    assert [k for k, _, _ in expected[-2:]] == ["action", "ai"]

    clock = FakeClock()
    store = open_store(database)
    await store.open()
    try:
        table = await ai_table(TableService(store, clock))
        # A stores Alice's draw (her press answered then) and is killed before the AI's answer.
        child = await run_until_paused(database, clock.now(), "commit", "draw")
        child.kill()
        child.wait()
        assert moves(await store.log(table)) == expected[:-1]  # the draw is durable, the answer not stored
        assert await claims_of(database, "A") == 1  # taken in the draw's own commit
        b = TableService(store, clock, owner="B")
        assert await b.tick() == [] and (await b.resume(table)).table.log_seq == len(expected) - 1  # A's lease runs
        clock.advance(CLAIM_LEASE_S)
        await b.tick()  # the lease ran out: B plays the answer, as A would have
        log = await store.log(table)
        assert moves(log) == expected
        rec = await b.get(table)
        assert rec.state is not None and rec.state["turn"] == 0 and rec.state == await b.replay(table)
        assert await claims_of(database, "A") == 0 and await claims_of(database, "B") == 0
    finally:
        await store.close()


async def test_a_restarted_process_takes_a_killed_predecessors_table_at_once(tmp_path: Path, database: str) -> None:
    """ISSUE 24, item 3: the killed process owned its claim as a bot does (host and pid): the next
    process on this host sees that pid gone and plays the table at its first tick, no lease waited."""
    ref = SqliteStore(str(tmp_path / "reference.db"))
    await ref.open()
    ref_service = TableService(ref, FakeClock(), owner="R")
    ref_table = await ai_table(ref_service)
    await ref_service.act(ref_table, ALICE, "draw")
    expected = moves(await ref.log(ref_table))
    await ref.close()

    clock = FakeClock()
    store = open_store(database)
    await store.open()
    try:
        table = await ai_table(TableService(store, clock))
        child = await run_until_paused(database, clock.now(), "commit", "draw", env={"CRASH_CHILD_OWNER": "process"})
        child.kill()
        child.wait()
        (gone,) = await store.claim_holders(clock.now())
        assert gone.split(":")[1] == str(child.pid)  # its claim, its lease still running
        await TableService(store, clock, owner=process_owner()).tick()  # the same instant
        assert moves(await store.log(table)) == expected
        assert await store.claim_holders(clock.now()) == []
    finally:
        await store.close()
