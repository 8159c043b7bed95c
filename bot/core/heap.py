"""Keeping full garbage collections short in a long-running bot process.

CPython's oldest-generation collection walks every tracked object, and it holds the event loop (and
the GIL: the SQLite writer thread too) for as long as that takes. After startup most of the heap is
what imports, pydantic's schemas and the engines' tables built and will never free: with 1 000
tables in play such a collection measured 100–180 ms, the largest stall at half load
(bench/bench_scale.py). Freezing what startup built moves it out of every later collection
(`gc.freeze`, meant for exactly this), so a full collection walks only what was made since.
"""

from __future__ import annotations

import gc

from bot.core.i18n import load_every_catalog


def freeze_startup_heap() -> bool:
    """Collect once, then freeze what survives. Only the first call of a process does anything (the
    interpreter's own freeze count says whether it happened): it returns whether it froze now."""
    if gc.get_freeze_count():
        return False
    load_every_catalog()  # read sooner or later by every bot: frozen with the rest
    gc.collect()  # first: garbage frozen now could never be collected later
    gc.freeze()
    return True
