"""The scheduler: one loop calling service.tick() with an injected sleep and clock."""

from __future__ import annotations

import asyncio
import gc

import pytest

from bot.core.clock import FakeClock
from bot.core.heap import freeze_startup_heap
from bot.core.i18n import available_languages, catalog
from bot.core.models import Outcome
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from storage import Store
from tests.bot.conftest import ALICE, BOB
from tests.failing_store import FailingStore


async def test_ticks_apply_deadlines_and_survive_errors(service: TableService, clock: FakeClock) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    seen: list[list[Outcome]] = []
    sleeps: list[float] = []
    ticked = asyncio.Event()

    async def on_outcomes(outcomes: list[Outcome]) -> None:
        seen.append(outcomes)
        if len(seen) == 1:
            raise RuntimeError("a rendering bug")  # logged; the clock keeps running

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(seconds)
        if len(sleeps) >= 130:
            ticked.set()
        await asyncio.sleep(0)

    scheduler = Scheduler(service, 1.0, on_outcomes, sleep)
    scheduler.start()
    await asyncio.wait_for(ticked.wait(), 10)
    await scheduler.stop()
    assert len(seen) == 2  # the 60 s timer ran out twice in 130 s
    assert all(s == 1.0 for s in sleeps) and scheduler.ticks >= 130
    assert [e.kind for e in await service.store.log(rec.id)].count("timeout") == 2


async def test_run_once_without_work(service: TableService) -> None:
    calls: list[list[Outcome]] = []

    async def on_outcomes(outcomes: list[Outcome]) -> None:
        calls.append(outcomes)

    assert await Scheduler(service, 1.0, on_outcomes).run_once() == [] and calls == []


async def test_starting_the_scheduler_freezes_the_startup_heap(service: TableService) -> None:
    # What startup built is left out of every later full collection (bot/core/heap.py).
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    catalog.cache_clear()  # every language is read before the freeze, so its texts are frozen too

    async def on_outcomes(outcomes: list[Outcome]) -> None:
        pass

    async def sleep(seconds: float) -> None:
        await asyncio.sleep(0)

    scheduler = Scheduler(service, 1.0, on_outcomes, sleep)
    scheduler.start()
    frozen = gc.get_freeze_count()
    await scheduler.stop()
    assert frozen > 0
    assert catalog.cache_info().currsize == len(available_languages())
    assert freeze_startup_heap() is False  # once per process: a second start (or bot) adds nothing


async def test_a_store_out_of_reach_skips_ticks_in_one_line_each_and_the_clock_goes_on(
    store: Store, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    failing = FailingStore(store)
    service = TableService(failing, clock)  # type: ignore[arg-type]
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    failing.fail("claim_holders", times=3)  # three ticks meet the outage
    sleeps: list[float] = []
    done = asyncio.Event()

    async def sleep(seconds: float) -> None:
        sleeps.append(seconds)
        clock.advance(30.0)
        if len(sleeps) >= 5:
            done.set()
        await asyncio.sleep(0)

    async def on_outcomes(outcomes: list[Outcome]) -> None:
        pass

    scheduler = Scheduler(service, 1.0, on_outcomes, sleep)
    scheduler.start()
    await asyncio.wait_for(done.wait(), 10)
    await scheduler.stop()
    skipped = [r for r in caplog.records if "tick skipped, the store is unreachable" in r.getMessage()]
    assert len(skipped) == 3 and all(r.exc_info is None for r in skipped)  # no traceback
    assert [e.kind for e in await store.log(rec.id)].count("timeout") >= 1  # the clock went on after it
