"""Autocomplete of /rummy play, Russian, hands by DM, a thread per table, AutoShardedClient."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.metrics import REGISTRY
from rules import get_engine
from tests.discord.conftest import Harness, components, is_hand
from tests.discord.fake_wire import EPHEMERAL


async def _started(h: Harness, game: str = "rummikub") -> None:
    await h.open_lobby(game, users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")


async def test_play_autocomplete_from_verbs_and_hand(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    seat = rec.state["turn"]
    user = h.user_of(rec, seat)
    verbs = [c["value"] for c in await h.autocomplete("d", user)]
    assert "draw" in verbs and all(v.startswith("d") for v in verbs)
    rack = get_engine("rummikub").view(rec.state, seat)["rack"]
    first = rack[0]
    got = [c["value"] for c in await h.autocomplete(f"new {first[0]}", user)]
    assert f"new {first}" in got and all(g.split()[1] in rack for g in got)
    assert await h.autocomplete("dr", h.carol) == []  # no seat, no suggestions


async def test_russian_locale(h: Harness) -> None:
    h.fake.locale = "ru"
    await _started(h)
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    hand = await h.hand(user)
    assert hand["embeds"][0]["title"].endswith("ваша рука")
    labels = [c.get("label") for c in components(hand)]
    assert t("dc.btn.refresh", "ru") in labels
    bad = await h.slash("play", user, text="fly away")
    assert h.answer(bad)["content"] == h.answer(bad)["content"].strip()
    assert any("\u0400" <= ch <= "\u04ff" for ch in h.answer(bad)["content"])


async def test_hand_by_dm_and_closed_dms(h: Harness) -> None:
    h.fake.dm_closed.add(h.bob["id"])
    refused = await h.slash("dm", h.bob, mode="on")
    assert "cannot send you a DM" in h.answer(refused)["content"]
    ok = await h.slash("dm", h.alice, mode="on")
    assert h.answer(ok)["content"] == t("dc.dm_on")
    await _started(h)
    dms = [r for r in h.fake.requests if r.method == "POST" and r.path.startswith("/channels/")
           and int(r.path.split("/")[2]) in h.fake.dm_channels and is_hand(r.json)]
    assert dms  # Alice's hand went to her DM when the game started
    asked = await h.slash("hand", h.alice)
    assert h.answer(asked)["content"] == t("dc.dm_sent")
    h.fake.dm_closed.add(h.alice["id"])  # she closes her DMs: the hand comes ephemeral, with the notice
    asked = await h.slash("hand", h.alice)
    cb = h.answer(asked)
    assert cb["flags"] & EPHEMERAL and "cannot send you a DM" in cb["content"] and cb["embeds"]


async def test_table_in_its_own_thread(h: Harness) -> None:
    await h.slash("new", h.alice, game="rummy101", thread=True)
    assert len(h.fake.threads) == 1
    lobby = await h.table_message()
    assert int(lobby["channel_id"]) == h.fake.threads[0]
    await h.press(lobby, h.bob, "join")
    assert len((await h.table()).seats) == 2


async def test_auto_sharded_client(h: Harness) -> None:
    await h.stop()
    h.sharded = True
    await h.start()
    assert ("GET", "/gateway/bot") in [(r.method, r.path) for r in h.fake.requests]
    assert h.fake.identifies[-1]["shard"] == [0, 1]
    await _started(h)
    assert (await h.table()).status == "playing"


async def test_table_options_in_new(h: Harness) -> None:
    bad = await h.slash("new", h.alice, game="rummikub", options="turn_timer_s")
    assert "key=value" in h.answer(bad)["content"]
    wrong = await h.slash("new", h.alice, game="rummikub", options="no_such_option=1")
    assert h.answer(wrong)["flags"] & EPHEMERAL
    assert not await h.store.list_tables(["lobby"])
    await h.slash("new", h.alice, game="rummikub", options="turn_timer_s=120")
    assert (await h.table()).options["turn_timer_s"] == 120


async def test_rate_limited_edit_is_retried_by_discord_py(h: Harness) -> None:
    await h.open_lobby("rummikub")
    rec = await h.table()
    h.fake.fail_next("PATCH", rf"/channels/{h.fake.channel_id}/messages/\d+")
    counted = REGISTRY.get_sample_value("rummy_rate_limited_total", {"platform": "discord"}) or 0.0
    await h.slash("join", h.bob)  # answered, then the lobby edit meets a 429 and is sent again
    edits = h.fake.requests_to("PATCH", rf"/channels/{h.fake.channel_id}/messages/\d+")
    assert len(edits) == 2 and edits[0].json == edits[1].json
    assert REGISTRY.get_sample_value("rummy_rate_limited_total", {"platform": "discord"}) == counted + 1  # /metrics
    assert "Bob" in (await h.table_message(rec))["embeds"][0]["description"]


def test_catalogs_have_the_same_discord_keys() -> None:
    from bot.core.i18n import catalog

    en = {k for k in catalog("en") if k.startswith("dc.")}
    ru = {k for k in catalog("ru") if k.startswith("dc.")}
    assert en == ru and len(en) > 40


async def test_play_autocomplete_offers_the_legal_moves_whole(h: Harness) -> None:
    """Three-Thirteen opens with draw or take: both offered as whole moves; off turn nothing legal."""
    await _started(h, "three_thirteen")
    rec = await h.table()
    seat = get_engine(rec.game).current_seat(rec.state)
    user = h.user_of(rec, seat)
    got = [c["value"] for c in await h.autocomplete("", user)]
    assert {"draw", "take"} <= set(got[:2]) and "discard" not in got[:2]
    other = h.bob if user is h.alice else h.alice
    assert "draw" not in [c["value"] for c in await h.autocomplete("d", other)]
