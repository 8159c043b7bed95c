"""A player who blocks the bot does not stall the table: the AI stands in, the group hears it once
with the one-tap way back, and the player takes the seat back by coming back and moving."""

from __future__ import annotations

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

    # Coming back: the link opens the chat and shows the hand; a move takes the seat back.
    await h.dm(f"/start h{rec.id}", other)
    hand = await h.hand_message(other)
    assert "Your rack" in hand["text"]
    rec = await h.table()
    assert rec.seats[blocked_seat].away  # still played by the AI until they move
    await h.dm("draw", other)  # not their turn (refused), but any move takes the seat back
    assert not (await h.table()).seats[blocked_seat].away
    await h.dm("draw", on_turn)
    back = await h.table()
    assert back.state["turn"] == blocked_seat  # the AI no longer answers for them
    await h.dm("draw", other)
    assert [e for e in await h.store.log(rec.id) if e.seat == blocked_seat][-1].kind == "action"
    assert len(notices(h)) == 1
