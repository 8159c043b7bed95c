"""Fixtures for the standings tests: the real service on both stores with a fake clock, and a
Rummikub match that ends on the first move (a stacked rack that goes out at once, RK-70)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from storage import MemoryStore, SeatRecord, SqliteStore, Store

ALICE = Player("test", "1", "Alice")
BOB = Player("test", "2", "Bob")
CAROL = Player("test", "3", "Carol")
DAN = Player("test", "4", "Dan")

LOSING = ["k1", "k2", "k4", "b1", "b3", "b5", "b7", "y2", "y4", "y6", "y8", "r1", "r3", "r5"]
WINNING = ["r10", "r11", "r12", "r13", "k10", "k11", "k12", "k13", "b10", "b11", "b12", "y10", "y11", "y12"]
GO_OUT = "play r10 r11 r12 r13 | k10 k11 k12 k13 | b10 b11 b12 | y10 y11 y12"


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1_800_000_000.0)  # 2027-01-15 08:00 UTC, a Friday


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    s: Store = MemoryStore() if request.param == "memory" else SqliteStore(str(tmp_path / "stats.db"))
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def service(store: Store, clock: FakeClock) -> TableService:
    ids = iter(range(10_000))
    seeds = iter(range(100, 10_000))
    return TableService(store, clock, new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: next(seeds))


async def quick_match(service: TableService, winner: Player, loser: Player, chat: str = "chat1",
                      ai_loser: bool = False) -> str:
    """A two-seat Rummikub match `winner` wins on the first move; returns the table id."""
    rec = await service.open_table("rummikub", "test", chat, winner, deck=WINNING + LOSING,
                                   options={"first_player": 1})
    if ai_loser:
        await service.add_ai(rec.id, winner)
    else:
        await service.join(rec.id, loser)
    await service.start(rec.id, winner)
    outcome = await service.act(rec.id, winner, GO_OUT)
    assert outcome.match_over
    return rec.id


def human(p: Player) -> SeatRecord:
    return SeatRecord(kind="human", platform=p.platform, user_id=p.user_id, name=p.name)


AI = SeatRecord(kind="ai", platform=None, user_id=None, name="AI 1")
