"""Issue 9's commands on Discord: standings answer in the channel, bad input privately."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from bot.web.auth import SeatLinks
from bot.web.server import WebServer
from tests.discord.conftest import EPHEMERAL, Harness, components
from tests.stats.conftest import GO_OUT, LOSING, WINNING
from tests.web.tables import replay_answers


async def play_quick_match(h: Harness) -> None:
    """Alice goes out on her first move (a stacked deck): a finished two-player Rummikub match."""
    h.deck = WINNING + LOSING
    await h.open_lobby(users=(h.bob,))
    await h.slash("start", h.alice)
    await h.slash("play", h.alice, text=GO_OUT)
    assert (await h.table()).status == "finished"


def public_text(h: Harness, payload: dict) -> str:
    data = h.answer(payload)
    assert not (data.get("flags") or 0) & EPHEMERAL
    return data["content"]


async def test_leaderboard_stats_history_rematch(h: Harness) -> None:
    empty = await h.slash("leaderboard", h.carol)
    assert "No counted matches here yet" in public_text(h, empty)
    await play_quick_match(h)
    board = public_text(h, await h.slash("leaderboard", h.carol, args="rummikub week"))
    assert "this week" in board and board.index("1. Alice") < board.index("2. Bob")
    assert "Alice" in public_text(h, await h.slash("history", h.bob))
    assert "Rummikub" in public_text(h, await h.slash("stats", h.bob))
    bad = await h.slash("leaderboard", h.carol, args="chess")
    assert h.answer(bad)["flags"] & EPHEMERAL and "chess" in h.answer(bad)["content"]
    again = await h.slash("rematch", h.bob)
    assert h.answer(again)["flags"] & EPHEMERAL
    rec = await h.store.active_table_for_chat("discord", str(h.fake.channel_id))
    assert rec is not None and rec.status == "lobby" and [s.name for s in rec.seats] == ["Alice", "Bob"]
    h.assert_no_hand_in_channel()


async def test_history_has_a_replay_button_per_finished_match_when_the_web_table_is_on(h: Harness) -> None:
    await play_quick_match(h)
    assert components(h.answer(await h.slash("history", h.bob))) == [], "no web table: no buttons"

    links = SeatLinks(b"k" * 32)
    h.bot.web = WebServer("https://web.example", links, 3600.0, h.clock)
    answer = h.answer(await h.slash("history", h.carol))
    rec = await h.table()
    (button,) = components(answer)
    assert "Rummikub" in button["label"] and "Alice won" in answer["content"]
    url = button["url"]
    assert url.startswith(f"https://web.example/replay/{rec.id}?k=")
    assert links.verify(parse_qs(urlsplit(url).query)["k"][0], h.clock.now()).seat is None, "the public view"
    frame = await replay_answers(url, h.service, h.store, h.clock, links)
    assert frame["table"] == rec.id and frame["hand"] is None and frame["steps"] > 1
