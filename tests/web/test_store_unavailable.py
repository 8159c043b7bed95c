"""The web table when the store cannot be reached (ISSUE 24, item 4): a move that could not be saved
is answered 503 with the sentence, in the page's language, and applies nothing; the same move goes
through once the store is back; a page whose table cannot be read gets a 503 too, not a traceback."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import FakeClock
from bot.core.i18n import t
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import SqliteStore
from tests.failing_store import FailingStore
from tests.web.tables import BOT_TOKEN, RK_DECK, SECRET, two_player_table

OPENING = [["r10", "r11", "r12"], ["k9", "b9", "y9"]]


@dataclass
class Faulty:
    client: TestClient
    service: TableService
    store: FailingStore  # what the service and the pages read through
    links: SeatLinks
    clock: FakeClock


@pytest.fixture
async def faulty(tmp_path: Path) -> AsyncIterator[Faulty]:
    inner = SqliteStore(str(tmp_path / "web.db"))
    await inner.open()
    store = FailingStore(inner)
    clock = FakeClock()
    service = TableService(store, clock, new_seed=lambda: 42)  # type: ignore[arg-type]
    links = SeatLinks(SECRET)
    app = create_app(service, store, WebConfig(links, BOT_TOKEN, init_max_age_s=3600.0), clock)  # type: ignore[arg-type]
    client = TestClient(TestServer(app))
    await client.start_server()
    yield Faulty(client, service, store, links, clock)
    await client.close()
    await inner.close()


async def test_a_move_that_could_not_be_saved_is_answered_503_and_goes_through_later(faulty: Faulty) -> None:
    rec = await two_player_table(faulty.service, deck=RK_DECK)
    url = f"/api/table/{rec.id}/move"
    k = faulty.links.token(rec.id, 0, faulty.clock.now() + 3600)
    body = {"version": rec.version, "key": "m1", "play": OPENING}
    faulty.store.fail("commit")
    refused = await faulty.client.post(url, params={"k": k, "lang": "ru"}, json=body)
    assert refused.status == 503 and refused.headers["Retry-After"]
    answer = await refused.json()
    assert answer == {"error": t("error.E_STORE_UNAVAILABLE", "ru"), "code": "E_STORE_UNAVAILABLE"}
    assert (await faulty.service.get(rec.id)).version == rec.version  # nothing applied
    again = await faulty.client.post(url, params={"k": k}, json=body)  # the store is back: no restart
    assert again.status == 200 and (await again.json())["version"] > rec.version


async def test_a_page_whose_table_cannot_be_read_is_answered_503(faulty: Faulty) -> None:
    rec = await two_player_table(faulty.service, deck=RK_DECK)
    k = faulty.links.token(rec.id, 0, faulty.clock.now() + 3600)
    faulty.store.fail("get_table")
    got = await faulty.client.get(f"/api/table/{rec.id}", params={"k": k})
    assert got.status == 503
    assert (await got.json())["error"] == t("error.E_STORE_UNAVAILABLE", "en")
    assert (await faulty.client.get(f"/api/table/{rec.id}", params={"k": k})).status == 200
