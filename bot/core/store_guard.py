"""The table service's store, its unreachable moments named: every call that fails because the store
cannot be reached right now (`storage.unavailable` decides which errors those are) raises
`StoreUnavailable` instead, a `ServiceError` every adapter already answers with a sentence ("your
move could not be saved — try again in a moment"). Nothing else changes: the call is the store's
own, its other errors pass as they are, and the service needs no restart once the store is back
(the stores reconnect by themselves: asyncpg's pool, SQLite's next transaction).

A wrapper rather than a try in each service method: the service reaches the store from some thirty
places (lobby, moves, clock work, stats), and an adapter's press must get the same answer whichever
of them met the outage.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, cast

from bot.core.models import StoreUnavailable
from storage import Store
from storage.unavailable import unavailable


class GuardedStore:
    def __init__(self, inner: Store) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr
        call = _guarded(attr)
        setattr(self, name, call)  # found directly from now on: no __getattr__ per call
        return call


def _guarded(method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return await method(*args, **kwargs)
        except StoreUnavailable:
            raise
        except Exception as err:
            if unavailable(err):
                raise StoreUnavailable(f"{type(err).__name__}: {err}") from err
            raise
    return call


def guarded(store: Store) -> Store:
    """`store` with its unreachable moments raised as `StoreUnavailable` (a guarded store as it is)."""
    return store if isinstance(store, GuardedStore) else cast(Store, GuardedStore(store))
