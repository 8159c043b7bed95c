"""A display name is shown as typed and pings nobody; a turn message can ping only its player."""

from __future__ import annotations

from bot.discord.safe import plain
from tests.discord.conftest import Harness
from tests.stats.conftest import GO_OUT, LOSING, WINNING

HOSTILE = "@everyone **x** <@4343>"


def _literal(text: str) -> bool:
    """No bold, no @everyone and no raw user mention survives unescaped."""
    return "**x**" not in text and "@everyone" not in text and "<@4343>" not in text


async def test_a_hostile_name_in_the_round_summary_is_escaped_and_pings_nobody_else(h: Harness) -> None:
    h.bob["global_name"] = HOSTILE
    h.deck = WINNING + LOSING  # Alice goes out at once: a round summary naming Bob
    await h.open_lobby(users=(h.bob,))
    await h.slash("start", h.alice)
    await h.slash("play", h.alice, text=GO_OUT)
    posts = h.fake.requests_to("POST", rf"/channels/{h.fake.channel_id}/messages")
    posts += h.fake.requests_to("PATCH", rf"/channels/{h.fake.channel_id}/messages/\d+")  # the ping edited into it
    summary = [r.json for r in posts if "x" in (r.json.get("content") or "") and "Alice" in r.json["content"]]
    assert summary, [r.json.get("content") for r in posts]
    assert plain(HOSTILE) in summary[-1]["content"]
    for r in posts:  # every channel message: nothing unescaped, nobody pinged but the one it names
        body = r.json
        assert _literal(body.get("content") or ""), body.get("content")
        assert all(_literal(f["value"]) for e in body.get("embeds") or [] for f in e.get("fields") or [])
        if r.method == "PATCH":
            continue  # the table's code block holds names literally: checked below
        assert all(_literal(e.get("description") or "") for e in body.get("embeds") or [])
        mentions = body.get("allowed_mentions")
        assert mentions is not None and mentions.get("parse") == [] and not mentions.get("roles")
        assert {str(u) for u in mentions.get("users") or []} <= {h.alice["id"]}  # Alice's pings are hers alone
    for r in h.fake.requests_to("PATCH", rf"/channels/{h.fake.channel_id}/messages/\d+"):
        for e in r.json.get("embeds") or []:  # the table: names in the code block are literal; the lines under it
            assert _literal((e.get("description") or "").rpartition("```")[2])


async def test_a_turn_ping_may_notify_only_that_player(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    await h.slash("play", user, text="draw")
    pings = [r.json for r in h.fake.requests_to("POST", rf"/channels/{h.fake.channel_id}/messages")
             if "<@" in (r.json.get("content") or "")]
    assert pings
    for body in pings:
        named = body["content"].split("<@")[1].split(">")[0]
        mentions = body["allowed_mentions"]
        assert mentions["parse"] == [] and [str(u) for u in mentions["users"]] == [named]


async def test_discord_words_its_own_commands(h: Harness) -> None:
    """Where Telegram's texts say /new, /back or "type help", Discord's say /rummy …"""
    none = await h.slash("hand", h.alice)
    assert "/rummy new" in h.answer(none)["content"]
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    await h.slash("play", user, text="fly away")
    away = await h.slash("away", user)
    assert "/rummy back" in h.answer(away)["content"]
    h.assert_no_telegram_wording()  # the fixture checks it after every Discord test too
