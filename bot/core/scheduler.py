"""One task that enforces turn deadlines and lobby expiry for every table of the process.

Deadlines live in storage, so a restarted process picks them up on its first tick. Sleeping is
injected: tests call `run_once()` after moving a fake clock and never wait on the wall clock.
Adapters start the scheduler once their tables are resumed, which makes its start the moment the
process is set up: the heap built so far is frozen then (bot/core/heap.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from bot.core.heap import freeze_startup_heap
from bot.core.models import Outcome, StoreUnavailable
from bot.core.service import TableService

log = logging.getLogger(__name__)

OnOutcomes = Callable[[list[Outcome]], Awaitable[None]]
Sleep = Callable[[float], Awaitable[None]]


FORGET_EVERY_S = 3600.0  # old idempotency keys and update ids go once an hour (by the service's clock)


class Scheduler:
    def __init__(
        self,
        service: TableService,
        interval_s: float,
        on_outcomes: OnOutcomes,
        sleep: Sleep = asyncio.sleep,
        platforms: tuple[str, ...] = (),
    ) -> None:
        self.service = service
        self.interval_s = interval_s
        self.on_outcomes = on_outcomes
        self._sleep = sleep
        self.platforms = platforms  # whose old update ids this process forgets
        self._task: asyncio.Task[None] | None = None
        self._forgot_at: float | None = None
        self._stopping = False
        self._ticking = False
        self.ticks = 0

    async def run_once(self) -> list[Outcome]:
        """One tick: apply every passed deadline, then let the adapter render what happened; once
        an hour, forget what is too old to be redelivered."""
        outcomes = await self.service.tick()
        self.ticks += 1
        if outcomes:
            await self.on_outcomes(outcomes)
        now = self.service.clock.now()
        if self._forgot_at is None or now - self._forgot_at >= FORGET_EVERY_S:
            self._forgot_at = now
            await self.service.forget_old(self.platforms)
        return outcomes

    async def run(self) -> None:
        while not self._stopping:
            self._ticking = True
            try:
                await self.run_once()
            except asyncio.CancelledError:
                raise
            except StoreUnavailable as err:  # nothing was done; what is due stays due for the next tick
                log.warning("tick skipped, the store is unreachable: %s", err.params.get("detail", ""))
            except Exception:  # one bad table must not stop the clock for every other table
                log.exception("scheduler tick failed")
            finally:
                self._ticking = False
            if not self._stopping:
                await self._sleep(self.interval_s)

    def start(self) -> asyncio.Task[None]:
        if self._task is None or self._task.done():
            freeze_startup_heap()
            self._stopping = False
            self._task = asyncio.create_task(self.run(), name="rummyclub-scheduler")
        return self._task

    async def stop(self, grace_s: float = 0.0) -> None:
        """Stop ticking. A tick under way may finish within `grace_s`; past that it is cancelled,
        which hands its tables back (their claims released, their turns played at the next start)."""
        if self._task is not None:
            self._stopping = True
            if self._ticking and grace_s > 0:
                await asyncio.wait({self._task}, timeout=grace_s)
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
