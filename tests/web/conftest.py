"""A web app over a real service and SQLite store, with a fake clock and a test client."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks, sign_init_data
from storage import SqliteStore, TableRecord

BOT_TOKEN = "123456:TEST-token"
SECRET = b"web-secret-for-tests"
ALICE = Player("telegram", "101", "Alice")
BOB = Player("telegram", "202", "Bob")
# Rummikub, seat 0 opens with r10 r11 r12 | k9 b9 y9 (60 points); seat 1 holds nothing useful.
RK_DECK = ["r10", "r11", "r12", "k9", "b9", "y9", "r1", "b2", "k3", "y5", "r7", "b13", "k1", "y2"]


@dataclass
class Web:
    client: TestClient
    service: TableService
    store: SqliteStore
    clock: FakeClock
    links: SeatLinks

    def link(self, table: str, seat: int | None, ttl: float = 3600.0) -> str:
        return self.links.token(table, seat, self.clock.now() + ttl)


def init_data(user: Player, auth_date: float, token: str = BOT_TOKEN, **extra: str) -> str:
    from urllib.parse import urlencode

    fields = {"auth_date": str(int(auth_date)), "query_id": "AAH",
              "user": json.dumps({"id": int(user.user_id), "first_name": user.name, "language_code": "ru"}), **extra}
    fields["hash"] = sign_init_data(fields, token)
    return urlencode(fields)


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


async def two_player_table(service: TableService, game: str = "rummikub", deck: list[str] | None = None,
                           **options: object) -> TableRecord:
    rec = await service.open_table(game, "telegram", "chat1", ALICE, deck=deck, options=options or None)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    return await service.get(rec.id)
