"""Where the automatic moves are computed: in worker processes, off the event loop.

An AI's thinking (the Rummikub solver: tens of milliseconds) run on the event loop holds up every
other table's work for that long. `AiPool(workers)` runs `play_automatic` (a pure function of its
job, bot/core/automoves.py) in a `ProcessPoolExecutor` through `loop.run_in_executor`, so the loop
only pickles the job and its answer. `workers=0` computes inline, on the loop: the tests' default
(deterministic and quick), and the same answers, since a job's moves depend on the job only.

A worker that dies (killed, out of memory) breaks the whole executor: it is replaced and the job
run again in the new one; if that one breaks too, the job is computed inline, so a table never
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
from typing import Any, TypeVar

from bot.core.automoves import AutoJob, AutoRun, play_automatic, views_of
from rules import State

T = TypeVar("T")

log = logging.getLogger(__name__)

Work = Callable[[AutoJob], AutoRun]


class AiPool:
    def __init__(self, workers: int = 0, work: Work = play_automatic) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (inline) or more")
        self.workers = workers
        self._work = work  # a module-level function: the workers unpickle it by name
        self._executor: ProcessPoolExecutor | None = None
        self.replaced = 0  # executors replaced after a worker died (for tests and logs)

    def _pool(self) -> ProcessPoolExecutor:
        # Started on first use: a bot whose tables have no AI seat never spawns a worker.
        if self._executor is None:
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        # Every job in flight on a broken executor fails at once: only the first replaces it.
        if self._executor is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._executor = None
            self.replaced += 1

    async def run(self, job: AutoJob) -> AutoRun:
        """The automatic moves of `job` (`play_automatic`)."""
        return await self._call(self._work, job)

    async def views(self, game: str, state: State, humans: tuple[int, ...]
                    ) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
        """An outcome's views (`views_of`), built in a worker too: for some games as dear as a move."""
        return await self._call(views_of, game, state, humans)

    async def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self.workers == 0:
            return fn(*args)
        loop = asyncio.get_running_loop()
        for _ in range(2):
            executor = self._pool()
            try:
                return await loop.run_in_executor(executor, fn, *args)
            except BrokenProcessPool:
                log.warning("an AI worker died; its job runs again in a new pool")
                self._replace(executor)
        log.error("the AI pool keeps breaking; this job is computed inline")
        return fn(*args)

    def close(self) -> None:
        """Stop the workers (their jobs' tables are claimed: another run continues them)."""
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None
