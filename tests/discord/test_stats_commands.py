"""Issue 9's commands on Discord: standings answer in the channel, bad input privately."""

from __future__ import annotations

from tests.discord.conftest import EPHEMERAL, Harness
from tests.stats.conftest import GO_OUT, LOSING, WINNING


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
