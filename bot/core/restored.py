"""Restored tables re-rendered in the background after a start.

A restart resumes every table in play (`TableService.resume_all`, a fraction of a second for a
thousand) and each adapter then shows each table again ("game restored"). That render builds the
tables' views, about a millisecond a table, so a thousand tables would hold up polling, and every
player's move, for a second. Instead, the bot takes moves as soon as the tables are resumed and
renders the restored ones in a task beside them. This is safe because both adapters drop content
rendered from a table version older than the one they last showed (the Telegram outbox's slots,
Discord's delivery state). A restored render that comes after a newer move's render is skipped."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.core.models import Outcome

log = logging.getLogger(__name__)


class RestoredRender:
    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self, outcomes: Sequence[Outcome], render: Callable[[Outcome], Awaitable[None]]) -> None:
        self._task = asyncio.create_task(self._run(list(outcomes), render), name="restored-render")

    @staticmethod
    async def _run(outcomes: list[Outcome], render: Callable[[Outcome], Awaitable[None]]) -> None:
        for outcome in outcomes:
            try:
                await render(outcome)
            except Exception:  # one table's failure must not keep the others unrendered
                log.exception("restoring table %s failed", outcome.table.id)
            await asyncio.sleep(0)  # a player's update waits behind one table's render at most

    async def wait(self) -> None:
        """Until every restored table has been rendered (tests; an orderly shutdown)."""
        if self._task is not None:
            await asyncio.shield(self._task)

    async def stop(self) -> None:
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
