"""The AI's moves computed in worker processes (bot/core/ai_pool.py, ISSUE 15): the same moves as
inline, a dead worker replaced (or the job computed inline), the workers stopped with the service."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from pathlib import Path
from random import Random
from typing import Any

import pytest

from bot.core.ai_pool import AiPool
from bot.core.automoves import AutoJob, AutoRun, SeatPlay, play_automatic
from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from rules import get_engine
from storage import MemoryStore
from tests.bot.conftest import ALICE

MARKER = "RUMMYCLUB_TEST_CRASH_MARKER"  # the workers inherit the environment: where "crashed once" is kept


def crash_once(job: AutoJob) -> AutoRun:
    """Kills its worker the first time (marked by a file), then plays as ever."""
    marker = Path(os.environ[MARKER])
    if not marker.exists():
        marker.touch()
        os._exit(1)
    return play_automatic(job)


def crash_in_workers(job: AutoJob) -> AutoRun:
    """Kills every worker that runs it; computes when run in the bot process itself."""
    if multiprocessing.parent_process() is not None:
        os._exit(1)
    return play_automatic(job)


def a_job() -> AutoJob:
    engine = get_engine("rummikub")
    state = engine.new_game(3, options={}, seed=11)
    # Seat 0 is the human; the deal starts elsewhere or not, the job plays until seat 0 is on turn.
    seats = (SeatPlay("ai"), SeatPlay("ai"), SeatPlay("ai"))
    return AutoJob("rummikub", state, seats, seed=11, log_seq=1, limit=6)


async def played_match(ai: AiPool, game: str, moves: int) -> tuple[list[tuple[str, int | None, str]], list[Any]]:
    """Alice and two AIs: Alice plays `moves` seeded moves; the log that results and the views of
    every settled outcome."""
    service = TableService(MemoryStore(), FakeClock(), new_table_id=lambda: "t1", new_seed=lambda: 21, ai=ai)
    rec = await service.open_table(game, "test", "chat", ALICE)
    for _ in range(2):
        rec = await service.add_ai(rec.id, ALICE)
    rec = (await service.start(rec.id, ALICE)).table
    rng, engine = Random(3), get_engine(game)
    views: list[Any] = []
    for _ in range(moves):
        if rec.status != "playing":
            break
        assert rec.state is not None and engine.current_seat(rec.state) == 0
        text = engine.format(engine.ai_action(rec.state, 0, rng))
        outcome = await service.act(rec.id, Player("test", ALICE.user_id, ALICE.name), text)
        rec = outcome.table
        views.append((outcome.public_view, outcome.private_views))
    log = [(e.kind, e.seat, e.text) for e in await service.store.log("t1")]
    await service.close()
    return log, views


@pytest.mark.parametrize("game", ["rummikub", "rummy500"])
async def test_the_pool_plays_the_same_moves_as_inline(game: str) -> None:
    inline = await played_match(AiPool(0), game, 12)
    pooled = await played_match(AiPool(1), game, 12)
    assert sum(1 for kind, _, _ in inline[0] if kind == "ai") >= 12  # the AIs answered every move
    assert pooled[0] == inline[0]  # the same moves
    assert pooled[1] == inline[1] and all(public is not None for public, _ in pooled[1])  # the same views


async def test_a_dead_worker_is_replaced_and_its_job_run_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    monkeypatch.setenv(MARKER, str(tmp_path / "crashed"))
    pool = AiPool(1, work=crash_once)
    try:
        assert await pool.run(a_job()) == play_automatic(a_job())
        assert pool.replaced == 1 and (tmp_path / "crashed").exists()
    finally:
        pool.close()


async def test_a_pool_that_keeps_breaking_leaves_the_job_to_the_bot_process() -> None:
    pool = AiPool(1, work=crash_in_workers)
    try:
        assert await pool.run(a_job()) == play_automatic(a_job())
        assert pool.replaced == 2
    finally:
        pool.close()


async def test_the_service_stores_the_moves_in_flight_then_stops_its_workers() -> None:
    store = MemoryStore()
    service = TableService(store, FakeClock(), new_table_id=lambda: "t1", new_seed=lambda: 21, ai=AiPool(1))
    rec = await service.open_table("rummikub", "test", "chat", ALICE)
    rec = await service.add_ai(rec.id, ALICE)
    rec = (await service.start(rec.id, ALICE)).table
    assert rec.state is not None and rec.state["turn"] == 0
    await service.act(rec.id, ALICE, "draw")
    assert multiprocessing.active_children()  # the worker that computed the AI's answer
    ack = await service.submit(rec.id, ALICE, "draw")
    assert ack.pending is not None and not ack.pending.done()
    await service.close()
    assert [e.kind for e in await store.log("t1")][-1] == "ai"  # the answer was stored before stopping
    assert multiprocessing.active_children() == []


async def test_the_pool_builds_the_same_views_as_the_engine() -> None:
    job = a_job()
    pool = AiPool(1)
    try:
        assert await pool.views(job.game, job.state, (0, 2)) == get_engine(job.game).views(job.state, [0, 2])
    finally:
        pool.close()


def half_fail(n: int) -> int:
    if n % 2:
        raise ValueError(n)
    return n * 10


async def test_calls_queued_together_each_get_their_own_answer() -> None:
    pool = AiPool(1)
    try:
        got = await asyncio.gather(*(pool.call(half_fail, n) for n in range(40)), return_exceptions=True)
        assert got[0::2] == [n * 10 for n in range(0, 40, 2)]  # in order, each its own answer
        assert [e.args for e in got[1::2] if isinstance(e, ValueError)] == [(n,) for n in range(1, 40, 2)]
    finally:
        pool.close()


def echo_size(blob: bytes) -> int:
    return len(blob)


async def test_messages_larger_than_a_pipe_cross_without_blocking_the_loop() -> None:
    # 40 calls of 200 kB: one batch of 8 MB, far past a pipe's 64 kB buffer. The loop writes what
    # the worker has read so far and goes on serving (here: ticking) in between.
    pool = AiPool(1)
    ticks = 0

    async def tick() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await asyncio.sleep(0)

    ticker = asyncio.ensure_future(tick())
    try:
        sizes = await asyncio.gather(*(pool.call(echo_size, bytes(200_000 + n)) for n in range(40)))
        assert sizes == [200_000 + n for n in range(40)]
        assert ticks > 1
    finally:
        ticker.cancel()
        pool.close()


def unpicklable(n: int) -> Any:
    if n == 1:
        return lambda: n  # a result that cannot cross back to the bot process
    return n


async def test_an_answer_that_cannot_be_sent_back_fails_its_own_call_only() -> None:
    pool = AiPool(1)
    try:
        got = await asyncio.gather(*(pool.call(unpicklable, n) for n in range(3)), return_exceptions=True)
        assert got[0] == 0 and got[2] == 2
        assert isinstance(got[1], RuntimeError) and "could not be sent back" in str(got[1])
    finally:
        pool.close()


async def test_a_worker_killed_between_jobs_is_replaced_for_the_next_one() -> None:
    pool = AiPool(1)
    try:
        pid = await pool.call(os.getpid)
        os.kill(pid, 9)  # seen either when the job is written to it or when its answer pipe closes
        assert await pool.run(a_job()) == play_automatic(a_job())
        assert pool.replaced == 1 and await pool.call(os.getpid) != pid
    finally:
        pool.close()
    assert multiprocessing.active_children() == []
