"""The queue both group-commit writers (sqlite_writer, postgres_writer) share: callers put a piece of
work and wait for its answer; the writer takes what has queued as one batch, runs it in one
transaction (a savepoint each on SQLite; on PostgreSQL only when a batch runs again), and answers
every caller only after the COMMIT — each with its own result or error, or all with the COMMIT's
error when it failed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

W = TypeVar("W")  # the work: a function of the writer's connection
T = TypeVar("T")
Outcome = tuple[bool, Any]  # (ok, the work's value or the error it raised)


@dataclass
class Job(Generic[W]):
    work: W
    future: asyncio.Future[Any]
    tag: str | None = None  # what the writer announces once the work is committed (a table id)


class JobQueue(Generic[W]):
    def __init__(self) -> None:
        self._jobs: list[Job[W]] = []
        self.wake = asyncio.Event()  # set when work arrives (or the writer is told to close)

    def __bool__(self) -> bool:
        return bool(self._jobs)

    async def put(self, work: W, tag: str | None = None) -> Any:
        """Queue `work`; its value (or its error) once its batch is committed."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._jobs.append(Job(work, future, tag))
        self.wake.set()
        return await future

    def take(self, limit: int) -> list[Job[W]]:
        """The next batch, without the work of callers that gave up before it started."""
        batch = [j for j in self._jobs[:limit] if not j.future.cancelled()]
        del self._jobs[:limit]
        return batch


def fail(batch: list[Job[W]], err: BaseException) -> None:
    """BEGIN or COMMIT failed: nothing of the batch is stored, every caller gets that error."""
    for job in batch:
        if not job.future.done():
            job.future.set_exception(err)


def settle(batch: list[Job[W]], outcomes: list[Outcome]) -> None:
    """The batch is committed: each caller gets its own work's value or error."""
    for job, (ok, value) in zip(batch, outcomes, strict=True):
        if job.future.done():
            continue  # its caller gave up; the write itself is stored
        if ok:
            job.future.set_result(value)
        else:
            job.future.set_exception(value)
