"""Group commit for PostgresStore: the table writes that arrive together share one transaction.

With one transaction per write, each pays its BEGIN and COMMIT round trips and waits for its own
WAL flush; hundreds of tables moving at once then queue for the pool's connections and the disk.
Here the writes queued meanwhile run in one transaction on one connection. Nobody is answered
before the COMMIT: when the COMMIT itself fails every caller of the batch gets that error, never a
success for something not stored.

A write that is refused fails alone, the others commit. Most refusals are found by reading, before
anything is written (a stale version, a repeated key: the store's commit raises `Refused`): the
transaction is intact and goes on. So a batch runs first without savepoints — a SAVEPOINT and its
RELEASE were two of a commit's three round trips, and at saturation round trips are what the
server's CPU goes to. Only when a write fails inside the database (a lost race on a unique index, a
deadlock), which aborts the whole transaction, is the batch rolled back and run again with a
SAVEPOINT per write, as it always was: the failed write keeps its error (it got it after the same
writes before it), the writes before it are made again, the later ones made for the first time.

Up to `IN_FLIGHT` batches run at once, each on a connection of its own: a batch spends most of its
time waiting for the server's answers to its statements one after the other, and one batch at a
time left the process idle meanwhile (measured: 76 % of a core at saturation). Batches in flight
together never hold the same table: the table service commits a table one change at a time.
A deadlock with another process's batch (two batches locking the same tables in opposite orders)
rolls back the batch PostgreSQL picked, which is run again as above: only the write that met the
deadlock fails, and only its caller (the store turns it into a `VersionConflict`, which every
caller already answers by reading the table again and retrying).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import asyncpg

from storage.group_queue import Job, JobQueue, fail, settle

T = TypeVar("T")
Work = Callable[[asyncpg.Connection], Awaitable[T]]

# The change feed (storage/postgres_feed.py): the ids of the tables a batch committed, told once per
# batch, before its COMMIT (so PostgreSQL delivers them only if it commits), joined by SEPARATOR and
# cut under NOTIFY's 8000-byte payload limit. One NOTIFY per batch instead of one per commit: a
# listener's wake-ups and the server's notification queue grow with batches, not with moves.
CHANNEL = "rummy_tables"
SEPARATOR = "\n"
PAYLOAD_BYTES = 7900

MAX_BATCH = 256  # writes per transaction: bounds how long one batch holds its row locks
IN_FLIGHT = 3  # batches at once, a pool connection each (fewer when the pool is smaller: PG_POOL_MAX)


@dataclass
class PgWriterStats:
    """What the writer did, for benches and tests."""

    batches: int = 0
    writes: int = 0
    largest_batch: int = 0
    redone: int = 0  # batches run again with savepoints after a write failed inside the database


class Refused(Exception):  # noqa: N818 - a refusal, passed on to the caller as `error`
    """Raised by a `Work` that refused before writing anything (it only read): the batch's
    transaction is intact and goes on; the write's caller gets `error`."""

    def __init__(self, error: Exception) -> None:
        super().__init__(error)
        self.error = error


class _Redo(Exception):  # noqa: N818 - not an error: the batch runs again
    """Write `index` failed inside the database with `error`, aborting the batch's transaction."""

    def __init__(self, index: int, error: Exception) -> None:
        super().__init__(index, error)
        self.index, self.error = index, error


def payloads(ids: list[str]) -> list[str]:
    """`ids` joined by SEPARATOR in as few payloads as NOTIFY's size limit allows."""
    out: list[str] = []
    size = PAYLOAD_BYTES
    for table_id in dict.fromkeys(ids):
        n = len(table_id.encode()) + 1
        if size + n > PAYLOAD_BYTES:
            out.append(table_id)
            size = n
        else:
            out[-1] += SEPARATOR + table_id
            size += n
    return out


class PgGroupWriter:
    """Runs `Work` coroutines (given the batch's connection) in shared transactions; see the module doc.

    `before_commit`, for tests, runs after the batch's writes and before its COMMIT (raising there
    is a failing COMMIT)."""

    def __init__(self, pool: asyncpg.Pool, in_flight: int = IN_FLIGHT) -> None:
        self._pool = pool
        self.before_commit: Callable[[asyncpg.Connection], Awaitable[None]] | None = None
        self.stats = PgWriterStats()
        self._queue: JobQueue[Work[Any]] = JobQueue()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._slots = asyncio.Semaphore(in_flight)
        self._running: set[asyncio.Task[None]] = set()

    def open(self) -> None:
        self._task = asyncio.create_task(self._run(), name="postgres-group-commit")

    async def close(self) -> None:
        if self._task is not None:
            # Writes already queued are made (and answered) before the pool closes.
            self._closing = True
            self._queue.wake.set()
            task, self._task = self._task, None
            await task

    async def write(self, work: Work[T], announce: str | None = None) -> T:
        """Run `work` in the next shared transaction; its result (or its error) once COMMIT is done.
        `announce`: a table id the change feed is told of when the work succeeded."""
        if self._task is None or self._closing:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        result: T = await self._queue.put(work, announce)
        return result

    async def _run(self) -> None:
        while not (self._closing and not self._queue):
            await self._queue.wake.wait()
            self._queue.wake.clear()
            while self._queue:
                await self._slots.acquire()  # meanwhile the queue fills: the next batch is larger
                batch = self._queue.take(MAX_BATCH)
                if not batch:
                    self._slots.release()
                    continue
                task = asyncio.create_task(self._batch(batch))
                self._running.add(task)
                task.add_done_callback(self._finished)
        if self._running:
            await asyncio.gather(*self._running)

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._running.discard(task)
        self._slots.release()

    async def _batch(self, batch: list[Job[Work[Any]]]) -> None:
        try:
            async with self._pool.acquire() as db:
                try:
                    outcomes = await self._attempt(db, batch)
                except _Redo as redo:  # rolled back: nothing of the first run is stored
                    self.stats.redone += 1
                    outcomes = await self._attempt(db, batch, failed=(redo.index, redo.error))
        except Exception as err:  # BEGIN or COMMIT failed: nothing of the batch is stored
            fail(batch, err)
            return
        self.stats.batches += 1
        self.stats.writes += len(batch)
        self.stats.largest_batch = max(self.stats.largest_batch, len(batch))
        settle(batch, outcomes)

    async def _attempt(self, db: asyncpg.Connection, batch: list[Job[Work[Any]]],
                       failed: tuple[int, Exception] | None = None) -> list[tuple[bool, Any]]:
        """The batch in one transaction: without savepoints (raising `_Redo` when a write fails
        inside the database), or with one per write once a first run `failed`."""
        outcomes: list[tuple[bool, Any]] = []
        async with db.transaction():
            for index, job in enumerate(batch):
                if failed is not None and index == failed[0]:
                    outcomes.append((False, failed[1]))
                    continue
                try:
                    if failed is None:
                        value = await job.work(db)
                    else:
                        async with db.transaction():  # a SAVEPOINT: its error undoes only its own statements
                            value = await job.work(db)
                except Refused as refused:
                    outcomes.append((False, refused.error))
                except Exception as err:
                    if failed is None:
                        raise _Redo(index, err) from err
                    outcomes.append((False, err))
                else:
                    outcomes.append((True, value))
            told = [job.tag for job, (ok, _) in zip(batch, outcomes, strict=True) if ok and job.tag is not None]
            if told:
                await db.execute(f"SELECT pg_notify('{CHANNEL}', p) FROM unnest($1::text[]) p", payloads(told))
            if self.before_commit is not None:
                await self.before_commit(db)
        return outcomes
