"""Group commit for SqliteStore: every write of the process goes through one writer connection.

Writes that arrive together (different tables, different callers) are run in one BEGIN IMMEDIATE …
COMMIT, in one call to the writer's thread: one round trip and one fsync-worth of WAL for the lot
instead of several per write. Each write runs in its own SAVEPOINT, so one that raises (a stale
version, a repeated key) is rolled back alone and raised to its own caller while the others commit.
Nobody is answered before the COMMIT: a caller whose write was rolled back by a failing COMMIT gets
that error, never a success for something not stored.

WAL checkpoints are taken off the request path: the writer connection never checkpoints inside a
COMMIT (wal_autocheckpoint=0); a third connection, on its own thread, runs PASSIVE checkpoints
while writes go on, and the writer copies only what was written meanwhile (between two batches),
so that the WAL can start over. Should the WAL still outgrow `wal_limit_bytes` (a PASSIVE checkpoint cannot
finish while writes keep arriving), the writer truncates it between two batches: bounded either way.

A small batch whose write lock is free this very instant runs on the event loop's own thread
(`INLINE_MAX`): its transaction costs tens of microseconds, less than the two thread hand-offs
(each waiting for the GIL and, on a busy machine, for a core) it would otherwise take; measured
at a fixed 150 moves/s with 1 000 tables, 13 % less process CPU and p99 15 ms instead of 18. The
lock is tried without waiting (busy_timeout 0 for that BEGIN only): when another process holds it,
or the batch is large, the batch goes to the writer's thread, which waits as long as busy_timeout.

Only the standard library's sqlite3 and concurrent.futures: aiosqlite offers no public way to run
a function of our own on its thread, and this connection never runs anything but our batches.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

from storage.group_queue import JobQueue, fail, settle

T = TypeVar("T")
log = logging.getLogger(__name__)
Work = Callable[[sqlite3.Connection], T]

MAX_BATCH = 512  # writes per transaction: bounds how long one COMMIT keeps the others waiting
INLINE_MAX = 32  # larger batches go to the writer's thread: the loop is not held for all of them
CHECKPOINT_EVERY = 250  # writes between two background checkpoints (~4 MB of WAL, as SQLite's own default)
WAL_LIMIT_BYTES = 64 * 1024 * 1024  # the WAL is truncated by the writer itself past this size


@dataclass
class WriterStats:
    """What the writer did, for benches and tests."""

    batches: int = 0
    writes: int = 0
    checkpoints: int = 0  # background PASSIVE checkpoints run
    tails: int = 0  # short PASSIVE checkpoints of the frames written during a background one
    forced: int = 0  # WAL truncations the writer had to do itself
    largest_batch: int = 0
    wal_high_water: int = 0  # the largest WAL file size seen after a batch
    inline: int = 0  # batches run on the event loop's thread (the rest: on the writer's)


def _connect(path: str, busy_timeout_ms: int) -> sqlite3.Connection:
    # isolation_level=None: sqlite3 opens no implicit transactions; the batch does BEGIN/COMMIT.
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {busy_timeout_ms}")
    conn.execute("PRAGMA synchronous = NORMAL")  # under WAL: survives app crashes, see SqliteStore
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


class GroupWriter:
    """Runs `Work` functions (sync, given the connection) in shared transactions; see the module doc.

    `before_commit`, for tests, runs on the writer thread after the batch's writes and before its
    COMMIT (raising there is a failing COMMIT); while it is set, every batch runs on that thread, so
    the hook may block."""

    def __init__(self, path: str, busy_timeout_ms: int, *, checkpoint_every: int = CHECKPOINT_EVERY,
                 wal_limit_bytes: int = WAL_LIMIT_BYTES) -> None:
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self.checkpoint_every = checkpoint_every
        self.wal_limit_bytes = wal_limit_bytes
        self.before_commit: Callable[[sqlite3.Connection], None] | None = None
        self.stats = WriterStats()
        self._conn: sqlite3.Connection | None = None
        self._checkpointer: sqlite3.Connection | None = None
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-writer")
        self._ckpt_thread = ThreadPoolExecutor(1, thread_name_prefix="sqlite-checkpoint")
        self._queue: JobQueue[Work[Any]] = JobQueue()
        self._task: asyncio.Task[None] | None = None
        self._ckpt: asyncio.Future[None] | None = None
        self._since_ckpt = 0
        self._closing = False

    async def open(self) -> None:
        loop = asyncio.get_running_loop()
        self._conn = await loop.run_in_executor(self._thread, self._open_writer)
        self._checkpointer = await loop.run_in_executor(
            self._ckpt_thread, _connect, self.path, self.busy_timeout_ms)
        self._task = asyncio.create_task(self._run(), name="sqlite-group-commit")

    def _open_writer(self) -> sqlite3.Connection:
        conn = _connect(self.path, self.busy_timeout_ms)
        conn.execute("PRAGMA wal_autocheckpoint = 0")  # never inside a player's COMMIT
        # After a checkpoint lets the WAL start over, keep at most this much of the old file.
        conn.execute(f"PRAGMA journal_size_limit = {self.wal_limit_bytes // 4}")
        return conn

    async def close(self) -> None:
        if self._task is not None:
            # Writes already queued are made (and answered) before the connection closes.
            self._closing = True
            self._queue.wake.set()
            task, self._task = self._task, None
            await task
        if self._ckpt is not None:
            await asyncio.shield(self._ckpt)
        loop = asyncio.get_running_loop()
        if self._checkpointer is not None:
            conn, self._checkpointer = self._checkpointer, None
            await loop.run_in_executor(self._ckpt_thread, conn.close)
        if self._conn is not None:
            conn, self._conn = self._conn, None
            await loop.run_in_executor(self._thread, conn.close)
        self._thread.shutdown(wait=True)
        self._ckpt_thread.shutdown(wait=True)

    async def write(self, work: Work[T]) -> T:
        """Run `work` in the next shared transaction; its result (or its error) once COMMIT is done."""
        if self._task is None or self._closing:
            raise RuntimeError("SqliteStore is not open; await store.open() first")
        result: T = await self._queue.put(work)
        return result

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while not (self._closing and not self._queue):
            await self._queue.wake.wait()
            self._queue.wake.clear()
            while self._queue:
                batch = self._queue.take(MAX_BATCH)
                if not batch:
                    continue
                works = [j.work for j in batch]
                try:
                    if len(works) <= INLINE_MAX and self.before_commit is None and self._begin_now():
                        outcomes = self._writes(works)
                        self.stats.inline += 1
                    else:
                        outcomes = await loop.run_in_executor(self._thread, self._transact, works)
                except Exception as err:  # BEGIN or COMMIT failed: nothing of the batch is stored
                    fail(batch, err)
                    continue
                settle(batch, outcomes)
                try:
                    await self._after_batch(loop, len(batch))
                except sqlite3.Error:
                    # A checkpoint that could not run now (another process's reader): retried later.
                    log.warning("WAL checkpoint skipped", exc_info=True)

    def _begin_now(self) -> bool:
        """BEGIN IMMEDIATE on the calling (loop) thread if the write lock is free now; never waits."""
        conn = self._conn
        assert conn is not None
        conn.execute("PRAGMA busy_timeout = 0")
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as err:
            if err.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False  # another process is writing: the writer's thread waits for it
            raise
        finally:
            conn.execute(f"PRAGMA busy_timeout = {self.busy_timeout_ms}")
        return True

    def _transact(self, works: list[Work[Any]]) -> list[tuple[bool, Any]]:
        """On the writer thread: BEGIN (waiting for another process's write lock up to
        busy_timeout), then the batch."""
        assert self._conn is not None
        self._conn.execute("BEGIN IMMEDIATE")  # the write lock up front, as a read-check-write needs
        return self._writes(works)

    def _writes(self, works: list[Work[Any]]) -> list[tuple[bool, Any]]:
        """Inside the BEGIN IMMEDIATE just made: one savepoint per write, then COMMIT."""
        conn = self._conn
        assert conn is not None
        outcomes: list[tuple[bool, Any]] = []
        try:
            for work in works:
                conn.execute("SAVEPOINT write")
                try:
                    value = work(conn)
                except Exception as err:
                    # Raises again (and so fails the batch) if the error ended the whole transaction.
                    conn.execute("ROLLBACK TO write")
                    conn.execute("RELEASE write")
                    outcomes.append((False, err))
                else:
                    conn.execute("RELEASE write")
                    outcomes.append((True, value))
            if self.before_commit is not None:
                self.before_commit(conn)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        self.stats.batches += 1
        self.stats.writes += len(works)
        self.stats.largest_batch = max(self.stats.largest_batch, len(works))
        return outcomes

    async def _after_batch(self, loop: asyncio.AbstractEventLoop, written: int) -> None:
        wal = self._wal_size()
        self.stats.wal_high_water = max(self.stats.wal_high_water, wal)
        if wal > self.wal_limit_bytes:
            # The background checkpoints fell behind: truncate here, between batches, so the file
            # stays bounded (TRUNCATE waits for readers through busy_timeout, never for writers).
            await loop.run_in_executor(self._thread, self._truncate)
            self.stats.forced += 1
            self._since_ckpt = 0
            return
        if self._ckpt is not None and self._ckpt.done():
            # The background checkpoint copied the bulk while we went on writing; copying the few
            # frames written meanwhile, here between batches, leaves the WAL fully backfilled, so
            # our next BEGIN starts it over from the top (journal_size_limit then trims the file).
            # Without this step a busy writer never lets the WAL restart and it grows for ever.
            self._ckpt.result()
            self._ckpt = None
            await loop.run_in_executor(self._thread, self._tail)
        self._since_ckpt += written
        if self._since_ckpt >= self.checkpoint_every and self._ckpt is None:
            self._since_ckpt = 0
            self._ckpt = loop.run_in_executor(self._ckpt_thread, self._passive)

    def _wal_size(self) -> int:
        try:
            return os.path.getsize(self.path + "-wal")
        except OSError:
            return 0

    def _truncate(self) -> None:
        assert self._conn is not None
        self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()

    def _tail(self) -> None:
        assert self._conn is not None
        self._conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        self.stats.tails += 1

    def _passive(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
            self.stats.checkpoints += 1
