"""The table gate (bot/core/table_gate.py): the table's next work waits for the automatic moves in
flight, and a gate lets go of them once they are stored (it is kept for every table in play)."""

from __future__ import annotations

import asyncio

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.core.table_gate import GATES_SWEEP_MIN, TableGate
from storage import MemoryStore
from tests.bot.conftest import ALICE, BOB


async def test_work_waits_for_the_settling_task_then_the_gate_lets_go_of_it() -> None:
    gate = TableGate()
    release = asyncio.Event()
    order: list[str] = []

    async def settling() -> str:
        await release.wait()
        order.append("settled")
        return "an outcome"

    async with gate:
        gate.settle_with(asyncio.ensure_future(settling()))

    async def next_work() -> None:
        async with gate:
            order.append("next")

    waiting = asyncio.ensure_future(next_work())
    await asyncio.sleep(0)
    assert order == [] and gate.settling is not None
    release.set()
    await waiting
    assert order == ["settled", "next"]
    assert gate.settling is None  # the finished task (and the outcome it holds) is not kept


async def test_a_table_whose_ai_answered_keeps_no_outcome_in_its_gate() -> None:
    service = TableService(MemoryStore(), FakeClock(), new_table_id=lambda: "t1", new_seed=lambda: 21)
    rec = await service.open_table("rummikub", "test", "chat", ALICE)
    rec = await service.add_ai(rec.id, ALICE)
    rec = (await service.start(rec.id, ALICE)).table
    outcome = await service.act(rec.id, ALICE, "draw")
    assert [e.kind for e in await service.store.log("t1")][-1] == "ai"  # the AI answered
    assert outcome.public_view is not None
    assert service.gates.of("t1").settling is None
    await service.close()


async def test_gates_stay_about_the_tables_in_play_not_every_table_ever_played(service: TableService) -> None:
    """Issue 24, item 9: idle gates are swept, a gate someone is in or waiting at never is."""
    held = service.gates.of("in-use")
    async with held:
        waiting = asyncio.create_task(held.__aenter__())  # a second piece of work queued at the gate
        await asyncio.sleep(0)
        for i in range(600):
            rec = await service.open_table("rummikub", "test", f"chat{i}", ALICE)
            await service.join(rec.id, BOB)  # through the table's gate
            await service.end_table(rec.id, ALICE)
        assert len(service.gates) <= 2 * GATES_SWEEP_MIN  # not one per table ever played
        assert service.gates.of("in-use") is held  # kept: dropping it would let a second holder in
    await waiting
    await held.__aexit__(None, None, None)
    assert held.idle()
