"""Who is watching which table: the open pages' streams, woken after every commit of their table —
this process's commits through the service's listener, other processes' through the store's change
feed (storage/feed.py) — and the table an ended one's pages move on to.

The hub only says "table t changed" and counts the table's changes (its generation); each page's
stream then sends its own seat's view (shared by the pages of the same seat: bot/web/frames.py), so
no page is ever sent a view built for another seat. Wake-ups coalesce: a page that is still sending
the previous change gets one more wake-up, not a queue of every intermediate commit.

A table watched by thousands must not hold the loop for all of them at once: the hub first lets
`prepare` do the shared work of the change (read the table once, build one event per seat and
language watching: bot/web/frames.py), and only then wakes the pages, WAKE_BATCH per turn of the
event loop — each finds its event ready and only writes it. (Waking them first would have them all
wait on the one read, then all resume in the same turn of the loop.)"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import Awaitable, Callable, Collection, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from bot.core.models import Player
from bot.core.service import TableService
from storage import Store, TableRecord

ENDED = ("finished", "abandoned")
WAKE_BATCH = 50


Prepare = Callable[[str, int, set[Hashable]], Awaitable[None]]


@dataclass
class Hub:
    prepare: Prepare | None = None  # (table, generation, the watchers' keys): the shared work of a change
    _watchers: dict[str, dict[asyncio.Event, Hashable]] = field(default_factory=dict)
    _generations: Counter[str] = field(default_factory=Counter)
    _preparing: set[asyncio.Task[None]] = field(default_factory=set)
    closed: bool = False

    def close(self) -> None:
        """The server is stopping: every stream ends now instead of waiting for its next heartbeat."""
        self.closed = True
        for task in self._preparing:
            task.cancel()
        for watchers in self._watchers.values():
            for wake in watchers:
                wake.set()

    def changed(self, rec: TableRecord) -> None:
        """A service commit listener: wake every page of the table, and the pages of the match it is a
        rematch of (they move on to it)."""
        self.wake(rec.id)
        if isinstance(before := rec.meta.get("rematch_of"), str):
            self.wake(before)

    def wake(self, table_id: str) -> None:
        """The change feed's callback: a commit of the table, made by any process."""
        watchers = self._watchers.get(table_id)
        if not watchers:
            return
        self._generations[table_id] += 1
        if self.prepare is None:
            self._wake_batches(list(watchers))
            return
        task = asyncio.create_task(self._prepare_then_wake(table_id, self._generations[table_id]))
        self._preparing.add(task)
        task.add_done_callback(self._preparing.discard)

    async def _prepare_then_wake(self, table_id: str, generation: int) -> None:
        assert self.prepare is not None
        # A failure here is not lost: each page then does the work itself and meets the error there.
        with contextlib.suppress(Exception):
            await self.prepare(table_id, generation, set(self._watchers.get(table_id, {}).values()))
        self._wake_batches(list(self._watchers.get(table_id, ())))

    def _wake_batches(self, events: list[asyncio.Event]) -> None:
        for wake in events[:WAKE_BATCH]:
            wake.set()
        if len(events) > WAKE_BATCH:
            asyncio.get_running_loop().call_soon(self._wake_batches, events[WAKE_BATCH:])

    def generation(self, table_id: str) -> int:
        """How many times the table's pages were woken: a read made after a wake-up is fresh for it."""
        return self._generations[table_id]

    def tables(self) -> Collection[str]:
        """The tables with an open page: what the change feed watches."""
        return self._watchers.keys()

    @contextmanager
    def watch(self, table_id: str, key: Hashable = None) -> Iterator[asyncio.Event]:
        """A page of the table; `key` names what it is sent (its seat and language), for `prepare`."""
        wake = asyncio.Event()
        self._watchers.setdefault(table_id, {})[wake] = key
        try:
            yield wake
        finally:
            watchers = self._watchers.get(table_id, {})
            watchers.pop(wake, None)
            if not watchers:
                self._watchers.pop(table_id, None)
                self._generations.pop(table_id, None)

    def watching(self, table_id: str) -> int:
        return len(self._watchers.get(table_id, ()))


async def successor(store: Store, rec: TableRecord, player: Player | None) -> tuple[TableRecord, int | None] | None:
    """Where the page of an ended table goes next: the chat's new table when it is a rematch of this
    one or (a player's page) any new table of the chat the player sits at, with the player's seat
    there; a spectator follows a rematch only. None while the table is in play or nothing follows."""
    if rec.status not in ENDED:
        return None
    nxt = await store.active_table_for_chat(rec.platform, rec.chat_id, rec.topic_id)
    if nxt is None or nxt.id == rec.id or nxt.created_at < rec.created_at:
        return None
    if player is None:
        return (nxt, None) if nxt.meta.get("rematch_of") == rec.id else None
    seat = TableService.seat_of(nxt, player)
    return None if seat is None else (nxt, seat)
