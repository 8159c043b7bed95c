"""bench/bench_scale.py's restart: a new store and service over the run's database, as the bot
starts (its AI workers) and as cold as a new process (no memo of the rules' analysis left over).

Timed: opening the store and `resume_all()` (wall and CPU: the machine is shared), then the views
the adapters' restored render builds afterwards (every one: Telegram's render; Discord's builds the
DM hands only), then every turn deadline passed at once and one `tick()`."""

from __future__ import annotations

import gc
import time
from typing import Protocol

from bench.bench_engines import clear_rule_caches
from bench.scale_backends import Backend
from bot.core.ai_pool import AiPool
from bot.core.service import TableService


class Shiftable(Protocol):
    shift: float

    def now(self) -> float: ...


async def restart(backend: Backend, clock: Shiftable, ai_workers: int, timer_s: float) -> str:
    """The bench's "resume:" line. The caller has dropped the run's tables and service."""
    clear_rule_caches()
    gc.collect()  # the run's garbage: a new process starts without it
    store = backend.store()
    started, cpu = time.perf_counter(), time.process_time()
    await store.open()
    service = TableService(store, clock, ai=AiPool(ai_workers))
    try:
        resumed = await service.resume_all()
        resume, cpu = time.perf_counter() - started, time.process_time() - cpu
        views = time.perf_counter()
        for outcome in resumed:
            outcome.viewed()
        views = time.perf_counter() - views
        clock.shift += 10 * timer_s
        started = time.perf_counter()
        timeouts = await service.tick()
        overdue = time.perf_counter() - started
    finally:
        await service.close()
        await store.close()
    return (f"   resume: {len(resumed)} tables in {resume * 1000:.0f} ms (open + resume_all; CPU {cpu * 1000:.0f} ms), "
            f"then their views for the restored render {views * 1000:.0f} ms; "
            f"{len(timeouts)} overdue timeouts in {overdue * 1000:.0f} ms (one tick)")
