"""The standings commands end to end: real python-telegram-bot against the fake Bot API."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

from bot.web.auth import SeatLinks
from bot.web.server import WebServer
from tests.stats.conftest import GO_OUT, LOSING, WINNING
from tests.telegram.conftest import GROUP_ID, Harness
from tests.web.tables import replay_answers


def last_reply(h: Harness, chat_id: int) -> str:
    return [c for c in h.fake.calls_to("sendMessage") if c.chat_id == chat_id][-1].params["text"]


async def play_quick_match(h: Harness) -> None:
    """Alice goes out on her first move (a stacked deck): a finished two-player Rummikub match."""
    h.deck = WINNING + LOSING
    h.options = {"first_player": 1}
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    await h.dm(GO_OUT, h.alice)
    assert (await h.table()).status == "finished"


async def test_leaderboard_stats_history_and_rematch(h: Harness) -> None:
    menus = {c.params.get("language_code"): [x["command"] for x in c.params["commands"]]
             for c in h.fake.calls_to("setMyCommands")}
    for lang in (None, "ru"):
        assert {"leaderboard", "stats", "teams", "team", "history", "rematch"} <= set(menus[lang])

    await h.say("/leaderboard", h.carol, h.group)
    assert "No counted matches here yet" in last_reply(h, GROUP_ID)
    await play_quick_match(h)

    await h.say("/leaderboard", h.carol, h.group)
    board = last_reply(h, GROUP_ID)
    assert board.startswith("🏆 Rummikub — this chat, all time")
    assert board.index("1. Alice") < board.index("2. Bob") and "1 played · 1 won" in board
    await h.say("/leaderboard rummikub week", h.carol, h.group)
    assert "this week" in last_reply(h, GROUP_ID) and "1. Alice" in last_reply(h, GROUP_ID)
    await h.say("/leaderboard chess", h.carol, h.group)
    assert "I do not know “chess”" in last_reply(h, GROUP_ID)
    await h.say("/leaderboard rummikub fortnight", h.carol, h.group)
    assert "fortnight" in last_reply(h, GROUP_ID) and "month, week" in last_reply(h, GROUP_ID)

    await h.say("/stats", h.alice, h.group)
    assert "📊 Alice" in last_reply(h, GROUP_ID) and "100% won" in last_reply(h, GROUP_ID)
    await h.say("/stats Bob", h.alice, h.group)
    assert "📊 Bob" in last_reply(h, GROUP_ID) and "lost the last 1" in last_reply(h, GROUP_ID)
    await h.say("/stats Nobody", h.alice, h.group)
    assert "No player called “Nobody”" in last_reply(h, GROUP_ID)
    await h.say("/stats", h.bob)  # in a DM: across all chats
    assert "all chats" in last_reply(h, h.bob["id"])
    await h.say("/leaderboard", h.bob)  # in a DM: the global board
    assert "all chats" in last_reply(h, h.bob["id"]) and "1. Alice" in last_reply(h, h.bob["id"])

    await h.say("/history", h.carol, h.group)
    history = last_reply(h, GROUP_ID)
    assert "Rummikub · Alice won: 1. Alice" in history
    await h.say("/history lots", h.carol, h.group)
    assert "/history takes a number" in last_reply(h, GROUP_ID)
    await h.say("/teams", h.carol, h.group)
    assert "No team has finished a match here yet." in last_reply(h, GROUP_ID)
    await h.say("/team name Aces", h.alice, h.group)
    assert "not finished a team match" in last_reply(h, GROUP_ID)

    await h.say("/rematch", h.carol, h.group)
    assert "do not have a seat" in last_reply(h, GROUP_ID)
    old = await h.table()
    await h.say("/rematch", h.bob, h.group)
    rec = await h.table()
    assert rec.status == "lobby" and rec.id != old.id and [s.name for s in rec.seats] == ["Alice", "Bob"]
    assert rec.options == old.options and rec.host_user_id == str(h.bob["id"])
    lobby = await h.table_message(rec)
    assert "Alice" in lobby["text"] and "Bob" in lobby["text"]
    await h.press_verb(lobby, "start", h.bob)
    assert (await h.table()).status == "playing"
    await h.say("/rematch", h.bob, h.group)
    assert "already a table" in last_reply(h, GROUP_ID)


async def test_end_keeps_the_board_clean_and_russian_replies(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    await h.say("/end", h.alice, h.group)
    await h.say("/history", h.alice, h.group)
    assert "abandoned (not counted)" in last_reply(h, GROUP_ID)
    await h.say("/leaderboard rummikub", h.alice, h.group)
    assert "Nobody has finished a match" in last_reply(h, GROUP_ID)
    h.carol["language_code"] = "ru"  # the chat has no /lang: the asker's own language
    await h.say("/leaderboard шахматы", h.carol, h.group)
    assert "Не понимаю «шахматы»" in last_reply(h, GROUP_ID)


async def test_history_links_each_finished_match_to_its_replay_when_the_web_table_is_on(h: Harness) -> None:
    await play_quick_match(h)
    await h.say("/history", h.carol, h.group)
    assert "/replay/" not in last_reply(h, GROUP_ID), "no web table: the history as before"

    links = SeatLinks(b"k" * 32)
    h.tg.web = WebServer("https://web.example", links, 3600.0, h.clock)
    await h.say("/history", h.carol, h.group)
    rec = await h.table()
    (url,) = re.findall(r"https://web\.example/replay/\S+", html.unescape(last_reply(h, GROUP_ID)))
    assert url.startswith(f"https://web.example/replay/{rec.id}?k=")
    query = parse_qs(urlsplit(url).query)
    assert links.verify(query["k"][0], h.clock.now()).seat is None, "signed like the spectator link: the public view"
    assert query["lang"] == ["en"]
    frame = await replay_answers(url, h.service, h.store, h.clock, links)
    assert frame["table"] == rec.id and frame["hand"] is None and frame["steps"] > 1
