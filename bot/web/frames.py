"""The event a stream sends after a commit, built once and shared by every open page of the table:
one read of the table per wake-up of its pages, one `table` event per table version, seat and
language. Two thousand spectators of one table then cost one read and one build per commit, not
two thousand of each.

A read is shared only by the streams woken by the same commit (the hub's generation of the table),
so a stream never sends a table older than the commit that woke it. Shared work runs in its own
task, so a page that closes while waiting does not cancel it for the others."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable
from typing import Any, TypeVar

from bot.core.clock import Clock
from bot.core.presenter import Presenter
from bot.web.payload import payload
from bot.web.push import Hub
from bot.web.story import Story
from storage import Store, TableRecord

T = TypeVar("T")


def event(name: str, data: dict[str, Any]) -> bytes:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class Frames:
    def __init__(self, store: Store, presenter: Presenter, clock: Clock, hub: Hub, story: Story | None = None) -> None:
        self.store, self.presenter, self.clock, self.hub, self.story = store, presenter, clock, hub, story
        self._reads: dict[str, tuple[int, asyncio.Task[TableRecord | None]]] = {}
        self._events: dict[str, tuple[int, dict[tuple[int | None, str], asyncio.Task[bytes]]]] = {}
        self.builds = 0  # `table` events built (what the bench and the tests count)

    async def current(self, table_id: str) -> TableRecord | None:
        """The table for a page that opens: shared with the pages open on it, if any."""
        return await self.record(table_id, self.hub.generation(table_id))

    async def record(self, table_id: str, generation: int) -> TableRecord | None:
        """The table as read after the commit of `generation` (hub.generation), shared. Without an
        open page no commit is counted for the table (bot/web/push.py), so nothing is kept then:
        the store is read."""
        if not self.hub.watching(table_id):
            return await self.store.get_table(table_id)
        known = self._reads.get(table_id)
        if known is None or known[0] != generation or _failed(known[1]):
            known = (generation, asyncio.create_task(self.store.get_table(table_id)))
            self._reads[table_id] = known
        return await _shared(known[1])

    async def table_event(self, rec: TableRecord, seat: int | None, lang: str) -> bytes:
        """The `table` event of this version for this seat and language, shared."""
        if not self.hub.watching(rec.id):
            return await self._build(rec, seat, lang)
        version, built = self._events.get(rec.id, (-1, {}))
        if version != rec.version:
            if version > rec.version:  # a stream still on an older read: build it for that stream alone
                return await self._build(rec, seat, lang)
            version, built = rec.version, {}  # the older version's events are dropped
            self._events[rec.id] = (version, built)
        task = built.get((seat, lang))
        if task is None or _failed(task):
            task = built[(seat, lang)] = asyncio.create_task(self._build(rec, seat, lang))
        return await _shared(task)

    async def _build(self, rec: TableRecord, seat: int | None, lang: str) -> bytes:
        self.builds += 1
        return event("table", await payload(self.presenter, rec, seat, lang, now=self.clock.now(), story=self.story))

    async def prepare(self, table_id: str, generation: int, keys: set[Hashable]) -> None:
        """The hub's work before it wakes the pages of a change: the read, and the event of each
        (seat, language) watching, so the pages find them ready."""
        rec = await self.record(table_id, generation)
        if rec is None:
            return
        for key in keys:
            if isinstance(key, tuple) and len(key) == 2:
                seat, lang = key
                await self.table_event(rec, seat, lang)

    def forget(self, table_id: str) -> None:
        """The table's last page closed: nothing of it is kept."""
        self._reads.pop(table_id, None)
        self._events.pop(table_id, None)


async def _shared(task: asyncio.Task[T]) -> T:
    # shield: a waiter's cancellation (its page closed) must not cancel the work the others wait for.
    return await asyncio.shield(task)


def _failed(task: asyncio.Task[Any] | None) -> bool:
    """A shared read or build that failed is tried again by the next stream, not handed on."""
    return task is not None and task.done() and (task.cancelled() or task.exception() is not None)
