"""Killing a process at a chosen point, for the exactly-once tests: a store that dies at one call."""

from __future__ import annotations

import inspect
from typing import Any

from storage import Store


class Died(Exception):
    """The process is gone: raised by the dying store at its chosen call and by every call after."""


class DyingStore:
    """Forwards to a real store. Once armed, call number `at` (counted from the start) dies before it
    runs (`after=False`) or just after it took effect (`after=True`: the COMMIT happened but nobody
    heard of it); every later call dies too, so nothing more is written — as if the process had been
    killed at that point. Unarmed (`at=0`) it only counts."""

    def __init__(self, inner: Store, at: int = 0, after: bool = False) -> None:
        self.inner, self.at, self.after = inner, at, after
        self.calls = 0
        self.dead = False

    def arm(self, steps_from_now: int, after: bool) -> None:
        self.at, self.after = self.calls + steps_from_now, after

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not inspect.iscoroutinefunction(attr):
            return attr

        async def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            number = self.calls  # its own: calls of other tasks may start while this one runs
            if self.dead or (number == self.at and not self.after):
                self.dead = True
                raise Died(name)
            result = await attr(*args, **kwargs)
            if number == self.at:
                self.dead = True
                raise Died(name)
            return result

        return call
