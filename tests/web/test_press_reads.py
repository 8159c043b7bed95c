"""One Rummikub press from the web page followed to the stored move (issue 25, item 3): who posts is
known from the link or the Mini App's sign-in without a read, and the service decodes the press
against the table it reads under the table's gate, so the table is read once before the move's
commit, by a seat link or by a Mini App (the page's route reading it first, to find the seat and
compose the move, was a second read)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.core.clock import FakeClock
from bot.core.i18n import t
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import SqliteStore
from tests.telegram.test_press_reads import ReadCounting, reads_before_commit
from tests.web.conftest import Web
from tests.web.tables import ALICE, BOB, BOT_TOKEN, RK_DECK, SECRET, init_data, two_player_table


@pytest.fixture
async def counted(tmp_path: Path) -> AsyncIterator[tuple[Web, ReadCounting]]:
    inner = SqliteStore(str(tmp_path / "web.db"))
    await inner.open()
    store: Any = ReadCounting(inner)
    clock = FakeClock()
    service = TableService(store, clock, new_seed=lambda: 42)
    links = SeatLinks(SECRET)
    client = TestClient(TestServer(create_app(service, store, WebConfig(links, BOT_TOKEN), clock)))
    await client.start_server()
    yield Web(client, service, inner, clock, links), store
    await client.close()
    await inner.close()


async def draw(web: Web, store: ReadCounting, table: str, params: dict[str, str]) -> dict[str, Any]:
    """Press the hand's draw control; the trail of reads and commits is the press's own."""
    page = await (await web.client.get(f"/api/table/{table}", params=params)).json()
    label = t("move.rummikub.draw", page["lang"])
    control = next(a for a in page["hand"]["actions"] if not a["with_items"] and a["label"].startswith(label))
    store.trail.clear()
    resp = await web.client.post(f"/api/table/{table}/move", params=params,
                                 json={"version": page["version"], "key": f"d{page['version']}",
                                       "press": {"index": control["index"], "option": control["option"], "picks": []}})
    assert resp.status == 200, await resp.text()
    after: dict[str, Any] = await resp.json()
    assert after["version"] > page["version"]
    return after


@pytest.mark.parametrize("by", ["link", "mini app"])
async def test_a_rummikub_press_from_the_page_reads_the_table_once_for_its_decode_and_apply(
        counted: tuple[Web, ReadCounting], by: str) -> None:
    web, store = counted
    rec = await two_player_table(web.service, deck=RK_DECK)
    seat = rec.state["turn"] if rec.state else 0
    who = (ALICE, BOB)[seat]
    params = {"k": web.link(rec.id, seat)} if by == "link" else {"tma": init_data(who, web.clock.now())}
    after = await draw(web, store, rec.id, params)
    assert after["seat"] == seat
    assert reads_before_commit(store.trail) == 1, store.trail
