"""Issue 18, item 2 on Telegram: with the web table on, the DM hand carries an "Open table" `web_app`
button to the table's page (the page signs the player in with the Mini App's initData), the group's
table message a direct Mini App link when the app's short name is set; no token in either, so a hand
is not edited only because a link was signed again. `rummyclub run` with TELEGRAM_TOKEN and WEB_PORT
serves the web table in the same process, and with both tokens one server serves both adapters."""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import urlencode

import aiohttp

from bot.core.codec import decode
from bot.web.auth import SeatLinks, sign_init_data
from bot.web.server import WebServer
from tests.discord.fake_discord import FakeDiscord
from tests.telegram.conftest import GROUP_ID, TOKEN, Harness
from tests.telegram.fake_bot_api import JSON, FakeTelegramBotAPI
from tests.telegram.test_cli_run import bot_process, free_port

LINKS = SeatLinks(b"k" * 32)


def web_apps(h: Harness, message: JSON) -> list[str]:
    return [b["web_app"]["url"] for b in h.fake.buttons(message) if "web_app" in b]


def urls(h: Harness, message: JSON) -> list[str]:
    return [b["url"] for b in h.fake.buttons(message) if "url" in b]


async def started(h: Harness, base: str = "https://web.example", app: str | None = "table") -> None:
    h.tg.web = WebServer(base, LINKS, 3600.0, h.clock)
    h.tg.config.webapp_name = app
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)


async def test_each_hand_opens_the_table_page_and_the_group_links_into_the_mini_app(h: Harness) -> None:
    await started(h)
    rec = await h.table()
    for user in (h.alice, h.bob):
        assert web_apps(h, await h.hand_message(user)) == [f"https://web.example/table/{rec.id}?lang=en"]
    table = await h.table_message()
    assert web_apps(h, table) == []  # Telegram takes web_app buttons in private chats only
    assert f"https://t.me/rummy_test_bot/table?startapp={rec.id}" in urls(h, table)
    assert all("k=" not in u for u in urls(h, table))  # no seat's token ever reaches the group

    # An hour later the hand is put again: the button is the same, so nothing is edited.
    h.clock.advance(3600)
    before = len(h.fake.calls)
    await h.tg.delivery.put_hand(await h.table(), 0)
    await h.idle()
    assert h.fake.calls[before:] == []


async def test_the_button_speaks_the_players_language_and_needs_https(h: Harness) -> None:
    await started(h, base="http://127.0.0.1:8080", app=None)
    rec = await h.table()
    assert web_apps(h, await h.hand_message(h.alice)) == []  # Telegram refuses a web_app URL without https
    assert not any("t.me/rummy_test_bot/" in u for u in urls(h, await h.table_message()))
    h.tg.web = WebServer("https://web.example", LINKS, 3600.0, h.clock)
    await h.dm("/lang ru", h.bob)
    await h.dm("hand", h.bob)
    hand = await h.hand_message(h.bob)
    (button,) = [b for b in h.fake.buttons(hand) if "web_app" in b]
    assert button["web_app"]["url"] == f"https://web.example/table/{rec.id}?lang=ru" and button["text"] == "Открыть стол"


async def test_no_web_buttons_without_the_web_table(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    assert web_apps(h, await h.hand_message(h.alice)) == []
    assert not any("startapp" in u for u in urls(h, await h.table_message()))


def init_data(user: JSON, table_id: str, bot_token: str = TOKEN) -> str:
    fields = {"auth_date": str(int(time.time())), "user": json.dumps({"id": user["id"], "first_name": user["first_name"]}),
              "start_param": table_id}
    return urlencode({**fields, "hash": sign_init_data(fields, bot_token)})


async def _playing_table(fake: FakeTelegramBotAPI) -> tuple[str, JSON]:
    """Alice and Bob start a table in the group through the running bot; the table's id and Alice."""
    alice, bob = fake.user(101, "Alice"), fake.user(202, "Bob")
    group = fake.group(GROUP_ID, "Friends")
    for u in (alice, bob):
        fake.push_text("/start", user=u)
    fake.push_text("/new rummikub", user=alice, chat=group)
    lobby = await fake.wait_for_call("sendMessage", lambda c: c.chat_id == GROUP_ID and "reply_markup" in c.params,
                                     timeout=20)
    markup = lobby.params["reply_markup"]
    markup = json.loads(markup) if isinstance(markup, str) else markup
    join = next(b["callback_data"] for row in markup["inline_keyboard"] for b in row if decode(b["callback_data"]).verb == "join")
    table_id = decode(join).table_id
    message = fake.chat_messages(GROUP_ID)[-1]
    fake.push_callback(join, message=message, user=bob)
    await fake.wait_for_call("editMessageText", lambda c: "Bob" in c.params["text"], timeout=20)
    message = fake.chat_messages(GROUP_ID)[-1]
    start = next(b["callback_data"] for b in fake.buttons(message) if decode(b["callback_data"]).verb == "start")
    fake.push_callback(start, message=message, user=alice)
    return table_id, alice


async def test_run_with_web_port_serves_the_web_table_in_the_same_process(fake: FakeTelegramBotAPI,
                                                                          tmp_path: Path) -> None:
    port = free_port()
    async with bot_process(tmp_path, TELEGRAM_API_URL=fake.base_url, WEB_PORT=str(port),
                           WEB_URL="https://web.example", TELEGRAM_WEBAPP_NAME="table"):
        await fake.wait_for_call("setMyCommands", timeout=20)
        table_id, alice = await _playing_table(fake)
        # The hand is a picture (the default look) carrying the Open table button.
        hand = await fake.wait_for_call("sendPhoto", lambda c: c.chat_id == alice["id"] and "web_app" in str(
            c.params.get("reply_markup", "")), timeout=20)
        assert f"https://web.example/table/{table_id}" in str(hand.params["reply_markup"])
        base = f"http://127.0.0.1:{port}/api/table/{table_id}"
        async with aiohttp.ClientSession() as session:
            async with session.get(base, params={"tma": init_data(alice, table_id)}) as resp:
                assert resp.status == 200, "the Mini App signs Alice in with the bot's token"
                assert (await resp.json())["seat"] is not None
            async with session.get(base, params={"tma": init_data(alice, table_id, "1:forged")}) as resp:
                assert resp.status == 401


async def test_both_tokens_share_one_web_table(fake: FakeTelegramBotAPI, tmp_path: Path) -> None:
    from tests.discord.conftest import TOKEN as DISCORD_TOKEN
    from tests.discord.test_cli_run import bot_process as both_process

    discord = await FakeDiscord(DISCORD_TOKEN).start()
    port, secret = free_port(), "s" * 32
    try:
        async with both_process(tmp_path, discord, TELEGRAM_TOKEN=TOKEN, TELEGRAM_API_URL=fake.base_url,
                                WEB_PORT=str(port), WEB_URL="https://web.example", WEB_SECRET=secret):
            await fake.wait_for_call("setMyCommands", timeout=20)
            table_id, alice = await _playing_table(fake)
            await fake.wait_for_call("sendPhoto", lambda c: c.chat_id == alice["id"] and "web_app" in str(
                c.params.get("reply_markup", "")), timeout=20)
            token = SeatLinks(secret.encode()).token(table_id, None, time.time() + 600)
            async with aiohttp.ClientSession() as session:
                base = f"http://127.0.0.1:{port}/api/table/{table_id}"
                async with session.get(base, params={"tma": init_data(alice, table_id)}) as resp:
                    assert resp.status == 200
                async with session.get(base, params={"k": token}) as resp:
                    assert resp.status == 200, "Discord's signed links are checked by the same server"
    finally:
        await discord.stop()
