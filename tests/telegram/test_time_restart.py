"""Deadlines through the scheduler (fake clock), lobby expiry, /away /back /end, and a restart."""

from __future__ import annotations

from tests.telegram.conftest import GROUP_ID, Harness


async def test_turn_timeout_applies_the_rule_and_notifies_the_next_player(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    seat = rec.state["turn"]
    assert await h.tg.scheduler.run_once() == []
    h.clock.advance(59)
    assert await h.tg.scheduler.run_once() == []
    h.clock.advance(2)
    n = len(h.fake.calls)
    outcomes = await h.tg.scheduler.run_once()
    await h.tg.idle()
    assert len(outcomes) == 1
    after = await h.table()
    assert after.state["turn"] != seat and (await h.store.log(rec.id))[-1].kind == "timeout"
    assert "penalty" in (await h.table_message())["text"]
    nxt = h.bob if seat == 0 else h.alice
    assert any(c.params["text"].startswith("Your turn") for c in h.fake.calls_to("sendMessage", after=n)
               if c.chat_id == nxt["id"]), "the notice goes to the next player's DM"


async def test_abandoned_lobby_expires(h: Harness) -> None:
    await h.open_lobby()
    h.clock.advance(601)
    await h.tg.scheduler.run_once()
    await h.tg.idle()
    assert (await h.table()).status == "abandoned"
    msg = await h.table_message()
    assert "closed" in msg["text"] and "reply_markup" not in msg
    await h.say("/new rummikub", h.alice, h.group)  # the chat is free again
    assert (await h.table()).status == "lobby"


async def test_away_and_back(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    away_user = h.alice if rec.state["turn"] == 0 else h.bob
    await h.say("/away", away_user, h.group)
    rec = await h.table()
    assert any(s.away for s in rec.seats)
    assert rec.state["turn"] != [s.user_id for s in rec.seats].index(str(away_user["id"]))  # the AI moved for them
    await h.say("/back", away_user, h.group)
    assert not any(s.away for s in (await h.table()).seats)


async def test_end_by_host_or_admin_only(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    await h.say("/end", h.bob, h.group)
    assert "Only the host" in h.fake.calls_to("sendMessage")[-1].params["text"]
    assert (await h.table()).status == "playing"
    h.fake.admins[GROUP_ID] = {h.bob["id"]}
    await h.say("/end", h.bob, h.group)
    assert (await h.table()).status == "abandoned"
    assert "The table was ended." in (await h.table_message())["text"]
    assert h.fake.calls_to("getChatMember")


async def test_restart_mid_game_continues_on_the_same_messages(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    for _ in range(3):
        rec = await h.table()
        user = h.alice if rec.state["turn"] == 0 else h.bob
        await h.dm(await h.ai_move(user), user)
    rec = await h.table()
    table_id_before = (await h.table_message())["message_id"]
    hand_before = (await h.hand_message(h.alice))["message_id"]
    await h.stop()  # the process goes away; a new Application opens the same database

    n = len(h.fake.calls)
    await h.start()
    await h.tg.idle()
    restored = await h.table_message()
    # Every message shows the table's version: nothing is edited again (test_restart_calm.py).
    assert restored["message_id"] == table_id_before and "Game restored." not in restored["text"]
    assert not [c for c in h.fake.calls[n:] if c.chat_id is not None]
    user = h.alice if rec.state["turn"] == 0 else h.bob
    await h.dm(await h.ai_move(user), user)
    assert (await h.table()).log_seq == rec.log_seq + 1
    assert (await h.hand_message(h.alice))["message_id"] == hand_before
    h.clock.advance(61)
    assert len(await h.tg.scheduler.run_once()) == 1  # deadlines survive the restart too


async def test_a_move_during_the_restored_render_is_taken_and_the_table_ends_up_current(h: Harness,
                                                                                        monkeypatch) -> None:
    """Startup does not wait for the restored tables to be shown again (bot/core/restored.py): a move
    that comes first is played and shown, and the late restored render of the older version is
    dropped by the outbox instead of putting the old table back."""
    import asyncio

    from bot.telegram.delivery import Delivery

    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    await h.stop()
    await h.store.open()
    await h.store.set_table_ref(rec.id, "shown:table", rec.version - 1)  # its message behind: shown again
    await h.store.close()
    gate = asyncio.Event()
    render = Delivery.render_restored

    async def held(self: Delivery, outcome, slots) -> None:  # type: ignore[no-untyped-def]
        await gate.wait()
        await render(self, outcome, slots)

    monkeypatch.setattr(Delivery, "render_restored", held)
    await h.start()
    assert not h.tg.restored._task.done(), "startup returned with the restored render still to come"
    user = h.alice if rec.state["turn"] == 0 else h.bob
    move = await h.ai_move(user)
    update = h.fake.push_text(move, user=user)

    async def handled() -> None:  # not h.tg.wait_processed: it waits for the restored render too
        async with h.tg._processed_cond:
            await h.tg._processed_cond.wait_for(lambda: update["update_id"] in h.tg.processed)

    await asyncio.wait_for(handled(), 10)
    after = await h.service.get(rec.id)
    assert after.version > rec.version and after.log_seq == rec.log_seq + 1
    gate.set()
    await h.tg.idle()
    shown = await h.table_message()
    assert "Game restored." not in shown["text"], "the older restored table did not replace the newer one"
