"""Safety: wrong users, stale and malformed buttons, duplicate updates, bad text; nothing changes."""

from __future__ import annotations

from bot.core.codec import encode
from tests.telegram.conftest import Harness, assert_no_hand_in_group


async def started(h: Harness):  # noqa: ANN201
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    on_turn = h.alice if rec.state["turn"] == 0 else h.bob
    other = h.bob if on_turn is h.alice else h.alice
    return rec, on_turn, other


async def test_wrong_user_presses_are_refused_privately(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    lobby = await h.table_message()
    before = await h.table()
    up = await h.press_verb(lobby, "start", h.bob)
    assert h.answer_for(up)["text"] == "Only the host can do that."
    up = await h.press_verb(lobby, "addai", h.carol, "normal")
    assert h.answer_for(up)["text"] == "Only the host can do that."
    assert (await h.table()).version == before.version

    await h.press_verb(lobby, "start", h.alice)
    rec, on_turn, other = await started_state(h)
    hand = await h.hand_message(on_turn)
    draw = next(b["callback_data"] for b in h.fake.buttons(hand) if b["text"] == "draw")
    up = await h.press(draw, hand, other)  # the other seated player presses it
    assert h.answer_for(up)["text"] == "Those buttons belong to another player."
    up = await h.press(draw, hand, h.carol)  # someone without a seat
    assert "do not have a seat" in h.answer_for(up)["text"]
    assert (await h.table()).version == rec.version
    assert_no_hand_in_group(h)


async def started_state(h: Harness):  # noqa: ANN201
    rec = await h.table()
    on_turn = h.alice if rec.state["turn"] == 0 else h.bob
    return rec, on_turn, (h.bob if on_turn is h.alice else h.alice)


async def test_stale_button_is_refused_politely(h: Harness) -> None:
    rec, on_turn, _ = await started(h)
    old_hand = await h.hand_message(on_turn)
    view_rack = old_hand["text"]
    await h.dm("new " + h.fake.buttons(old_hand)[0]["text"], on_turn)  # a draft step: a new version
    moved = await h.table()
    assert moved.version > rec.version and moved.state["turn"] == rec.state["turn"]
    draw = next(b["callback_data"] for b in h.fake.buttons(old_hand) if b["text"] == "draw")
    up = await h.press(draw, old_hand, on_turn)
    assert h.answer_for(up)["text"] == "That button is out of date; use the latest message."
    assert (await h.table()).version == moved.version
    assert view_rack  # and the hand was refreshed with current buttons
    fresh = await h.hand_message(on_turn)
    assert f":{moved.version}:" in next(b["callback_data"] for b in h.fake.buttons(fresh) if b["text"] == "draw")


async def test_duplicate_updates_are_applied_once(h: Harness) -> None:
    rec, on_turn, _ = await started(h)
    msg = {"text": "draw"}
    first = h.fake.push_text(msg["text"], user=on_turn)
    h.fake.push_update({"message": first["message"]}, update_id=first["update_id"])
    await h.settle_count(first["update_id"], 2)
    log = await h.store.log(rec.id)
    assert [e.text for e in log].count("draw") == 1

    rec, on_turn, _ = await started_state(h)
    hand = await h.hand_message(on_turn)
    draw = next(b["callback_data"] for b in h.fake.buttons(hand) if b["text"] == "draw")
    up = h.fake.push_callback(draw, message=hand, user=on_turn)
    h.fake.push_update({"callback_query": up["callback_query"]}, update_id=up["update_id"])
    await h.settle_count(up["update_id"], 2)
    assert [e.text for e in await h.store.log(rec.id)].count("draw") == 2  # one more, not two
    answers = [c for c in h.fake.calls_to("answerCallbackQuery")
               if c.params["callback_query_id"] == up["callback_query"]["id"]]
    # Answered once, with the real answer; the second delivery (handled to the end before) is dropped.
    assert [a.params.get("text") for a in answers] == ["draw"]


async def test_malformed_callback_data_is_answered_and_changes_nothing(h: Harness) -> None:
    rec, on_turn, _ = await started(h)
    hand = await h.hand_message(on_turn)
    seat = rec.state["turn"]
    for data in ["garbage", "v1:nope:1:J", f"v1:{rec.id}:{rec.version}:Q", f"v1:{rec.id}:{rec.version}:C {seat} 99",
                 encode(rec.id, rec.version, "pick", seat, "fffffffff"), f"v1:{rec.id}:{rec.version}:C {seat}",
                 encode(rec.id, rec.version, "setopt", 0, 1), encode(rec.id, 0, "dance")]:
        up = await h.press(data, hand, on_turn)
        answer = h.answer_for(up)
        assert answer.get("text"), data
    assert (await h.table()).version == rec.version


async def test_garbage_text_gets_a_clear_reply(h: Harness) -> None:
    await h.dm("hello there", h.carol)
    assert "not playing at any table" in h.fake.calls_to("sendMessage")[-1].params["text"]
    rec, on_turn, other = await started(h)
    await h.dm("blah blah", on_turn)
    assert "I could not read that" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.dm("draw", other)
    assert "not your turn" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/frobnicate", h.alice, h.group)
    assert "do not know that command" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.dm("help", on_turn)
    assert "draw" in h.fake.calls_to("sendMessage")[-1].params["text"]
    assert (await h.table()).version == rec.version
    assert_no_hand_in_group(h)
