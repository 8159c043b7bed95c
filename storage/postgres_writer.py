"""Group commit for PostgresStore: the table writes that arrive together share one transaction.

With one transaction per write, each pays its BEGIN and COMMIT round trips and waits for its own
WAL flush; hundreds of tables moving at once then queue for the pool's connections and the disk.
Here the writes queued meanwhile run in one transaction on one connection, each inside its own
SAVEPOINT: one that raises (a stale version, a repeated key, a lost race on a unique index) is
rolled back alone — its row locks with it — and raised to its own caller, while the others
commit. Nobody is answered before the COMMIT: when the COMMIT itself fails every caller of the
batch gets that error, never a success for something not stored.

Up to `IN_FLIGHT` batches run at once, each on a connection of its own: a batch spends most of its
time waiting for the server's answers to its statements one after the other, and one batch at a
time left the process idle meanwhile (measured: 76 % of a core at saturation). Batches in flight
together never hold the same table: the table service commits a table one change at a time.
A deadlock with another process's batch (two batches locking the same tables in opposite orders)
fails only the savepoint PostgreSQL picked, and only its caller (the store turns it into a
`VersionConflict`, which every caller already answers by reading the table again and retrying).
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

MAX_BATCH = 256  # writes per transaction: bounds how long one batch holds its row locks
IN_FLIGHT = 3  # batches at once, a pool connection each (the pool holds POOL_MAX)


@dataclass
class PgWriterStats:
    """What the writer did, for benches and tests."""

    batches: int = 0
    writes: int = 0
    largest_batch: int = 0


class PgGroupWriter:
    """Runs `Work` coroutines (given the batch's connection) in shared transactions; see the module doc.

    `before_commit`, for tests, runs after the batch's writes and before its COMMIT (raising there
    is a failing COMMIT)."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self._pool = pool
        self.before_commit: Callable[[asyncpg.Connection], Awaitable[None]] | None = None
        self.stats = PgWriterStats()
        self._queue: JobQueue[Work[Any]] = JobQueue()
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._slots = asyncio.Semaphore(IN_FLIGHT)
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

    async def write(self, work: Work[T]) -> T:
        """Run `work` in the next shared transaction; its result (or its error) once COMMIT is done."""
        if self._task is None or self._closing:
            raise RuntimeError("PostgresStore is not open; await store.open() first")
        result: T = await self._queue.put(work)
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
        outcomes: list[tuple[bool, Any]] = []
        try:
            async with self._pool.acquire() as db, db.transaction():
                for job in batch:
                    try:
                        async with db.transaction():  # a SAVEPOINT: its error undoes only its own statements
                            value = await job.work(db)
                    except Exception as err:
                        outcomes.append((False, err))
                    else:
                        outcomes.append((True, value))
                if self.before_commit is not None:
                    await self.before_commit(db)
        except Exception as err:  # BEGIN or COMMIT failed: nothing of the batch is stored
            fail(batch, err)
            return
        self.stats.batches += 1
        self.stats.writes += len(batch)
        self.stats.largest_batch = max(self.stats.largest_batch, len(batch))
        settle(batch, outcomes)
