"""Deep-link join, peek pop-ups, turn pings only for humans, hosts without a DM."""

from __future__ import annotations

from tests.telegram.conftest import GROUP_ID, Harness, assert_no_hand_in_group


async def test_join_without_dm_gives_a_deep_link_that_joins_in_one_tap(h: Harness) -> None:
    rec = await h.open_lobby()
    up = await h.press_verb(await h.table_message(), "join", h.carol)  # Carol never started the bot
    answer = h.answer_for(up)
    assert answer["url"] == f"https://t.me/rummy_test_bot?start=j{rec.id}"
    assert len((await h.table()).seats) == 1  # not seated without a working DM
    await h.dm(f"/start j{rec.id}", h.carol)
    assert [s.name for s in (await h.table()).seats] == ["Alice", "Carol"]
    assert "You joined the Rummikub table in Friends" in h.fake.calls_to("sendMessage")[-1].params["text"]
    assert "Carol" in (await h.table_message())["text"]
    await h.dm(f"/start j{rec.id}", h.carol)  # the link again: a clear refusal, no second seat
    assert "already have a seat" in h.fake.calls_to("sendMessage")[-1].params["text"]


async def test_host_without_dm_is_not_seated_until_the_link(h: Harness) -> None:
    dave = h.fake.user(404, "Dave")
    await h.say("/new rummikub", dave, h.group)
    rec = await h.table()
    assert rec.seats == [] and "tap Join" in (await h.table_message())["text"]
    await h.dm("/start", h.bob)
    await h.press_verb(await h.table_message(), "join", h.bob)
    up = await h.press_verb(await h.table_message(), "start", dave)
    assert "at least 2 players" in h.answer_for(up)["text"]
    await h.dm(f"/start j{rec.id}", dave)
    await h.press_verb(await h.table_message(), "start", dave)
    assert (await h.table()).status == "playing"


async def test_peek_is_a_private_popup(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    table = await h.table_message()
    up = await h.press_verb(table, "peek", h.alice)
    answer = h.answer_for(up)
    assert answer["show_alert"] in (True, "true") and len(answer["text"]) <= 200
    assert answer["text"].startswith("Rummikub · your hand (14):")
    up = await h.press_verb(table, "peek", h.carol)
    assert "do not have a seat" in h.answer_for(up)["text"]
    url = [b for b in h.fake.buttons(table) if "url" in b][0]["url"]
    assert url.endswith(f"start=h{(await h.table()).id}")
    assert_no_hand_in_group(h)


async def test_turn_notices_only_for_humans_in_their_dm_and_none_in_the_group(h: Harness) -> None:
    await h.open_lobby()
    await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "start", h.alice)
    for _ in range(6):
        rec = await h.table()
        if rec.status != "playing":
            break
        assert rec.state["turn"] == 0  # the AIs always play through to Alice
        await h.dm(await h.ai_move(h.alice), h.alice)
    notices = [c.params["text"] for c in h.fake.calls_to("sendMessage") if c.chat_id == h.alice["id"]
               and c.params["text"].startswith("Your turn")]
    assert notices, "the AIs played through to Alice: each time a notice in her DM"
    assert not [c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID and "your turn" in c.params["text"]]
    sends = [c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID]
    others = [c.params["text"] for c in sends][1:]
    assert all("over" in x for x in others)  # the table message, then only round/match results


async def test_draft_buttons_compose_engine_commands(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    seat = rec.state["turn"]
    user = h.alice if seat == 0 else h.bob
    hand = await h.hand_message(user)
    first, second = h.fake.buttons(hand)[0]["text"], h.fake.buttons(hand)[1]["text"]
    await h.press(h.fake.buttons(hand)[0]["callback_data"], hand, user)  # pick
    await h.press(h.fake.buttons(await h.hand_message(user))[1]["callback_data"], await h.hand_message(user), user)
    hand = await h.hand_message(user)
    assert f"Picked: {first} {second}" in hand["text"]
    await h.press_label(hand, "new ✓", user)
    rec = await h.table()
    assert (await h.store.log(rec.id))[-1].text == f"new {first} {second}"
    hand = await h.hand_message(user)
    assert "Your draft" in hand["text"]
    third = h.fake.buttons(hand)[0]["text"]
    await h.press(h.fake.buttons(hand)[0]["callback_data"], hand, user)
    await h.press_label(await h.hand_message(user), "add →1", user)
    assert (await h.store.log(rec.id))[-1].text == f"add 1 {third}"
    await h.press_label(await h.hand_message(user), "move…", user)
    hand = await h.hand_message(user)
    melds = [b["text"] for b in h.fake.buttons(hand) if ":" in b["text"]]
    assert melds and all(m.startswith(("1:", "2:", "3:", "4:", "5:", "6:", "7:", "8:", "9:")) for m in melds)
    last = [m for m in melds if m.startswith("1:")][-1]
    await h.press_label(hand, last, user)
    await h.press_label(await h.hand_message(user), "→ new meld", user)
    assert (await h.store.log(rec.id))[-1].text == f"move {last[2:]} 1 new"
    await h.press_label(await h.hand_message(user), "reset", user)
    await h.press_label(await h.hand_message(user), "draw", user)
    assert (await h.store.log(rec.id))[-1].text == "draw"
    await h.press_label(await h.hand_message(user), "Sort", user)
    assert (await h.table()).state["turn"] != seat


async def test_one_table_per_forum_topic(h: Harness) -> None:
    await h.dm("/start", h.alice)
    for thread in (11, 22):
        await h.settle(h.fake.push_text("/new rummikub", user=h.alice, chat=h.group, thread=thread))
    tables = await h.store.list_tables(["lobby"])
    assert sorted(t.topic_id for t in tables) == ["11", "22"]
    sent = [c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID]
    assert sorted(int(c.params["message_thread_id"]) for c in sent) == [11, 22]
    await h.settle(h.fake.push_text("/end", user=h.alice, chat=h.group, thread=22))
    assert [t.topic_id for t in await h.store.list_tables(["lobby"])] == ["11"]
