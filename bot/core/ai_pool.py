"""Where the automatic moves are computed: in worker processes, off the event loop.

An AI's thinking (the Rummikub solver: tens of milliseconds) run on the event loop holds up every
other table's work for that long. `AiPool(workers)` runs `play_automatic` (a pure function of its
job, bot/core/automoves.py) in a `ProcessPoolExecutor` through `loop.run_in_executor`, so the loop
only pickles the job and its answer. `workers=0` computes inline, on the loop: the tests' default
(deterministic and quick), and the same answers, since a job's moves depend on the job only.

The jobs that arrive while the workers are busy go together, as one call (`run_batch`), like the
store's group commit: every call crosses the executor's own threads, which wait for the GIL the
busy loop holds (up to the switch interval, 5 ms, per crossing); one call per job left a worker
idle most of the time under load while hundreds of jobs queued.

A worker that dies (killed, out of memory) breaks the whole executor: it is replaced and the batch
run again in the new one; if that one breaks too, the batch is computed inline, so a table never
waits on a pool that cannot work. Workers are spawned, not forked: the bot process runs threads
(aiosqlite's, asyncpg's) that a fork would copy mid-lock.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot.core.automoves import AutoJob, AutoRun, play_automatic, views_of
from rules import State

log = logging.getLogger(__name__)

Work = Callable[[AutoJob], AutoRun]
Call = tuple[Callable[..., Any], tuple[Any, ...]]
BATCH_MAX = 64  # jobs per call: bounds how long the first of them waits for the last


def run_batch(calls: list[Call]) -> list[tuple[bool, Any]]:
    """Each call's (ok, result or exception), in order: one job's failure is its own."""
    out: list[tuple[bool, Any]] = []
    for fn, args in calls:
        try:
            out.append((True, fn(*args)))
        except Exception as err:  # handed to that job's awaiter
            out.append((False, err))
    return out


class AiPool:
    def __init__(self, workers: int = 0, work: Work = play_automatic) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (inline) or more")
        self.workers = workers
        self._work = work  # a module-level function: the workers unpickle it by name
        self._executor: ProcessPoolExecutor | None = None
        self._queued: list[tuple[Call, asyncio.Future[Any]]] = []
        # Batches handed to the executor: one per worker and one more, ready for the first worker free.
        self._in_flight = 0
        self.replaced = 0  # executors replaced after a worker died (for tests and logs)

    def _pool(self) -> ProcessPoolExecutor:
        # Started on first use: a bot whose tables have no AI seat never spawns a worker.
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        # Every batch in flight on a broken executor fails at once: only the first replaces it.
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            self.replaced += 1

    async def run(self, job: AutoJob) -> AutoRun:
        """The automatic moves of `job` (`play_automatic`)."""
        result: AutoRun = await self.call(self._work, job)
        return result

    async def views(self, game: str, state: State, humans: tuple[int, ...]
                    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """An outcome's views (`views_of`), built in a worker too: for some games as dear as a move."""
        result: tuple[dict[str, Any], dict[int, dict[str, Any]]] = await self.call(views_of, game, state, humans)
        return result

    async def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        """`fn(*args)` in a worker, batched with the calls queued meanwhile: a module-level, pure `fn`."""
        if self.workers == 0:
            return fn(*args)
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append(((fn, args), done))
        self._dispatch()
        return await done

    def _dispatch(self) -> None:
        while self._queued and self._in_flight <= self.workers:
            batch, self._queued = self._queued[:BATCH_MAX], self._queued[BATCH_MAX:]
            self._in_flight += 1
            asyncio.ensure_future(self._run(batch))

    async def _run(self, batch: list[tuple[Call, asyncio.Future[Any]]]) -> None:
        try:
            results = await self._batch([call for call, _ in batch])
        except Exception as err:  # the executor itself failed: every job of the batch with it
            results = [(False, err)] * len(batch)
        finally:
            self._in_flight -= 1
            self._dispatch()  # the next batch (those that queued meanwhile) goes at once
        for (_, done), (ok, value) in zip(batch, results, strict=True):
            if done.done():
                continue  # its awaiter was cancelled
            if ok:
                done.set_result(value)
            else:
                done.set_exception(value)

    async def _batch(self, calls: list[Call]) -> list[tuple[bool, Any]]:
        loop = asyncio.get_running_loop()
        for _ in range(2):
            executor = self._pool()
            try:
                return await loop.run_in_executor(executor, run_batch, calls)
            except BrokenProcessPool:
                log.warning("an AI worker died; its jobs run again in a new pool")
                self._replace(executor)
        log.error("the AI pool keeps breaking; these jobs are computed inline")
        return run_batch(calls)

    def close(self) -> None:
        """Stop the workers (their jobs' tables are claimed: another run continues them)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
