"""A whole Rummikub match in a group: lobby buttons, the table edited in place, hands by DM."""

from __future__ import annotations

from tests.telegram.conftest import GROUP_ID, Harness, assert_no_hand_in_group


async def test_lobby_start_and_full_match(h: Harness) -> None:
    rec = await h.open_lobby(users=(h.bob,))
    lobby = await h.table_message()
    assert "Alice" in lobby["text"] and "Bob" in lobby["text"]
    assert [b["text"] for b in h.fake.buttons(lobby)][:2] == ["Join", "Leave"]
    sends_to_group = len([c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID])
    assert sends_to_group == 1  # the lobby; every change after is an edit

    start = await h.press_verb(lobby, "start", h.alice)
    assert h.answer_for(start)
    rec = await h.table()
    assert rec.status == "playing"
    table = await h.table_message()
    assert table["message_id"] == lobby["message_id"]  # the lobby became the table
    alice_hand = await h.hand_message(h.alice)
    bob_hand = await h.hand_message(h.bob)
    assert "Friends" in alice_hand["text"] and "Rummikub" in alice_hand["text"]

    turns = 0
    while (rec := await h.table()).status == "playing":
        turns += 1
        assert turns < 400
        seat = rec.state["turn"]
        user = h.alice if seat == 0 else h.bob
        move = await h.ai_move(user)
        if move == "draw" and turns % 2:
            await h.press_verb(await h.hand_message(user), "cmd", user, str(seat), "0")  # the draw button: move 0 of Rummikub
        else:
            await h.dm(move, user)
    assert rec.status == "finished"
    assert (await h.hand_message(h.alice))["message_id"] == alice_hand["message_id"]  # edited in place
    assert (await h.hand_message(h.bob))["message_id"] == bob_hand["message_id"]
    texts = h.group_texts()
    assert any("Match over" in x for x in texts)
    assert_no_hand_in_group(h)
    final = await h.table_message()
    assert "reply_markup" not in final
