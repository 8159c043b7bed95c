"""A store whose chosen calls fail as an unreachable database fails, for the fault tests (ISSUE 24)."""

from __future__ import annotations

import inspect
import sqlite3
from typing import Any

import asyncpg

from storage import MemoryStore, PostgresStore, SqliteStore, Store


def outage_error(store: Store) -> Exception:
    """What the backend raises when its database is out of reach (a fresh instance each time)."""
    if isinstance(store, PostgresStore):
        return asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation")
    if isinstance(store, SqliteStore):
        return sqlite3.OperationalError("database is locked")
    assert isinstance(store, MemoryStore)
    return ConnectionResetError("connection reset by peer")


class FailingStore:
    """Forwards to a real store; `fail(method, times, skip)` makes the calls of `method` after the
    next `skip` ones fail `times` times, before they reach the store (nothing written) — or, with
    `after=True`, once they took effect (a COMMIT nobody heard of). Calls are counted per method."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self._plans: dict[str, list[tuple[int, int, bool]]] = {}  # method -> [(skip, times, after)]
        self.failed: list[str] = []

    def fail(self, method: str, times: int = 1, skip: int = 0, after: bool = False) -> None:
        self._plans.setdefault(method, []).append((skip, times, after))

    def _due(self, method: str) -> bool | None:
        """None: this call goes through; else whether it fails after taking effect."""
        plans = self._plans.get(method, [])
        if not plans:
            return None
        skip, times, after = plans[0]
        if skip > 0:
            plans[0] = (skip - 1, times, after)
            return None
        if times > 1:
            plans[0] = (0, times - 1, after)
        else:
            plans.pop(0)
        return after

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            after = self._due(name)
            if after is False:
                self.failed.append(name)
                raise outage_error(self.inner)
            result = await attr(*args, **kwargs)
            if after is True:
                self.failed.append(name)
                raise outage_error(self.inner)
            return result

        return call
