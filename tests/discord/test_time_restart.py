"""Deadlines through the shared scheduler (fake clock), lobby expiry, away/back, and a restart
with the persistent buttons of messages sent before it still working."""

from __future__ import annotations

from bot.core.codec import decode
from tests.discord.conftest import Harness, components


async def _started(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")


async def test_turn_timeout_applies_the_rule_and_pings_the_next_player(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    seat = rec.state["turn"]
    assert await h.bot.scheduler.run_once() == []
    h.clock.advance(59)
    assert await h.bot.scheduler.run_once() == []
    h.clock.advance(2)
    n = len(h.fake.requests)
    assert len(await h.bot.scheduler.run_once()) == 1
    after = await h.table()
    assert after.state["turn"] != seat and (await h.store.log(rec.id))[-1].kind == "timeout"
    assert "penalty" in (await h.table_message())["embeds"][0]["description"]
    nxt = h.user_of(after, after.state["turn"])
    pings = [r.json["content"] for r in h.fake.requests[n:] if r.method == "POST" and r.path.endswith("/messages")]
    assert any(f"<@{nxt['id']}>" in p and "your turn" in p for p in pings), pings


async def test_abandoned_lobby_expires(h: Harness) -> None:
    await h.open_lobby()
    h.clock.advance(601)
    await h.bot.scheduler.run_once()
    assert (await h.table()).status == "abandoned"
    msg = await h.table_message()
    assert "closed" in msg["embeds"][0]["description"] and not msg["components"]
    await h.slash("new", h.alice, game="rummikub")  # the channel is free again
    assert (await h.table()).status == "lobby"


async def test_away_and_back(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    away_user = h.user_of(rec, rec.state["turn"])
    await h.slash("away", away_user)
    rec = await h.table()
    assert any(s.away for s in rec.seats)
    assert rec.seats[rec.state["turn"]].user_id != away_user["id"]  # the AI moved for them
    await h.slash("back", away_user)
    assert not any(s.away for s in (await h.table()).seats)


async def test_restart_mid_game_with_persistent_buttons(h: Harness) -> None:
    await _started(h)
    for _ in range(3):
        rec = await h.table()
        user = h.user_of(rec, rec.state["turn"])
        await h.slash("play", user, text=await h.ai_move(user))
    rec = await h.table()
    table_before = await h.table_message()
    user = h.user_of(rec, rec.state["turn"])
    hand_before = await h.hand(user)  # an ephemeral hand sent by the old process
    await h.stop()  # the process goes away; a new client opens the same database

    n = len(h.fake.requests)
    await h.start()
    await h.bot.restored.wait()
    restored = await h.table_message()
    # Every message shows the table's version: nothing is sent or edited again (a restart's storm).
    assert restored["id"] == table_before["id"] and "Game restored." not in restored["embeds"][0]["description"]
    assert not [r for r in h.fake.requests[n:] if r.path.startswith("/channels/")]
    # a button of the hand sent before the restart still plays
    move = await h.ai_move(user)
    buttons = [c for c in components(hand_before) if c.get("label") == move and decode(c["custom_id"]).verb == "cmd"]
    if buttons:
        await h.click(buttons[0]["custom_id"], hand_before, user)
    else:
        await h.slash("play", user, text=move)
    assert (await h.table()).log_seq == rec.log_seq + 1
    # and the table message's "My hand" from before the restart answers
    press = await h.press(table_before, h.alice, "hand")
    assert h.callback(press)["type"] == 4 and h.answer(press)["embeds"]
    h.clock.advance(61)
    assert len(await h.bot.scheduler.run_once()) == 1  # deadlines survive the restart too


async def test_a_restart_edits_only_the_table_message_behind_its_table(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    await h.store.set_table_ref(rec.id, "shown:message", rec.version - 1)  # a process died before showing it
    n = len(h.fake.requests)
    await h.restart()
    await h.bot.restored.wait()
    sent = [(r.method, r.path) for r in h.fake.requests[n:] if r.path.startswith("/channels/")]
    assert len(sent) == 1 and sent[0][0] == "PATCH"
    assert "Game restored." in (await h.table_message())["embeds"][0]["description"]
    assert (await h.store.table_refs(rec.id))["shown:message"] == rec.version
    n = len(h.fake.requests)
    await h.restart()
    await h.bot.restored.wait()
    assert not [r for r in h.fake.requests[n:] if r.path.startswith("/channels/")]


async def test_no_view_kept_in_memory_and_the_dynamic_item_stays(h: Harness) -> None:
    """Views are layouts only: nothing accumulates per message, and no view timeout can unhook
    the dynamic item that every press goes through."""
    from bot.discord.views import CUSTOM_ID

    await _started(h)
    rec = await h.table()
    await h.hand(h.user_of(rec, rec.state["turn"]))
    store = h.client._connection._view_store  # type: ignore[union-attr]
    assert not store._views and not store._synced_message_views
    assert CUSTOM_ID in store._dynamic_items


async def test_a_restart_edits_a_dm_hand_only_when_it_is_behind(h: Harness) -> None:
    await h.slash("dm", h.alice, mode="on")
    await _started(h)
    for _ in range(2):  # moves by text and by the DM hand's buttons alike keep its shown version
        rec = await h.table()
        user = h.user_of(rec, rec.state["turn"])
        await h.slash("play", user, text=await h.ai_move(user))
    rec = await h.table()
    key = f"dm:{h.alice['id']}"
    assert (await h.store.table_refs(rec.id))["shown:" + key] == rec.version
    n = len(h.fake.requests)
    await h.restart()
    await h.bot.restored.wait()
    assert not [r for r in h.fake.requests[n:] if r.path.startswith("/channels/")]
    await h.store.set_table_ref(rec.id, "shown:" + key, rec.version - 1)
    n = len(h.fake.requests)
    await h.restart()
    await h.bot.restored.wait()
    channel_id, _ = (await h.store.table_refs(rec.id))[key].split(":")
    sent = [(r.method, r.path) for r in h.fake.requests[n:] if r.path.startswith("/channels/")]
    assert len(sent) == 1 and sent[0][0] == "PATCH" and sent[0][1].startswith(f"/channels/{channel_id}/")
