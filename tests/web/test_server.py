"""bot/web/server.py: the server started from settings, and the terminal player's seat link printed
once per table — for a game in play at start and for one that starts later — that opens that seat."""

from __future__ import annotations

import re
from urllib.parse import parse_qs, urlsplit

import aiohttp
from pydantic import SecretStr

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.models import Player
from bot.core.service import TableService
from bot.settings import Settings
from bot.web.auth import SeatLinks
from bot.web.server import mini_app_link, serve, serve_terminal
from storage import SqliteStore
from tests.web.tables import replay_answers

YOU = Player("console", "you", "You")


async def _start(service: TableService, chat: str) -> str:
    rec = await service.open_table("rummikub", "console", chat, YOU)
    await service.add_ai(rec.id, YOU)
    await service.start(rec.id, YOU)
    return rec.id


async def test_the_terminal_player_gets_one_working_link_per_table(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "s.db"))
    await store.open()
    clock = FakeClock()
    service = TableService(store, clock)
    resumed = await _start(service, "c1")
    settings = Settings(_env_file=None, web_secret=SecretStr("s3cret"), web_link_ttl_s=600, web_port=None)
    told: list[str] = []
    try:
        async with serve_terminal(service, store, settings, told.append, "ru", YOU) as server:
            assert len(told) == 1 and f"/table/{resumed}?" in told[0], "the game in play at start"
            fresh = await _start(service, "c2")
            assert len(told) == 2 and f"/table/{fresh}?" in told[1]
            await service.act(fresh, YOU, "draw")
            assert len(told) == 2, "once per table, not per move"
            query = parse_qs(urlsplit(told[1]).query)
            granted = SeatLinks(b"s3cret").verify(query["k"][0], clock.now())
            assert (granted.table_id, granted.seat) == (fresh, 0) and query["lang"] == ["ru"]
            async with aiohttp.ClientSession() as http:
                api = told[1].replace(f"/table/{fresh}?", f"/api/table/{fresh}?")
                async with http.get(api) as resp:
                    data = await resp.json()
                assert data["seat"] == 0 and data["hand"] is not None
                async with http.get(server.base_url + "/") as resp:
                    assert resp.status == 200 and "app.js" in await resp.text()
        assert not service.commit_listeners, "nothing left listening once the server stopped"
    finally:
        await store.close()


def test_the_mini_app_direct_link_names_the_table() -> None:
    assert mini_app_link("@RummyClubBot", "table", "ab12") == "https://t.me/RummyClubBot/table?startapp=ab12"


async def finished_console_match(service: TableService) -> str:
    """A Three-Thirteen match of the terminal player and an AI, played to its end by the stand-in."""
    rec = await service.open_table("three_thirteen", "console", "terminal", YOU, options={"rounds": 2})
    await service.add_ai(rec.id, YOU)
    await service.start(rec.id, YOU)
    await service.set_away(rec.id, YOU, True)
    assert (await service.get(rec.id)).status == "finished"
    return rec.id


async def test_the_terminal_history_links_each_finished_match_to_its_replay(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "s.db"))
    await store.open()
    clock = FakeClock()
    service = TableService(store, clock)
    table = await finished_console_match(service)
    settings = Settings(_env_file=None, web_secret=SecretStr("s3cret"), web_link_ttl_s=600, web_port=None)
    try:
        async def nothing() -> str | None:
            return None

        plain: list[str] = []
        await ConsoleTable(service, nothing, plain.append).stats_command("history")
        assert plain and "/replay/" not in "\n".join(plain), "no web table: the history as before"
        async with serve(service, store, settings) as server:
            told: list[str] = []
            console = ConsoleTable(service, nothing, told.append, "ru",
                                   replay_url=lambda t: server.replay_url(t, "ru"))
            await console.stats_command("history")
            (url,) = re.findall(r"http://\S+/replay/\S+", "\n".join(told))
            assert f"/replay/{table}?k=" in url and "повтор" in "\n".join(told)
            frame = await replay_answers(url, service, store, clock, SeatLinks(b"s3cret"))
            assert frame["table"] == table and frame["hand"] is None and frame["steps"] > 1
    finally:
        await store.close()
