"""The backends every contract test runs against, in one place: a test taking `store` runs once per
backend. PostgreSQL is a real server started once per test process, with a fresh schema for every
test (`postgres_url`, tests/storage/pg_fixtures.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from storage import MemoryStore, PostgresStore, SqliteStore, Store
from tests.storage.records import FakeClock

BACKENDS = ["memory", "sqlite", "postgres"]

StoreFactory = Callable[[FakeClock], Store]


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(params=BACKENDS)
def store_factory(request: pytest.FixtureRequest, tmp_path: Path) -> StoreFactory:
    if request.param == "memory":
        return lambda clock: MemoryStore(clock=clock)
    if request.param == "sqlite":
        return lambda clock: SqliteStore(str(tmp_path / "rummy.db"), clock=clock)
    url: str = request.getfixturevalue("postgres_url")
    return lambda clock: PostgresStore(url, clock=clock)


@pytest.fixture
async def store(store_factory: StoreFactory, clock: FakeClock) -> AsyncIterator[Store]:
    s = store_factory(clock)
    await s.open()
    yield s
    await s.close()


@pytest.fixture
async def other(store: Store, store_factory: StoreFactory, clock: FakeClock) -> AsyncIterator[Store]:
    """A second process on the same database (the memory store cannot be shared: the same object)."""
    if isinstance(store, MemoryStore):
        yield store
        return
    second = store_factory(clock)
    await second.open()
    yield second
    await second.close()
