"""A player who blocks the bot does not stall the table: the AI stands in, the group hears it once
with the one-tap way back, and the player takes the seat back by coming back and moving."""

from __future__ import annotations

from storage import TableRecord
from tests.telegram.conftest import GROUP_ID, Harness
from tests.telegram.test_safety import started


def notices(h: Harness) -> list[str]:
    return [c.params["text"] for c in h.fake.calls_to("sendMessage")
            if c.chat_id == GROUP_ID and "cannot get my messages" in c.params["text"]]


async def test_a_blocked_player_is_stood_in_for_and_announced_once(h: Harness) -> None:
    rec, on_turn, other = await started(h)  # rummikub, no AI seats, no turn timer in this harness
    h.fake.block(other["id"])
    await h.dm("draw", on_turn)  # the turn passes to the blocked player: their hand cannot be sent
    await h.tg.idle()
    assert len(notices(h)) == 1
    notice = notices(h)[0]
    assert f"tg://user?id={other['id']}" in notice and f"start=h{rec.id}" in notice
    after = await h.table()
    blocked_seat = h.service.seat_of(after, h.player(other))
    assert after.seats[blocked_seat].away
    # The AI played the blocked seat's turn at once: the table does not wait for them.
    assert after.state["turn"] == h.service.seat_of(after, h.player(on_turn))
    assert [e.kind for e in await h.store.log(rec.id)][-1] == "ai"

    refused_before = len([c for c in h.fake.calls if c.chat_id == other["id"]])
    for _ in range(3):  # more turns: no second notice, and no more calls to the blocked chat
        await h.dm("draw", on_turn)
    await h.tg.idle()
    assert len(notices(h)) == 1
    assert len([c for c in h.fake.calls if c.chat_id == other["id"]]) == refused_before

    # Coming back as the notice says: the link opens the chat, takes the seat back and shows the hand.
    assert "/back" in notice
    await h.dm(f"/start h{rec.id}", other)
    hand = await h.hand_message(other)
    assert "Your rack" in hand["text"]
    assert not (await h.table()).seats[blocked_seat].away
    assert any("Welcome back" in c.params.get("text", "") for c in h.fake.calls_to("sendMessage")
               if c.chat_id == other["id"])
    await h.dm("draw", on_turn)
    back = await h.table()
    assert back.state["turn"] == blocked_seat  # the AI no longer answers for them
    await h.dm("draw", other)
    assert [e for e in await h.store.log(rec.id) if e.seat == blocked_seat][-1].kind == "action"
    assert len(notices(h)) == 1


async def blocked_and_stood_in(h: Harness) -> tuple[TableRecord, int, dict, dict]:
    rec, on_turn, other = await started(h)
    h.fake.block(other["id"])
    await h.dm("draw", on_turn)  # their hand cannot be sent: the AI stands in
    await h.tg.idle()
    seat = h.service.seat_of(await h.table(), h.player(other))
    assert (await h.table()).seats[seat].away and len(notices(h)) == 1
    return rec, seat, on_turn, other


async def test_any_message_in_private_takes_the_seat_back(h: Harness) -> None:
    rec, seat, on_turn, other = await blocked_and_stood_in(h)
    await h.dm("hello?", other)  # not a move, not a command: coming back is enough
    assert not (await h.table()).seats[seat].away
    await h.dm("draw", on_turn)
    assert (await h.table()).state["turn"] == seat  # the AI no longer answers for them
    assert (await h.hand_message(other))["text"]  # and the hand reaches them again


async def test_back_in_the_group_works_too_and_a_later_away_of_their_own_stays(h: Harness) -> None:
    rec, seat, on_turn, other = await blocked_and_stood_in(h)
    await h.say("/back", other)  # as the notice says, in the group
    assert not (await h.table()).seats[seat].away
    await h.say("/away", other)  # their own choice now
    await h.dm("hello?", other)
    assert (await h.table()).seats[seat].away  # a message in private does not undo a /away
