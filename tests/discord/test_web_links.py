"""Issue 18, item 2 on Discord: with the web table on, the ephemeral (or DM) hand carries a link
button to its seat's own page and the table message a spectator's link; no seat link ever reaches
the channel, and the links ride on the messages already sent (calls per turn unchanged).
`rummyclub run` with DISCORD_TOKEN and WEB_PORT serves the web table in the same process."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import aiohttp

from bot.core.codec import decode
from bot.web.auth import Pass, SeatLinks
from bot.web.server import WebServer
from tests.discord.conftest import TOKEN, Harness, components
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import JSON
from tests.discord.test_cli_run import _open_a_table, bot_process

LINKS = SeatLinks(b"k" * 32)
TTL_S = 3600.0


def _links(message: JSON | None) -> list[str]:
    return [c["url"] for c in components(message) if c.get("url")]


def _pass(url: str, now: float) -> Pass:
    """Who a link lets in (refused with AuthError when forged or expired)."""
    assert url.startswith("https://web.example/table/")
    return LINKS.verify(parse_qs(urlparse(url).query)["k"][0], now)


def _web_on(h: Harness) -> None:
    h.bot.web = WebServer("https://web.example", LINKS, TTL_S, h.clock)


async def _started(h: Harness) -> None:
    _web_on(h)
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")


async def test_each_hand_links_its_own_seat_and_the_table_the_spectators(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    (watch,) = _links(await h.table_message())
    assert _pass(watch, h.clock.now()) == Pass(rec.id, None)
    for user in (h.alice, h.bob):
        (mine,) = _links(await h.hand(user))
        assert _pass(mine, h.clock.now()) == Pass(rec.id, h.service.seat_of(rec, h.player(user)))
    user = h.user_of(rec, rec.state["turn"])
    hand = await h.hand(user)
    draw = next(c for c in components(hand) if c.get("label") == "draw")
    n = len(h.fake.requests)
    press = await h.click(draw["custom_id"], hand, user)
    assert len(h.fake.requests) - n == 4, "the answer, the table edit, the new ping, the old one deleted"
    (after,) = _links(h.message_of(press))
    assert _pass(after, h.clock.now()).seat == h.service.seat_of(rec, h.player(user))
    for r in h.fake.requests:  # nothing that went to the channel lets anyone in as a seat
        if r.path.startswith(f"/channels/{h.fake.channel_id}/") and isinstance(r.json, dict):
            assert all(_pass(url, h.clock.now()).seat is None for url in _links(r.json))


async def test_a_link_is_signed_again_only_once_half_its_lifetime_is_gone(h: Harness) -> None:
    await _started(h)
    (first,) = _links(await h.table_message())
    for _ in range(2):
        rec = await h.table()
        h.clock.advance(TTL_S / 5)
        await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
        assert _links(await h.table_message()) == [first], "an edit for a move keeps the link"
    h.clock.advance(TTL_S / 5)
    rec = await h.table()
    await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    (renewed,) = _links(await h.table_message())
    assert renewed != first and _pass(renewed, h.clock.now() + TTL_S * 0.99).seat is None


async def test_no_link_without_the_web_table(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    assert not _links(await h.table_message()) and not _links(await h.hand(h.alice))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_run_with_web_port_serves_the_web_table_in_the_same_process(tmp_path: Path) -> None:
    fake = await FakeDiscord(TOKEN).start()
    port, secret = _free_port(), "s" * 32
    try:
        async with bot_process(tmp_path, fake, WEB_PORT=str(port), WEB_SECRET=secret):
            await _open_a_table(fake)
            lobby = (await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages")).json
            table_id = decode(components(lobby)[0]["custom_id"]).table_id
            token = SeatLinks(secret.encode()).token(table_id, None, time.time() + 600)
            async with aiohttp.ClientSession() as session:
                base = f"http://127.0.0.1:{port}/api/table/{table_id}"
                # The server is up before the client connects: the lobby's post means it listens.
                async with session.get(base, params={"k": "forged"}) as resp:
                    assert resp.status == 401
                async with session.get(base, params={"k": token}) as resp:
                    assert resp.status == 200, "the page reads the table the Discord client opened"
    finally:
        await fake.stop()
