"""Pictures on Telegram (issue 17, item 2): the table message and the DM hand as pictures with a short
caption, edited in place with one call, drawn from the viewer's own view; `/look text` keeps the text
form, survives a restart, and switching replaces the message once."""

from __future__ import annotations

from bot.core.pictures import layout
from bot.core.presenter.games import view_of
from tests.telegram.conftest import GROUP_ID, Harness
from tests.telegram.fake_bot_api import JSON


async def started(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)


async def play_turn(h: Harness) -> JSON:
    rec = await h.table()
    user = h.alice if rec.seats[rec.state["turn"]].user_id == str(h.alice["id"]) else h.bob
    await h.dm(await h.ai_move(user), user)
    return user


def group_calls(h: Harness, after: int) -> list[str]:
    return [c.method for c in h.fake.calls[after:] if c.chat_id == GROUP_ID]


async def test_the_table_and_the_hands_are_pictures_drawn_from_their_own_views(hp: Harness) -> None:
    h = hp
    await started(h)
    await play_turn(h)
    rec = await h.table()
    table = await h.table_message()
    assert "photo" in table and "text" not in table
    key = (GROUP_ID, table["message_id"])
    assert h.fake.photos[key] == layout(rec, view_of(rec, None), None, "en").png()
    caption = table["caption"]
    assert "Turn:" in caption and "UTC" in caption and len(caption) <= 1024  # whose turn, the deadline as a time
    assert [b["text"] for b in h.fake.buttons(table)]  # the table's buttons stay
    for seat, user in enumerate((h.alice, h.bob)):
        hand = await h.hand_message(user)
        data = h.fake.photos[(user["id"], hand["message_id"])]
        # Privacy: the hand's picture is exactly the one drawn from that seat's own view.
        assert data == layout(rec, view_of(rec, seat), seat, "en").png()
        assert data != layout(rec, view_of(rec, 1 - seat), 1 - seat, "en").png()
        assert h.fake.buttons(hand), "the hand's buttons ride on the picture"


async def test_a_turn_costs_the_group_one_edit_and_nothing_when_unchanged(hp: Harness) -> None:
    h = hp
    await started(h)
    start = len(h.fake.calls)
    for _ in range(6):
        if (await h.table()).status != "playing":
            break
        n = len(h.fake.calls)
        user = await play_turn(h)
        assert group_calls(h, n) in (["editMessageMedia"], ["editMessageCaption"], [])
        hand = [c.method for c in h.fake.calls[n:] if c.chat_id == user["id"] and c.method.startswith("edit")]
        assert len(hand) <= 1 and set(hand) <= {"editMessageMedia", "editMessageCaption"}
    assert "editMessageMedia" in group_calls(h, start)  # a new picture, not only captions
    await h.tg.delivery.render_record(await h.table())  # the table again (its event lines dropped: one caption edit)
    await h.idle()
    n = len(h.fake.calls)
    await h.tg.delivery.render_record(await h.table())  # the same again: nothing to send
    await h.idle()
    assert [c for c in h.fake.calls[n:] if c.method.startswith(("edit", "send"))] == []


async def test_look_text_gives_text_only_and_survives_a_restart(hp: Harness) -> None:
    h = hp
    await started(h)
    before = (await h.table_message())["message_id"]
    n = len(h.fake.calls)
    await h.say("/look text", h.alice, h.group)
    await h.dm("/look text", h.alice)
    table = await h.table_message()
    # A photo cannot become text: the message is replaced once.
    assert "text" in table and "photo" not in table and table["message_id"] != before
    assert group_calls(h, n).count("deleteMessage") == 1
    await play_turn(h)
    assert "photo" not in await h.hand_message(h.alice)
    await h.stop()
    await h.start()
    n = len(h.fake.calls)
    await play_turn(h)
    assert "text" in await h.table_message() and "photo" not in await h.hand_message(h.alice)
    assert not [c for c in h.fake.calls[n:] if c.method in ("sendPhoto", "editMessageMedia") and
                c.chat_id in (GROUP_ID, h.alice["id"])]
    assert "photo" in await h.hand_message(h.bob)  # Bob kept the default
    n = len(h.fake.calls)
    await h.say("/look pictures", h.alice, h.group)
    assert "photo" in await h.table_message()
    assert group_calls(h, n).count("sendPhoto") == 1


async def test_look_needs_a_known_choice_and_the_host_or_an_admin(hp: Harness) -> None:
    h = hp
    await started(h)
    await h.say("/look", h.alice, h.group)
    assert "Usage: /look" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/look text", h.bob, h.group)
    assert "Only the host" in h.fake.calls_to("sendMessage")[-1].params["text"]
    assert "photo" in await h.table_message()


async def test_after_a_restart_a_picture_that_must_become_text_is_replaced_once(hp: Harness) -> None:
    """The restarted process does not know what the message shows: Telegram's refusal of the edit
    (a photo has no text) says so, and the message is replaced."""
    h = hp
    await started(h)
    before = (await h.table_message())["message_id"]
    await h.stop()
    await h.store.open()
    await h.store.set_chat_settings("telegram", str(GROUP_ID), {"look": "text"})  # changed while it was down
    await h.store.close()
    n = len(h.fake.calls)
    await h.start()
    await play_turn(h)
    table = await h.table_message()
    assert "text" in table and table["message_id"] != before
    assert group_calls(h, n).count("deleteMessage") == 1 and (GROUP_ID, before) not in h.fake.messages
