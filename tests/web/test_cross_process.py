"""Moves made by another process reach the pages this process serves (issue 18 items 1 and 5 with
issue 15's several processes): two services on one SQLite file or one PostgreSQL database, the page
served by B's app, the move made through A — and once through a real subprocess."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import PostgresStore, SqliteStore, Store
from tests.cli.conftest import ROOT
from tests.web.tables import ALICE, RK_DECK, SECRET, two_player_table

WAIT_S = 10.0  # a bound for a broken push, not a speed figure (bench/bench_web.py measures that)
OPENING = "play r10 r11 r12 | k9 b9 y9"


async def next_event(resp: ClientResponse) -> tuple[str, dict]:
    """The stream's next event: its name and data."""
    name = "message"
    while True:
        line = (await asyncio.wait_for(resp.content.readline(), WAIT_S)).decode()
        if line.startswith("event: "):
            name = line[7:].strip()
        elif line.startswith("data: "):
            return name, json.loads(line[6:])


@pytest.fixture(params=["sqlite", "postgres"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], Store]:
    if request.param == "sqlite":
        return lambda: SqliteStore(str(tmp_path / "shared.db"))
    url: str = request.getfixturevalue("postgres_url")
    return lambda: PostgresStore(url)


Two = tuple[TableService, TableService, TestClient]


@pytest.fixture
async def two(open_store: Callable[[], Store]) -> AsyncIterator[Two]:
    """Service A (no web server) and service B with the web app, each on its own store of one database."""
    stores = [open_store(), open_store()]
    for s in stores:
        await s.open()
    clock = FakeClock()
    ids = iter(range(1000))
    a = TableService(stores[0], clock, new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: 42, owner="A")
    b = TableService(stores[1], clock, owner="B")
    client = TestClient(TestServer(create_app(b, stores[1], WebConfig(SeatLinks(SECRET)), clock)))
    await client.start_server()
    yield a, b, client
    await client.close()
    for s in stores:
        await s.close()


def link(table: str, seat: int | None) -> str:
    return SeatLinks(SECRET).token(table, seat, FakeClock().now() + 3600)


async def test_a_move_through_service_a_reaches_the_page_served_by_b(two: Two) -> None:
    a, b, client = two
    rec = await two_player_table(a, deck=RK_DECK)
    pages = {}
    for seat in (1, None):
        pages[seat] = await client.get(f"/api/table/{rec.id}/events", params={"k": link(rec.id, seat)})
        assert (await next_event(pages[seat]))[1]["version"] == rec.version
    await a.act(rec.id, ALICE, OPENING, expected_version=rec.version)
    for seat, page in pages.items():
        name, data = await next_event(page)
        assert name == "table" and data["version"] == rec.version + 1 and data["seat"] == seat
        assert len(data["view"]["table"]) == 2, "the page shows A's move"
        page.close()


MOVE_IN_A_SUBPROCESS = """
import asyncio, sys
from bot.core.models import Player
from bot.core.service import TableService
from storage import SqliteStore

async def main(path, table, version):
    store = SqliteStore(path)
    await store.open()
    try:
        await TableService(store).act(table, Player("telegram", "101", "Alice"), sys.argv[4], expected_version=int(version))
    finally:
        await store.close()

asyncio.run(main(*sys.argv[1:4]))
"""


async def test_a_move_committed_by_another_process_reaches_the_open_page(tmp_path: Path) -> None:
    path = str(tmp_path / "shared.db")
    store = SqliteStore(path)
    await store.open()
    clock = FakeClock()
    service = TableService(store, clock)
    client = TestClient(TestServer(create_app(service, store, WebConfig(SeatLinks(SECRET)), clock)))
    await client.start_server()
    try:
        rec = await two_player_table(service, deck=RK_DECK)
        page = await client.get(f"/api/table/{rec.id}/events", params={"k": link(rec.id, 1)})
        assert (await next_event(page))[1]["version"] == rec.version
        proc = await asyncio.create_subprocess_exec(sys.executable, "-c", MOVE_IN_A_SUBPROCESS, path, rec.id,
                                                    str(rec.version), OPENING, cwd=str(ROOT))
        assert await asyncio.wait_for(proc.wait(), 60) == 0
        name, data = await next_event(page)
        assert name == "table" and data["version"] == rec.version + 1 and len(data["view"]["table"]) == 2
        page.close()
    finally:
        await client.close()
        await store.close()
