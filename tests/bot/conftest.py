from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from storage import MemoryStore, SqliteStore, Store

ALICE = Player("test", "1", "Alice")
BOB = Player("test", "2", "Bob")
CAROL = Player("test", "3", "Carol")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=["memory", "sqlite"])
async def store(request: pytest.FixtureRequest, tmp_path) -> AsyncIterator[Store]:
    s: Store = MemoryStore() if request.param == "memory" else SqliteStore(str(tmp_path / "t.db"))
    await s.open()
    yield s
    await s.close()


@pytest.fixture
def service(store: Store, clock: FakeClock) -> TableService:
    ids = iter(range(1000))
    return TableService(store, clock, new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: 42)
