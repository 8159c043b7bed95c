"""Keeping a long-running bot process's heap in shape: full garbage collections short, free pages given back.

CPython's oldest-generation collection walks every tracked object, and it holds the event loop (and
the GIL: the SQLite writer thread too) for as long as that takes. After startup most of the heap is
what imports, pydantic's schemas and the engines' tables built and will never free: with 1 000
tables in play such a collection measured 100–180 ms, the largest stall at half load
(bench/bench_scale.py). Freezing what startup built moves it out of every later collection
(`gc.freeze`, meant for exactly this), so a full collection walks only what was made since.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
from collections.abc import Callable
from typing import cast


def freeze_startup_heap() -> bool:
    """Collect once, then freeze what survives. Only the first call of a process does anything (the
    interpreter's own freeze count says whether it happened): it returns whether it froze now."""
    if gc.get_freeze_count():
        return False
    gc.collect()  # first: garbage frozen now could never be collected later
    gc.freeze()
    return True


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        trim = libc.malloc_trim
    except (OSError, AttributeError):  # not glibc: nothing to give back this way
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return cast(Callable[[int], int], trim)


_TRIM = _malloc_trim()


def give_back_free_memory() -> bool:
    """Hand the pages malloc holds free back to the system (glibc's `malloc_trim`; elsewhere nothing).

    glibc keeps what a process freed for its next allocations and returns to the system only the top
    of each heap, so a bot that plays table after table holds, weeks later, the pages its busiest
    moments once needed, scattered between live blocks: RSS grew ~25 KB per table played while the
    bytes in use stayed level (bench/bench_soak.py). A trim now and then returns every whole free
    page. It walks the heaps (milliseconds), so the scheduler runs it in a thread; ctypes releases
    the GIL for the call. Python's own small-object arenas are given back only when wholly free,
    which is why a long-running bot is run with PYTHONMALLOC=malloc (Makefile, Dockerfile)."""
    if _TRIM is None:
        return False
    return bool(_TRIM(0))
