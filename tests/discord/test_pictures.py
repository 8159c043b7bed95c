"""Issue 17, item 3: the table embed carries its picture as an attachment replaced on each edit, the
hand (ephemeral or DM) its own seat's picture; `/rummy look text` keeps a channel to text. The
pictures ride on the edits already made: calls per turn do not change. Checked on the bytes the
fake Discord received, against pictures drawn from the views themselves."""

from __future__ import annotations

import json

import aiohttp

from bot.core.codec import decode
from bot.core.pictures import layout
from rules import get_engine
from storage import TableRecord
from tests.discord.conftest import TOKEN, Harness, components
from tests.discord.fake_attachments import picture_of
from tests.discord.fake_discord import FakeDiscord
from tests.discord.fake_wire import JSON


def _drawn(rec: TableRecord, seat: int | None, by_number: bool = False) -> bytes:
    """The picture drawn straight from that viewer's own view (seat None: the public one)."""
    return layout(rec, get_engine(rec.game).view(rec.state, seat), seat, "en", by_number).png()


def _image(message: JSON) -> str:
    return message["embeds"][0].get("image", {}).get("url", "")


async def test_a_whole_match_with_pictures_on_each_hand_its_own_seats(h: Harness) -> None:
    await h.slash("new", h.alice, game="rummy101", options="match_rounds=1")
    await h.press(await h.table_message(), h.bob, "join")
    await h.press(await h.table_message(), h.alice, "addai", "normal")
    await h.press(await h.table_message(), h.alice, "start")
    hands = {u["id"]: await h.hand(u) for u in (h.alice, h.bob)}
    pressed = typed = 0
    while (rec := await h.table()).status == "playing":
        seat = rec.state["turn"]
        user = h.user_of(rec, seat)
        move = await h.ai_move(user)
        await h.press(h.fake.messages[int(hands[user["id"]]["id"])], user, "hand", str(seat))  # Refresh
        hand = h.fake.messages[int(hands[user["id"]]["id"])]
        assert picture_of(h.fake.files, hand, "hand.png") == _drawn(rec, seat), "Refresh replaced the picture too"
        button = next((c for c in components(hand) if c.get("label") == move
                       and decode(c["custom_id"]).verb == "cmd" and decode(c["custom_id"]).version == rec.version), None)
        if button is not None:
            payload = await h.click(button["custom_id"], hand, user)
            pressed += 1
        else:
            payload = await h.slash("play", user, text=move)
            typed += 1
        shown = h.message_of(payload)  # the mover's new hand: the answer to the move
        hands[user["id"]] = shown
        now = await h.table()
        assert _image(shown) == "attachment://hand.png"
        mine = picture_of(h.fake.files, shown, "hand.png")
        assert mine == _drawn(now, seat), "the hand's picture is its own seat's view"
        other = next(s for s, x in enumerate(now.seats) if x.kind == "human" and s != seat)
        assert mine != _drawn(now, other)
        table = await h.table_message()
        assert _image(table) == "attachment://table.png" and len(table["attachments"]) == 1, "replaced, not added"
        if now.status == "playing":
            assert picture_of(h.fake.files, table, "table.png") == _drawn(now, None)
    assert rec.status == "finished" and pressed and typed
    channel = [m for m in h.fake.messages.values() if m.get("channel_id") == str(h.fake.channel_id)
               and not m.get("webhook_id")]
    assert len(channel) == 2, "the table message and the result"
    assert all(a["filename"] == "table.png" for m in channel for a in m["attachments"]), "no hand in the channel"


async def test_the_picture_rides_on_the_one_table_edit(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    n = len(h.fake.requests)
    await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    edits = [r for r in h.fake.requests[n:] if r.method == "PATCH" and r.path.startswith("/channels/")]
    (edit,) = edits
    assert list(edit.files) == ["table.png"] and [a["filename"] for a in edit.json["attachments"]] == ["table.png"]


async def test_look_text_keeps_the_channel_to_text_and_is_kept(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    answer = await h.slash("look", h.bob, **{"as": "text"})
    assert "as text" in h.answer(answer)["content"]
    table = await h.table_message()
    assert not table["attachments"] and not _image(table) and "```" in table["embeds"][0]["description"]
    hand = await h.hand(h.alice)
    assert not hand["attachments"] and not _image(hand)
    assert (await h.store.chat_settings("discord", str(h.fake.channel_id)))["look"] == "text"
    await h.restart()
    rec = await h.table()
    await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    assert not (await h.table_message())["attachments"], "still text after a restart"
    await h.slash("look", h.alice, **{"as": "pictures"})
    table = await h.table_message()
    assert _image(table) == "attachment://table.png" and picture_of(h.fake.files, table, "table.png") == _drawn(await h.table(), None)


async def test_a_dm_hand_carries_its_seats_picture(h: Harness) -> None:
    await h.slash("dm", h.alice, mode="on")
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    _, mid = (await h.store.table_refs(rec.id))[f"dm:{h.alice['id']}"].split(":")
    dm = h.fake.messages[int(mid)]
    assert picture_of(h.fake.files, dm, "hand.png") == _drawn(rec, 0)


async def test_the_fake_refuses_eleven_attachments_and_a_file_over_25_mib(fake: FakeDiscord) -> None:
    url = f"{fake.api_base}/channels/{fake.channel_id}/messages"

    def form(count: int, size: int) -> aiohttp.FormData:
        data = aiohttp.FormData()
        attachments = [{"id": i, "filename": f"p{i}.png"} for i in range(count)]
        data.add_field("payload_json", json.dumps({"content": "x", "attachments": attachments}),
                       content_type="application/json")
        for i in range(count):
            data.add_field(f"files[{i}]", b"\0" * size, filename=f"p{i}.png", content_type="image/png")
        return data

    async with aiohttp.ClientSession(headers={"Authorization": f"Bot {TOKEN}"}) as session:
        async with session.post(url, data=form(10, 10)) as resp:
            assert resp.status == 200 and len((await resp.json())["attachments"]) == 10
        async with session.post(url, data=form(11, 10)) as resp:
            assert resp.status == 400 and (await resp.json())["code"] == 50035
        async with session.post(url, data=form(1, 25 * 1024 * 1024 + 1)) as resp:
            assert resp.status == 413 and (await resp.json())["code"] == 40005
    assert len(fake.rejected) == 2


async def test_picks_and_refresh_keep_the_hand_picture_instead_of_uploading_it_again(h: Harness) -> None:
    """Issue 26: a press that changes the hand's embed but not its picture uploads nothing; the
    embed still shows the picture it had (kept on the message), and a move uploads the new one."""
    await h.slash("new", h.alice, game="rummy101", options="match_rounds=1")
    await h.press(await h.table_message(), h.bob, "join")
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    seat = rec.state["turn"]
    user = h.user_of(rec, seat)
    hand = await h.hand(user)
    await h.press(hand, user, "hand", str(seat))  # the first edit of a message this process did not send
    hand = h.fake.messages[int(hand["id"])]
    kept = [a["id"] for a in hand["attachments"]]
    uploads = len(h.fake.files)
    for values in (["0"], ["0", "1"]):
        await h.press(hand, user, "hand", str(seat))  # Refresh
        hand = h.fake.messages[int(hand["id"])]
        select = next(c for c in components(hand) if c["type"] == 3)
        await h.click(select["custom_id"], hand, user, values=values)  # picks
        hand = h.fake.messages[int(hand["id"])]
    assert len(h.fake.files) == uploads, "no picture uploaded again"
    assert [a["id"] for a in hand["attachments"]] == kept and _image(hand) == "attachment://hand.png"
    assert picture_of(h.fake.files, hand, "hand.png") == _drawn(rec, seat)
    assert not h.fake.missing_images
    move = await h.ai_move(user)
    await h.slash("play", user, text=move)
    await h.press(hand, user, "hand", str(seat))  # Refresh after the move: a new picture
    hand = h.fake.messages[int(hand["id"])]
    assert len(h.fake.files) > uploads
    assert picture_of(h.fake.files, hand, "hand.png") == _drawn(await h.table(), seat)
