"""Bounded caches for the parts of a view that take work (a meld's analysis, a hand's best opening).

Engines stay pure: each cached function is a pure function of its arguments, and the arguments are
content (a meld's tiles, one hand sorted), never a table or a seat, so a cache cannot carry one
seat's hidden tiles into another seat's view and two tables with the same content share the work.
Each cache is an `lru_cache` with a bound, so memory stays flat however many tables come and go.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

_CACHES: list[Any] = []


def content_cache(maxsize: int) -> Callable[[F], F]:
    """`functools.lru_cache(maxsize)`, registered so tests and benches can start from cold."""

    def wrap(fn: F) -> F:
        cached = lru_cache(maxsize=maxsize)(fn)
        _CACHES.append(cached)
        return cached  # type: ignore[return-value]  # typeshed's _lru_cache_wrapper drops fn's signature

    return wrap


def clear_view_caches() -> None:
    """Forget every cached view part: what a cold process (or the old uncached path) would pay."""
    for cached in _CACHES:
        cached.cache_clear()


def view_cache_info() -> dict[str, Any]:
    """Hits and misses per cache, by function name (for benches)."""
    return {f"{c.__module__}.{c.__qualname__}": c.cache_info() for c in _CACHES}
