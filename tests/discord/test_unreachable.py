"""A player whose DMs refuse the bot (50007) does not stall the table: hands go back to ephemeral
messages, the AI stands in, and the channel hears it once; a move takes the seat back."""

from __future__ import annotations

from tests.discord.conftest import Harness


def notices(h: Harness) -> list[str]:
    return [text for text in h.channel_texts() if "cannot get my messages" in text]


async def test_closed_dms_put_the_seat_away_and_are_announced_once(h: Harness) -> None:
    await h.slash("dm", h.bob, mode="on")  # Bob takes his hand by DM...
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    bob = h.service.seat_of(rec, h.player(h.bob))
    h.fake.dm_closed.add(h.bob["id"])  # ...then closes his DMs
    if rec.state["turn"] == bob:  # Bob moves first: his own move is refused by his closed DMs
        await h.slash("play", h.bob, text="draw")
    else:
        await h.slash("play", h.alice, text="draw")
    rec = await h.table()
    assert rec.seats[bob].away and len(notices(h)) == 1
    assert "`/rummy back`" in notices(h)[0]  # the way back is named
    assert rec.state["turn"] != bob  # the AI played his turn: the table does not wait
    alice = h.user_of(rec, rec.state["turn"])
    for _ in range(2):
        await h.slash("play", alice, text="draw")
    assert len(notices(h)) == 1 and (await h.table()).seats[bob].away
    assert not (await h.service.store.chat_settings("discord", f"user:{h.bob['id']}")).get("dm")

    await h.slash("play", h.bob, text="draw")  # not his turn, but any move takes the seat back
    assert not (await h.table()).seats[bob].away
    await h.slash("play", alice, text="draw")
    assert (await h.table()).state["turn"] == bob  # nobody plays for him any more
