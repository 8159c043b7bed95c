"""PostgreSQL group commit (storage/postgres_writer.py): table writes that arrive together share one
transaction, a stale writer fails alone (read before writing: no savepoint; a write failing inside
the database: the batch runs again with savepoints), a failing COMMIT fails everyone, nobody
hears of a write before its COMMIT, and a deadlock with another process is a retryable conflict."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import asyncpg
import pytest

from storage import ClaimWrite, DuplicateAction, PostgresStore, TableNotFound, TableRecord, VersionConflict
from storage.postgres import keep_session
from storage.postgres_writer import PgGroupWriter
from tests.storage.records import make_entries, make_table, moved

N = 6


async def stored(url: str) -> dict[str, tuple[int, int]]:
    """(version, log rows) per table, read by a connection of its own (another process)."""
    db = await asyncpg.connect(url)
    try:
        versions = {r["id"]: r["version"] for r in await db.fetch("SELECT id, version FROM game_tables")}
        logs = {r["table_id"]: r["n"] for r in await db.fetch(
            "SELECT table_id, COUNT(*) AS n FROM table_log GROUP BY table_id")}
    finally:
        await db.close()
    return {t: (v, logs.get(t, 0)) for t, v in versions.items()}


@pytest.fixture
async def store(postgres_url: str) -> AsyncIterator[PostgresStore]:
    s = PostgresStore(postgres_url)
    await s.open()
    await asyncio.gather(*(s.create_table(make_table(f"t{i}", chat_id=f"chat-{i}")) for i in range(N)))
    yield s
    await s.close()


async def test_concurrent_commits_share_one_transaction(store: PostgresStore) -> None:
    assert store.writer is not None
    before = store.writer.stats.batches
    saved = await asyncio.gather(*(store.commit(*moved(i), make_entries(f"t{i}", 1, 2)) for i in range(N)))
    assert store.writer.stats.batches == before + 1  # one BEGIN … COMMIT for all of them
    assert [r.version for r in saved] == [1] * N
    assert await stored(store.url) == {f"t{i}": (1, 2) for i in range(N)}


async def test_a_stale_writer_fails_alone(store: PostgresStore) -> None:
    assert store.writer is not None
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
    after = await stored(store.url)
    assert after[f"t{stale}"] == (0, 0) and after["t1"] == (0, 0)
    assert all(after[f"t{i}"] == (1, 1) for i in ok if i != 1)
    # The up-to-date repeat failed inside the database (its key's unique index): that batch ran again.
    assert store.writer.stats.redone == 1


async def test_refusals_found_by_reading_keep_the_batch_going(store: PostgresStore) -> None:
    # A stale version, a repeated key, an unknown table: refused before anything is written, so
    # the batch needs no second run (and no savepoints); the others commit.
    assert store.writer is not None
    await store.commit(*moved(0), key="k-used")
    before = store.writer.stats.batches
    results = await asyncio.gather(
        store.commit(*moved(1, version=5), make_entries("t1", 1, 1)),
        store.commit(*moved(0), key="k-used"),  # a stale repeat: the key is found by reading
        store.commit(make_table("ghost", status="playing"), 0),
        *(store.commit(*moved(i), make_entries(f"t{i}", 1, 1)) for i in range(2, N)),
        return_exceptions=True)
    assert store.writer.stats.batches == before + 1 and store.writer.stats.redone == 0
    assert isinstance(results[0], VersionConflict) and isinstance(results[1], DuplicateAction)
    assert isinstance(results[2], TableNotFound)
    assert [r.version for r in results[3:] if isinstance(r, TableRecord)] == [1] * (N - 2)
    after = await stored(store.url)
    assert after["t0"] == (1, 0) and after["t1"] == (0, 0)
    assert all(after[f"t{i}"] == (1, 1) for i in range(2, N))


async def test_a_batch_run_again_makes_the_writes_before_and_after_the_failed_one(store: PostgresStore) -> None:
    # The failed write keeps its error; the writes before it (rolled back with the first run) and
    # after it (never run) are made by the second run, each once.
    assert store.writer is not None
    runs: list[str] = []

    def bump(table: str) -> Callable[[asyncpg.Connection], Awaitable[str]]:
        async def work(db: asyncpg.Connection) -> str:
            runs.append(table)
            await db.execute("UPDATE game_tables SET version = version + 1 WHERE id = $1", table)
            return table
        return work

    async def broken(db: asyncpg.Connection) -> None:
        runs.append("broken")
        await db.execute("INSERT INTO game_tables (id) VALUES ('t0')")  # the primary key refuses it

    results = await asyncio.gather(store.writer.write(bump("t1")), store.writer.write(broken),
                                   store.writer.write(bump("t2")), return_exceptions=True)
    assert results[0] == "t1" and results[2] == "t2"
    assert isinstance(results[1], asyncpg.NotNullViolationError | asyncpg.UniqueViolationError)
    assert runs == ["t1", "broken", "t1", "t2"] and store.writer.stats.redone == 1
    after = await stored(store.url)
    assert after["t1"][0] == 1 and after["t2"][0] == 1 and after["t0"][0] == 0


async def test_a_failing_commit_fails_every_caller_and_stores_nothing(store: PostgresStore) -> None:
    assert store.writer is not None

    async def orphan(db: asyncpg.Connection) -> None:
        # A real failing COMMIT: a deferred constraint is only checked there.
        await db.execute("CREATE TEMP TABLE once (n INT UNIQUE DEFERRABLE INITIALLY DEFERRED) ON COMMIT DROP")
        await db.execute("INSERT INTO once VALUES (1), (1)")

    store.writer.before_commit = orphan
    results = await asyncio.gather(*(store.commit(*moved(i), make_entries(f"t{i}", 1, 1)) for i in range(N)),
                                   return_exceptions=True)
    assert all(isinstance(r, asyncpg.UniqueViolationError) for r in results), results
    assert await stored(store.url) == {f"t{i}": (0, 0) for i in range(N)}
    store.writer.before_commit = None
    assert (await store.commit(*moved(0), make_entries("t0", 1, 1))).version == 1  # and the store goes on


async def test_callers_are_answered_only_after_commit(store: PostgresStore) -> None:
    assert store.writer is not None
    at_commit, release = asyncio.Event(), asyncio.Event()

    async def hold(db: asyncpg.Connection) -> None:
        at_commit.set()
        await release.wait()

    store.writer.before_commit = hold
    tasks = [asyncio.create_task(store.commit(*moved(i), make_entries(f"t{i}", 1, 1))) for i in range(N)]
    await at_commit.wait()  # every write is made; only the COMMIT is missing
    assert not any(t.done() for t in tasks)
    assert await stored(store.url) == {f"t{i}": (0, 0) for i in range(N)}  # nobody else sees them either
    store.writer.before_commit = None
    release.set()
    assert [r.version for r in await asyncio.gather(*tasks)] == [1] * N
    assert await stored(store.url) == {f"t{i}": (1, 1) for i in range(N)}


async def test_a_deadlock_between_two_processes_batches_fails_one_write_only(postgres_url: str) -> None:
    # Process A's batch locks t0 then t1, process B's t1 then t0: PostgreSQL rolls back one of the
    # two batches, which runs again with a savepoint per write: only the write that met the deadlock
    # fails, every other write commits.
    a, b = PostgresStore(postgres_url), PostgresStore(postgres_url)
    await a.open()
    await b.open()
    try:
        for i in range(2):
            await a.create_table(make_table(f"t{i}", chat_id=f"chat-{i}"))
        both_hold_one = asyncio.Barrier(2)
        waited: set[str] = set()  # the batch run again does not wait for the other a second time

        def lock(table: str, then_wait: bool) -> Callable[[asyncpg.Connection], Awaitable[str]]:
            async def work(db: asyncpg.Connection) -> str:
                await db.execute("SET LOCAL deadlock_timeout = '50ms'")  # found in 50 ms, not 1 s
                await db.execute("UPDATE game_tables SET version = version + 1 WHERE id = $1", table)
                if then_wait and table not in waited:
                    waited.add(table)
                    await both_hold_one.wait()
                return table
            return work

        assert a.writer is not None and b.writer is not None
        results = await asyncio.gather(
            a.writer.write(lock("t0", True)), a.writer.write(lock("t1", False)),  # one batch of A
            b.writer.write(lock("t1", True)), b.writer.write(lock("t0", False)),  # one batch of B
            return_exceptions=True)
        writers = (a.writer, b.writer)
    finally:
        await a.close()
        await b.close()
    failed = [r for r in results if isinstance(r, BaseException)]
    assert len(failed) == 1 and isinstance(failed[0], asyncpg.DeadlockDetectedError), results
    assert sum(w.stats.redone for w in writers) == 1  # the victim's batch was run again
    assert results[0] == "t0" and results[2] == "t1"  # the first writes of both batches committed
    versions = await stored(postgres_url)
    assert sorted(v for v, _ in versions.values()) == [1, 2]  # three updates made, the victim's not


async def test_a_commit_rolled_back_by_a_deadlock_is_a_version_conflict(store: PostgresStore) -> None:
    assert store.writer is not None
    real = store.writer.write

    async def deadlocked(work: object, announce: str | None = None) -> object:
        raise asyncpg.DeadlockDetectedError("deadlock detected")

    store.writer.write = deadlocked  # type: ignore[assignment,method-assign]
    with pytest.raises(VersionConflict):
        await store.commit(*moved(0), make_entries("t0", 1, 1))
    store.writer.write = real  # type: ignore[method-assign]
    assert (await store.commit(*moved(0), make_entries("t0", 1, 1))).version == 1  # a retry goes through


async def test_a_batch_in_flight_does_not_hold_up_the_next(store: PostgresStore) -> None:
    # Batches wait mostly for the server; the next one runs meanwhile, on a connection of its own.
    assert store.writer is not None
    first_at_commit, release = asyncio.Event(), asyncio.Event()

    async def hold_the_first(db: asyncpg.Connection) -> None:
        if not first_at_commit.is_set():
            first_at_commit.set()
            await release.wait()

    store.writer.before_commit = hold_the_first
    first = asyncio.create_task(store.commit(*moved(0), make_entries("t0", 1, 1)))
    await first_at_commit.wait()
    assert (await store.commit(*moved(1), make_entries("t1", 1, 1))).version == 1  # done while t0 waits
    assert not first.done()
    release.set()
    assert (await first).version == 1
    assert await stored(store.url) == {**{f"t{i}": (0, 0) for i in range(2, N)}, "t0": (1, 1), "t1": (1, 1)}


async def test_a_commit_is_one_statement_with_its_log_key_and_claim(store: PostgresStore) -> None:
    # Round trips are what the server's CPU goes to at saturation: a commit's guard, log entries,
    # key and claim travel in one statement, a batch has no savepoints while nothing fails inside
    # the database, one NOTIFY tells the batch's tables, and the connection goes back to the pool without a reset query.
    assert store.writer is not None
    await store.writer.close()
    pool = await asyncpg.create_pool(store.url, min_size=1, max_size=1, reset=keep_session)
    try:
        store.writer = PgGroupWriter(pool)  # its batches run on the pool's only connection
        store.writer.open()
        await store.commit(*moved(0), make_entries("t0", 1, 2))  # asyncpg looks the column types up once
        sent: list[str] = []
        async with pool.acquire() as db:
            db.add_query_logger(lambda q: sent.append(q.query.split(None, 1)[0]))
        saved = await asyncio.gather(*(store.commit(*moved(i), make_entries(f"t{i}", 1, 2), key=f"k{i}",
                                                    claim=ClaimWrite(owner="p1", until=2_000.0))
                                       for i in range(1, N)))
        await store.writer.close()
    finally:
        await pool.close()
    assert [r.version for r in saved] == [1] * (N - 1)
    assert await stored(store.url) == {f"t{i}": (1, 2) for i in range(N)}
    # The batch tells the change feed of its tables in one NOTIFY (a SELECT pg_notify) before COMMIT.
    assert sent == ["BEGIN;", *(["WITH"] * (N - 1)), "SELECT", "COMMIT;"], sent
