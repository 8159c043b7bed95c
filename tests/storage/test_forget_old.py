"""Issue 24, item 9: idempotency keys and update ids are forgotten by the running scheduler (once
an hour, by the injected clock), not only at start-up, on every backend: a week of keys is kept,
older ones go."""

from __future__ import annotations

from bot.core.clock import FakeClock
from bot.core.clockwork import KEY_MEMORY_S
from bot.core.models import Outcome, Player
from bot.core.scheduler import FORGET_EVERY_S, Scheduler
from bot.core.service import TableService
from storage import Store

HOST = Player("telegram", "u1", "Ann")


async def nothing(outcomes: list[Outcome]) -> None:
    return None


async def keyed_table(service: TableService, n: int) -> str:
    """A table opened under an idempotency key, whose update id was claimed: what a /new leaves."""
    rec = await service.open_table("rummikub", "telegram", f"chat-{n}", HOST, key=f"tg:new:{n}")
    assert await service.store.claim_update("telegram", f"upd-{n}", service.clock.now())
    return rec.id


async def remembered(store: Store, n: int) -> tuple[bool, bool]:
    return (await store.action_key(f"tg:new:{n}") is not None, await store.update_claimed("telegram", f"upd-{n}"))


async def test_the_running_scheduler_forgets_what_is_too_old(store: Store) -> None:
    clock = FakeClock()
    service = TableService(store, clock)
    scheduler = Scheduler(service, 1.0, nothing, platforms=("telegram",))
    await keyed_table(service, 1)
    await scheduler.run_once()  # its first tick forgets (nothing old yet)
    assert await remembered(store, 1) == (True, True)

    clock.advance(KEY_MEMORY_S - 60)
    await keyed_table(service, 2)
    await scheduler.run_once()
    assert await remembered(store, 1) == (True, True)  # within the week: a redelivery is still recognised

    clock.advance(120)  # key 1 is over a week old now, but the last forgetting was just now
    await scheduler.run_once()
    assert await remembered(store, 1) == (True, True)  # once an hour, not on every tick
    clock.advance(FORGET_EVERY_S)
    await scheduler.run_once()
    assert await remembered(store, 1) == (False, False)
    assert await remembered(store, 2) == (True, True)

    clock.advance(KEY_MEMORY_S)
    await scheduler.run_once()
    assert await remembered(store, 2) == (False, False)


async def test_only_the_scheduler_platforms_update_ids_go(store: Store) -> None:
    clock = FakeClock()
    service = TableService(store, clock)
    await store.claim_update("discord", "upd-1", clock.now())
    await keyed_table(service, 1)
    clock.advance(KEY_MEMORY_S + 1)
    await Scheduler(service, 1.0, nothing, platforms=("telegram",)).run_once()
    assert await remembered(store, 1) == (False, False)
    assert await store.update_claimed("discord", "upd-1")  # another platform's process forgets its own
