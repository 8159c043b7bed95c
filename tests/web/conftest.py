"""A web app over a real service and SQLite store, with a fake clock and a test client; the
browser fixtures (tests/web/browser.py) for the Chromium tests."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import SqliteStore
from tests.web.browser import browsers, served  # noqa: F401 - fixtures for test_browser.py
from tests.web.tables import BOT_TOKEN, SECRET


@dataclass
class Web:
    client: TestClient
    service: TableService
    store: SqliteStore
    clock: FakeClock
    links: SeatLinks

    def link(self, table: str, seat: int | None, ttl: float = 3600.0) -> str:
        return self.links.token(table, seat, self.clock.now() + ttl)


@pytest.fixture(autouse=True)
def unfrozen() -> Iterator[None]:
    """bot/web/server.serve freezes what is alive out of the garbage collector's passes, once per
    process in production; here each test's leftovers are handed back to it."""
    yield
    gc.unfreeze()


@pytest.fixture
async def web(tmp_path) -> AsyncIterator[Web]:
    store = SqliteStore(str(tmp_path / "web.db"))
    await store.open()
    clock = FakeClock()
    ids = iter(range(1000))
    service = TableService(store, clock, new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: 42)
    links = SeatLinks(SECRET)
    app = create_app(service, store, WebConfig(links, BOT_TOKEN, init_max_age_s=3600.0), clock)
    client = TestClient(TestServer(app))
    await client.start_server()
    yield Web(client, service, store, clock, links)
    await client.close()
    await store.close()
