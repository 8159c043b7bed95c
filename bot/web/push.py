"""Who is watching which table: the open pages' streams, woken after every commit of their table.

The hub only says "table t changed"; each page's stream then builds its own seat's view, so no page
is ever sent a view built for another seat. Wake-ups coalesce: a page that is still sending the
previous change gets one more wake-up, not a queue of every intermediate commit."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from storage import TableRecord


@dataclass
class Hub:
    _watchers: dict[str, set[asyncio.Event]] = field(default_factory=dict)
    closed: bool = False

    def close(self) -> None:
        """The server is stopping: every stream ends now instead of waiting for its next heartbeat."""
        self.closed = True
        for watchers in self._watchers.values():
            for wake in watchers:
                wake.set()

    def changed(self, rec: TableRecord) -> None:
        """A service commit listener: wake every page of the table."""
        for wake in self._watchers.get(rec.id, ()):
            wake.set()

    @contextmanager
    def watch(self, table_id: str) -> Iterator[asyncio.Event]:
        wake = asyncio.Event()
        self._watchers.setdefault(table_id, set()).add(wake)
        try:
            yield wake
        finally:
            watchers = self._watchers.get(table_id, set())
            watchers.discard(wake)
            if not watchers:
                self._watchers.pop(table_id, None)

    def watching(self, table_id: str) -> int:
        return len(self._watchers.get(table_id, ()))
