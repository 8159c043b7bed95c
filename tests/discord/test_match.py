"""A whole Rummikub match in a channel: slash commands, lobby buttons, the table edited in place,
ephemeral hands with select menus and move buttons."""

from __future__ import annotations

from bot.core.codec import decode
from tests.discord.conftest import Harness, components
from tests.discord.fake_wire import EPHEMERAL


async def test_commands_registered_under_one_group(h: Harness) -> None:
    (group,) = h.fake.commands[None]
    assert group["name"] == "rummy"
    subs = {o["name"] for o in group["options"]}
    assert subs >= {"new", "join", "leave", "start", "hand", "play", "end", "away", "back", "help", "rules", "dm"}
    new = next(o for o in group["options"] if o["name"] == "new")
    game = next(o for o in new["options"] if o["name"] == "game")
    assert [c["value"] for c in game["choices"]][0] == "rummikub"
    assert group["name_localizations"]["ru"] == "rummy"
    assert new["name_localizations"]["ru"] == "новый" and new["description_localizations"]["ru"] == "Открыть стол здесь"


async def test_lobby_start_and_full_match(h: Harness) -> None:
    opened = await h.slash("new", h.alice, game="rummikub")
    assert h.answer(opened)["flags"] & EPHEMERAL
    lobby = await h.table_message()
    assert [decode(c["custom_id"]).verb for c in components(lobby)][:2] == ["join", "leave"]
    join = await h.press(lobby, h.bob, "join")
    assert h.callback(join)["type"] == 6  # deferred at entry, then the lobby edited in place through the token
    lobby = await h.table_message()
    assert "Alice" in lobby["embeds"][0]["description"] and "Bob" in lobby["embeds"][0]["description"]
    posts = [r for r in h.fake.requests_to("POST", rf"/channels/{h.fake.channel_id}/messages")]
    assert len(posts) == 1  # the lobby; every change after is an edit

    await h.press(lobby, h.alice, "start")
    rec = await h.table()
    assert rec.status == "playing"
    table = await h.table_message()
    assert table["id"] == lobby["id"]  # the lobby became the table
    assert [decode(c["custom_id"]).verb for c in components(table)] == ["hand"]

    hands = {}
    for user in (h.alice, h.bob):  # "My hand" on the table message: an ephemeral hand for whoever presses
        press = await h.press(table, user, "hand")
        assert h.callback(press)["type"] == 4 and h.answer(press)["flags"] & EPHEMERAL  # the hand: one call
        hands[user["id"]] = h.message_of(press)

    turns = buttons = typed = 0
    while (rec := await h.table()).status == "playing":
        turns += 1
        assert turns < 400
        seat = rec.state["turn"]
        user = h.user_of(rec, seat)
        move = await h.ai_move(user)
        hand = hands[user["id"]]
        await h.press(hand, user, "hand", str(seat))  # Refresh: the hand is current again, in place
        hand = h.fake.messages[int(hand["id"])]
        plain = [c for c in components(hand) if c["type"] == 2 and c["label"] == move
                 and decode(c["custom_id"]).verb == "cmd"]
        if plain and turns % 3:
            await h.click(plain[0]["custom_id"], hand, user)
            buttons += 1
        else:
            played = await h.slash("play", user, text=move)
            assert h.answer(played)["flags"] & EPHEMERAL
            typed += 1
        assert (await h.table()).log_seq > rec.log_seq
    assert rec.status == "finished"
    assert buttons and typed
    texts = h.channel_texts()
    assert any("Match over" in x or "wins" in x.lower() for x in texts), texts[-3:]
    final = await h.table_message()
    assert final["id"] == lobby["id"] and not final["components"]


async def test_discard_through_the_select_menu(h: Harness) -> None:
    """Rummikub draft: pick tiles in the select menu, then the grammar's button for the pick."""
    h.seed = 11
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    hand = await h.hand(user)
    select = next(c for c in components(hand) if c["type"] == 3)
    assert len(select["options"]) == 14
    seat = rec.state["turn"]
    pick = await h.click(select["custom_id"], hand, user, values=["0", "1", "2"])
    assert h.callback(pick)["type"] == 7  # answered by the new hand itself: one call
    hand = h.fake.messages[int(hand["id"])]
    labels = [c.get("label") for c in components(hand) if c["type"] == 2]
    assert any(label and label.endswith("✓") for label in labels), labels
    assert "Picked" in hand["embeds"][0]["description"]
    assert rec.seats[seat].user_id == user["id"]


async def test_rummikub_draft_by_select_and_buttons(h: Harness) -> None:
    """Alice builds her opening meld in the draft: picks three tiles in the select menu, presses
    `new ✓`, then `done`; the table shows the meld and her rack lost the tiles."""
    h.deck = ["r10", "r11", "r12", "k1", "k2", "k3", "b5", "b7", "b9", "y2", "y4", "y6", "y8", "y13"]
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    assert rec.state["turn"] == 0
    hand = await h.hand(h.alice)
    select = next(c for c in components(hand) if c["type"] == 3)
    labels = [o["label"] for o in select["options"]]
    picks = [str(labels.index(x)) for x in ("r10", "r11", "r12")]
    await h.click(select["custom_id"], hand, h.alice, values=picks)
    hand = h.fake.messages[int(hand["id"])]
    new = next(c for c in components(hand) if c.get("label") == "new ✓")
    await h.click(new["custom_id"], hand, h.alice)
    hand = h.fake.messages[int(hand["id"])]
    assert "`new r10 r11 r12`" in hand["content"]
    done = next(c for c in components(hand) if c.get("label") == "done")
    await h.click(done["custom_id"], hand, h.alice)
    rec = await h.table()
    assert rec.state["turn"] == 1 and len(rec.state["table"]) == 1
    assert "r10" in (await h.table_message())["embeds"][0]["description"]


async def test_rummikub_draft_move_by_select_and_target(h: Harness) -> None:
    """The engine's move `move k6 1 new`: pick a table tile in the second select, then its target."""
    from rules import get_engine

    h.deck = ["r10", "r11", "r12", "r13", "k2", "k3", "b5", "b7", "b9", "y2", "y4", "y6", "y8", "y13"]
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    hand = await h.hand(h.alice)
    select = next(c for c in components(hand) if c["type"] == 3)
    labels = [o["label"] for o in select["options"]]
    await h.click(select["custom_id"], hand, h.alice, values=[str(labels.index(x)) for x in ("r10", "r11", "r12", "r13")])
    hand = h.fake.messages[int(hand["id"])]
    await h.click(next(c for c in components(hand) if c.get("label") == "new ✓")["custom_id"], hand, h.alice)
    hand = h.fake.messages[int(hand["id"])]
    table_select = next(c for c in components(hand) if c["type"] == 3 and decode(c["custom_id"]).verb == "mvt")
    assert [o["label"] for o in table_select["options"]] == ["1:r10", "1:r11", "1:r12", "1:r13"]
    await h.click(table_select["custom_id"], hand, h.alice, values=["3"])
    hand = h.fake.messages[int(hand["id"])]
    assert "r13" in hand["embeds"][0]["description"]
    to_new = next(c for c in components(hand) if decode(c["custom_id"]).verb == "mv" and c["custom_id"].endswith(" 0"))
    await h.click(to_new["custom_id"], hand, h.alice)
    hand = h.fake.messages[int(hand["id"])]
    assert "`move r13 1 new`" in hand["content"]
    rec = await h.table()
    draft = get_engine("rummikub").view(rec.state, 0)["draft"]
    assert [m["tiles"] for m in draft["melds"]] == [["r10", "r11", "r12"], ["r13"]]
    forged = to_new["custom_id"].replace(" 0", " 9")  # a target that does not exist
    bad = await h.click(forged, {**hand, "components": [{"type": 1, "components": [
        {"type": 2, "style": 2, "label": "x", "custom_id": forged}]}]}, h.alice)
    assert h.answer(bad)["flags"] & EPHEMERAL


async def test_commands_synced_once_and_not_again_on_a_restart_with_the_same_tree(h: Harness) -> None:
    puts = h.fake.requests_to("PUT", r"/applications/\d+/commands")
    assert len(puts) == 1
    rummy = next(c for c in puts[0].json if c["name"] == "rummy")
    assert rummy.get("dm_permission") is False or rummy.get("contexts") == [0]  # guild_only
    await h.restart()
    assert len(h.fake.requests_to("PUT", r"/applications/\d+/commands")) == 1  # same tree: no sync
    settings = await h.store.chat_settings("discord", "app:commands")
    settings["tree_sha256"] = "an older tree"
    await h.store.set_chat_settings("discord", "app:commands", settings)
    await h.restart()
    assert len(h.fake.requests_to("PUT", r"/applications/\d+/commands")) == 2  # changed: synced again
