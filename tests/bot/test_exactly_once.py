"""Exactly once: an action under a platform's idempotency key is applied once, however often it
is delivered — again after it was applied, after the table moved on, to two services at once, and
after a crash at any point of its handling."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.models import ServiceError
from bot.core.service import CLAIM_LEASE_S, TableService
from rules import IllegalAction
from storage import SqliteStore, Store
from tests.bot.conftest import ALICE, BOB
from tests.bot.test_service import ALICE_RACK, BOB_RACK, two_player_table
from tests.crash import Died, DyingStore


async def ai_table(service: TableService, platform: str = "test", chat: str = "chat1", **options: Any) -> str:
    """Alice against one AI, Alice on turn: every action of hers is answered by an AI move."""
    rec = await service.open_table("rummikub", platform, chat, ALICE, options=options, deck=ALICE_RACK + BOB_RACK)
    await service.add_ai(rec.id, ALICE)
    await service.start(rec.id, ALICE)
    return rec.id


def keyed_moves(log: list, text: str, seat: int = 0) -> int:
    return sum(1 for e in log if e.kind == "action" and e.seat == seat and e.text == text)


async def test_a_repeat_is_answered_with_the_first_outcome_and_changes_nothing(service: TableService) -> None:
    table = await ai_table(service)
    first = await service.act(table, ALICE, "draw", key="tg:1")
    assert not first.repeated
    after = await service.get(table)
    again = await service.act(table, ALICE, "draw", key="tg:1")
    assert again.repeated
    assert await service.get(table) == after
    mine = [e for e in first.events if e.seat == 0]
    assert mine and [e.type for e in again.events] == [e.type for e in first.events[: len(again.events)]]
    assert again.private_views[0] == first.private_views[0]  # the views are the table as it is
    assert keyed_moves(await service.store.log(table), "draw") == 1


async def test_a_repeat_after_the_table_moved_on_is_not_applied_to_the_new_turn(service: TableService) -> None:
    table = await ai_table(service)
    await service.act(table, ALICE, "draw", key="tg:1")
    await service.act(table, ALICE, "draw", key="tg:2")  # Alice's next turn (after the AI's)
    moved = await service.get(table)
    # The first "draw" arrives once more: legal on this turn too, yet it was applied already.
    repeat = await service.act(table, ALICE, "draw", key="tg:1")
    assert repeat.repeated and await service.get(table) == moved
    assert keyed_moves(await service.store.log(table), "draw") == 2


async def test_a_repeated_button_press_is_not_called_stale(service: TableService) -> None:
    table = await ai_table(service)
    version = (await service.get(table)).version
    await service.act(table, ALICE, "draw", expected_version=version, key="q1")
    again = await service.act(table, ALICE, "draw", expected_version=version, key="q1")
    assert again.repeated
    with pytest.raises(ServiceError) as err:  # an unkeyed press of the same old button is stale
        await service.act(table, ALICE, "draw", expected_version=version, key="q2")
    assert err.value.code == "E_STALE"


async def test_a_refused_action_leaves_its_key_free(service: TableService) -> None:
    table = await ai_table(service)
    with pytest.raises(IllegalAction):
        await service.act(table, ALICE, "play k1 k2 k4", key="tg:1")
    assert await service.store.action_key("tg:1") is None
    assert not (await service.act(table, ALICE, "draw", key="tg:2")).repeated


async def test_lobby_presses_are_applied_once(service: TableService) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE, key="m1")
    assert (await service.open_table("rummikub", "test", "chat1", ALICE, key="m1")).id == rec.id
    await service.add_ai(rec.id, ALICE, key="q1")
    rec = await service.add_ai(rec.id, ALICE, key="q1")  # redelivered: still one AI
    assert [s.kind for s in rec.seats] == ["human", "ai"]
    await service.join(rec.id, BOB, key="q2")
    rec = await service.join(rec.id, BOB, key="q2")  # not "already seated": it is the same press
    assert [s.name for s in rec.seats] == ["Alice", "AI 1", "Bob"]
    first = await service.start(rec.id, ALICE, key="q3")
    again = await service.start(rec.id, ALICE, key="q3")
    assert again.repeated and again.table.version == first.table.version


# ---- two processes -----------------------------------------------------------------------------


async def two_services(path: Path, clock: FakeClock) -> tuple[TableService, TableService, list[Store]]:
    stores: list[Store] = [SqliteStore(str(path)), SqliteStore(str(path))]
    for s in stores:
        await s.open()
    return TableService(stores[0], clock, new_table_id=lambda: "t1"), TableService(stores[1], clock), stores


async def test_two_services_given_the_same_keyed_action_apply_it_once(tmp_path: Path) -> None:
    clock = FakeClock()
    one, two, stores = await two_services(tmp_path / "shared.db", clock)
    try:
        table = await ai_table(one)
        for n in range(12):  # both receive every one of Alice's moves, at the same moment
            rec = await one.get(table)
            assert rec.state is not None and rec.state["turn"] == 0
            results = await asyncio.gather(one.act(table, ALICE, "draw", key=f"tg:{n}"),
                                           two.act(table, ALICE, "draw", key=f"tg:{n}"))
            assert sorted(r.repeated for r in results) == [False, True]
        log = await stores[0].log(table)
        assert keyed_moves(log, "draw") == 12
        assert (await one.get(table)).state == await one.replay(table)
    finally:
        for s in stores:
            await s.close()


async def test_a_new_delivered_to_two_services_at_once_is_answered_with_the_one_table(tmp_path: Path) -> None:
    """Issue 24: the repeat of a /new that another process is just opening gets that table, as the
    first delivery did, not "this chat has a table"; a /new of someone else still does."""
    clock = FakeClock()
    one, two, stores = await two_services(tmp_path / "shared.db", clock)
    try:
        for n in range(6):
            tables = await asyncio.gather(one.open_table("rummikub", "test", f"chat{n}", ALICE, key=f"tg:new{n}"),
                                          two.open_table("rummikub", "test", f"chat{n}", ALICE, key=f"tg:new{n}"))
            assert tables[0].id == tables[1].id
        with pytest.raises(ServiceError) as refused:
            await two.open_table("rummikub", "test", "chat0", BOB, key="tg:other")
        assert refused.value.code == "E_TABLE_EXISTS"
    finally:
        for s in stores:
            await s.close()


async def test_five_people_pressing_join_at_once_are_all_answered(tmp_path: Path) -> None:
    from bot.core.models import Player

    clock = FakeClock()
    stores = [SqliteStore(str(tmp_path / "lobby.db")) for _ in range(5)]
    for s in stores:
        await s.open()
    try:
        services = [TableService(s, clock, new_table_id=lambda: "t1") for s in stores]
        rec = await services[0].open_table("rummikub", "test", "chat1", ALICE)  # 4 seats: Alice + 3
        people = [Player("test", str(10 + i), f"P{i}") for i in range(5)]
        results = await asyncio.gather(*(svc.join(rec.id, p) for svc, p in zip(services, people, strict=True)),
                                       return_exceptions=True)
        seated = [r for r in results if not isinstance(r, BaseException)]
        refused = [r for r in results if isinstance(r, BaseException)]
        assert len(seated) == 3 and all(isinstance(r, ServiceError) and r.code == "E_TABLE_FULL" for r in refused)
        final = await services[0].get(rec.id)
        assert len(final.seats) == 4 and len({s.user_id for s in final.seats}) == 4
    finally:
        for s in stores:
            await s.close()


# ---- a crash at every step ---------------------------------------------------------------------


async def handle_draw(store: Store, clock: FakeClock, table: str) -> None:
    """One platform delivery of Alice's `draw` (key tg:77), then the AI's answer, as a process does."""
    service = TableService(store, clock)
    await service.act(table, ALICE, "draw", key="tg:77")


@pytest.mark.parametrize("after", [False, True], ids=["before", "after"])
async def test_a_crash_at_any_step_then_redelivery_applies_the_action_once(tmp_path: Path, after: bool) -> None:
    clock = FakeClock()
    # How many store calls one delivery makes: a crash is injected before and after each of them.
    probe = SqliteStore(str(tmp_path / "probe.db"))
    await probe.open()
    table = await ai_table(TableService(probe, clock))
    counter = DyingStore(probe, at=0, after=False)
    await handle_draw(counter, clock, table)  # type: ignore[arg-type]
    await probe.close()
    steps = counter.calls
    assert steps >= 2  # the read, one commit of the action and the AI's answer (the key checked in it)

    for at in range(1, steps + 1):
        path = str(tmp_path / f"crash-{at}.db")
        setup = SqliteStore(path)
        await setup.open()
        table = await ai_table(TableService(setup, clock))
        await setup.close()

        dying_inner = SqliteStore(path)
        await dying_inner.open()
        with pytest.raises(Died):
            await handle_draw(DyingStore(dying_inner, at, after), clock, table)  # type: ignore[arg-type]
        await dying_inner.close()

        # The restarted process (a new claim owner) finds the dead one's claim of the table expired
        # (tests/bot/test_claims.py: a live claim is never taken), resumes its tables, then the
        # platform delivers the update again.
        clock.advance(CLAIM_LEASE_S)
        restarted = SqliteStore(path)
        await restarted.open()
        service = TableService(restarted, clock)
        await service.resume_all()
        await service.act(table, ALICE, "draw", key="tg:77")
        log = await restarted.log(table)
        assert keyed_moves(log, "draw") == 1, (at, after, [e.text for e in log])
        rec = await service.get(table)
        assert rec.state == await service.replay(table), (at, after)
        assert rec.state is not None and rec.state["turn"] == 0  # the AI answered: Alice is on turn
        await restarted.close()


async def test_old_keys_are_forgotten_at_start(service: TableService, clock: FakeClock) -> None:
    from bot.core.clockwork import KEY_MEMORY_S

    table = await ai_table(service)
    await service.act(table, ALICE, "draw", key="old")
    clock.advance(KEY_MEMORY_S + 1)
    await service.act(table, ALICE, "draw", key="new")
    await service.resume_all()
    assert await service.store.action_key("old") is None and await service.store.action_key("new") is not None


async def test_a_redelivery_to_a_player_gone_away_since_is_a_repeat_and_keeps_them_away(
    service: TableService,
) -> None:
    table = await two_player_table(service)
    first = await service.act(table, ALICE, "draw", key="tg:5")  # Bob on turn now
    away = await service.set_away(table, ALICE, True)
    log = await service.store.log(table)
    again = await service.act(table, ALICE, "draw", key="tg:5")  # the platform delivers it again
    assert again.repeated and [e.type for e in again.events] == [e.type for e in first.events]
    rec = await service.get(table)
    assert rec.seats[0].away and rec.version == away.version  # her seat was not taken back
    assert await service.store.log(table) == log
