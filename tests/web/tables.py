"""The tables the web tests play on, and Telegram initData signed as Telegram would."""

from __future__ import annotations

import json
from urllib.parse import parse_qsl, urlencode, urlsplit

from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import Clock
from bot.core.models import Player
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks, sign_init_data
from storage import Store, TableRecord

BOT_TOKEN = "123456:TEST-token"
SECRET = b"web-secret-for-tests"
ALICE = Player("telegram", "101", "Alice")
BOB = Player("telegram", "202", "Bob")
# Rummikub, seat 0 opens with r10 r11 r12 | k9 b9 y9 (60 points); seat 1 holds nothing useful.
RK_DECK = ["r10", "r11", "r12", "k9", "b9", "y9", "r1", "b2", "k3", "y5", "r7", "b13", "k1", "y2"]


def init_data(user: Player, auth_date: float, token: str = BOT_TOKEN, **extra: str) -> str:
    fields = {"auth_date": str(int(auth_date)), "query_id": "AAH",
              "user": json.dumps({"id": int(user.user_id), "first_name": user.name, "language_code": "ru"}), **extra}
    fields["hash"] = sign_init_data(fields, token)
    return urlencode(fields)


async def two_player_table(service: TableService, game: str = "rummikub", deck: list[str] | None = None,
                           chat: str = "chat1", **options: object) -> TableRecord:
    rec = await service.open_table(game, "telegram", chat, ALICE, deck=deck, options=options or None)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    return await service.get(rec.id)


async def alice_and_bob_table(service: TableService, game: str) -> TableRecord:
    """Alice in seat 0 and Bob in seat 1 of a started table; Canasta is four seats, the other two AI."""
    if game != "canasta":
        return await two_player_table(service, game)
    rec = await service.open_table(game, "telegram", "chat1", ALICE)
    await service.join(rec.id, BOB)
    for _ in range(2):
        await service.add_ai(rec.id, ALICE)
    await service.start(rec.id, ALICE)
    return await service.get(rec.id)


async def replay_answers(url: str, service: TableService, store: Store, clock: Clock, links: SeatLinks) -> dict:
    """Open a replay link as a browser would, on a web app over this service: the page answers 200
    and the API behind it, with the link's own token, gives the match's public frames."""
    parts = urlsplit(url)
    table = parts.path.rsplit("/", 1)[-1]
    client = TestClient(TestServer(create_app(service, store, WebConfig(links), clock)))
    await client.start_server()
    try:
        assert (await client.get(f"{parts.path}?{parts.query}")).status == 200
        resp = await client.get(f"/api/table/{table}/replay", params=dict(parse_qsl(parts.query)))
        assert resp.status == 200
        return await resp.json()
    finally:
        await client.close()
