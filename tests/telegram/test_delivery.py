"""The delivery policy of issue 13 (bot/telegram/delivery.py), asserted on the fake Bot API's
recorded calls: one table edit and no new group message per turn, the turn notice in the next
player's DM replacing the previous one, a group turn message only for a player the bot cannot
reach, every temporary message gone at match end, and never more than 20 group messages in 60 s."""

from __future__ import annotations

import html
import re

from tests.telegram.conftest import GROUP_ID, Harness
from tests.telegram.fake_bot_api import JSON
from tests.telegram.test_window import busiest

NOTICE = "Your turn"


def live(h: Harness, chat_id: int) -> list[JSON]:
    """The bot's messages still in a chat (whether or not the fake drops deleted ones itself)."""
    deleted = {int(c.params["message_id"]) for c in h.fake.calls_to("deleteMessage") if c.chat_id == chat_id}
    return [m for m in h.fake.chat_messages(chat_id) if m["message_id"] not in deleted]


def notices(h: Harness, user: JSON) -> list[JSON]:
    return [m for m in live(h, user["id"]) if m["text"].startswith(NOTICE)]


async def three_humans(h: Harness, game: str = "rummikub") -> None:
    await h.open_lobby(game, users=(h.bob, h.carol))
    await h.press_verb(await h.table_message(), "start", h.alice)


def user_of(h: Harness, user_id: str | None) -> JSON:
    return next(u for u in (h.alice, h.bob, h.carol) if str(u["id"]) == user_id)


async def play_turn(h: Harness) -> JSON:
    rec = await h.table()
    user = user_of(h, rec.seats[rec.state["turn"]].user_id)
    await h.dm(await h.ai_move(user), user)
    return user


async def test_a_turn_edits_the_table_once_and_notifies_the_next_player_in_private(h: Harness) -> None:
    await three_humans(h)
    users = (h.alice, h.bob, h.carol)
    for _ in range(12):
        rec = await h.table()
        if rec.status != "playing":
            break
        n = len(h.fake.calls)
        await play_turn(h)
        group = [c for c in h.fake.calls[n:] if c.chat_id == GROUP_ID]
        assert [c.method for c in group] in (["editMessageText"], []), "one table edit, no new group message"
        rec = await h.table()
        now = user_of(h, rec.seats[rec.state["turn"]].user_id)
        for u in users:
            kept = notices(h, u)
            assert len(kept) == (1 if u is now else 0), (u["first_name"], [m["text"] for m in kept])
            assert len(live(h, u["id"])) - len(kept) - (u is now) >= 1  # the hand (and their typed moves)
            hands = [m for m in live(h, u["id"]) if m.get("reply_markup") is not None
                     and "startgroup" not in str(m["reply_markup"])]  # not /start's "add to group"
            assert len(hands) == 1, "one hand message per DM"
        sent = [c for c in h.fake.calls[n:] if c.method == "sendMessage" and c.chat_id == now["id"]]
        assert len(sent) == 1 and sent[0].params["text"].startswith(NOTICE), "the notice is a new message: it notifies"


async def test_the_table_shows_the_deadline_as_a_time_not_a_countdown(h: Harness) -> None:
    await three_humans(h)
    table = (await h.table_message())["text"]
    assert "⏱ until" in table and "UTC" in table and "s left" not in table
    rec = await h.table()
    # Each reader's app shows the time in their own zone; "UTC" is the fallback text inside the tag.
    assert re.search(rf'⏱ until <tg-time unix="{int(rec.deadline)}" format="t">[^<]+ UTC</tg-time>', table)
    user = user_of(h, rec.seats[rec.state["turn"]].user_id)
    await h.dm("new " + h.fake.buttons(await h.hand_message(user))[0]["text"], user)  # a draft step
    n = len(h.fake.calls)
    await h.tg.delivery.render_record(await h.table())  # the same state again, later
    await h.tg.idle()
    assert not [c for c in h.fake.calls[n:] if c.chat_id == GROUP_ID], "time passing alone edits nothing"


async def test_a_player_who_cannot_be_reached_gets_a_group_turn_message_until_the_turn_is_over(h: Harness) -> None:
    await three_humans(h)
    rec = await h.table()
    on_turn = user_of(h, rec.seats[rec.state["turn"]].user_id)
    blocked = user_of(h, rec.seats[(rec.state["turn"] + 1) % 3].user_id)
    h.fake.block(blocked["id"])
    await play_turn(h)  # the turn passes to the blocked player: the AI stands in and the group is told once
    rec = await h.table()
    assert any(s.away for s in rec.seats)
    await h.say("/back", blocked, h.group)  # back from the group, still not reachable in private
    while user_of(h, (rec := await h.table()).seats[rec.state["turn"]].user_id) is not blocked:
        await play_turn(h)
    turn_messages = [m for m in live(h, GROUP_ID) if "your turn" in m["text"]]
    assert len(turn_messages) == 1 and f"tg://user?id={blocked['id']}" in turn_messages[0]["text"]
    assert f"start=h{rec.id}" in turn_messages[0]["text"], "one tap to the hand"
    await h.dm(f"/start h{rec.id}", blocked)  # opens the DM: the hand comes
    await h.dm(await h.ai_move(blocked), blocked)
    assert not [m for m in live(h, GROUP_ID) if "your turn" in m["text"]], "the turn is over: its message goes"
    assert on_turn is not blocked


async def test_at_match_end_only_the_table_and_the_results_stay_in_the_group(h: Harness) -> None:
    await three_humans(h)
    h.fake.block(h.carol["id"])  # a temporary "cannot reach" note in the group too
    turns = 0
    while (await h.table()).status == "playing":
        turns += 1
        assert turns < 1500
        await play_turn(h)
    await h.tg.idle()
    rec = await h.table()
    assert rec.status == "finished"
    left = live(h, GROUP_ID)
    table_id = (await h.store.table_refs(rec.id))["table"]
    assert left[0]["message_id"] == table_id
    assert len(left) == 2 and "over" in left[1]["text"].lower(), [m["text"][:60] for m in left]
    assert [c for c in h.fake.calls_to("sendMessage") if "cannot get my messages" in c.params["text"]]
    assert not [m for m in left if "cannot get my messages" in m["text"]], "the note was temporary"
    for u in (h.alice, h.bob):
        assert not notices(h, u), "no notice left in a DM"


async def test_a_round_result_is_shown_in_the_table_message_and_only_the_match_result_stays(h: Harness) -> None:
    h.options = {"rounds": 3}
    await three_humans(h, "three_thirteen")
    rec = await h.table()
    rounds = rec.state["round"]
    while (rec := await h.table()).status == "playing" and rec.state["round"] == rounds:
        await play_turn(h)
    await h.tg.idle()
    assert rec.status == "playing", "three rounds: the first one is over, the match goes on"
    table_id = (await h.store.table_refs(rec.id))["table"]
    group = live(h, GROUP_ID)
    assert [m["message_id"] for m in group] == [table_id], "no message of its own for a round"
    assert "Round 1 over" in group[0]["text"], "the round's result is in the table message"
    assert (await h.store.table_refs(rec.id)).get("round_result"), "kept with the table: a restart shows it"
    while (await h.table()).status == "playing":
        await play_turn(h)
    await h.tg.idle()
    left = live(h, GROUP_ID)
    assert len(left) == 2 and left[0]["message_id"] == table_id, [m["text"][:60] for m in left]


async def test_never_more_than_twenty_group_messages_in_any_sixty_seconds(h: Harness) -> None:
    waits: list[float] = []  # the harness runs the production window: 20 in any 60 s

    async def sleep(seconds: float) -> None:  # time passes while the outbox waits
        waits.append(seconds)
        h.clock.advance(seconds)

    h.tg.outbox.sleep = sleep
    stamped: list[tuple[float, str]] = []
    await three_humans(h)
    for _ in range(60):  # at machine speed: far more than 20 table edits a minute are asked for
        if (await h.table()).status != "playing":
            break
        n = len(h.fake.calls)
        await play_turn(h)
        stamped += [(h.clock.now(), c.method) for c in h.fake.calls[n:] if c.chat_id == GROUP_ID
                    and c.method in ("sendMessage", "editMessageText")]
    assert waits, "the window held the group back"
    assert busiest([at for at, _ in stamped], 60.0) <= 20
    newest = h.tg.presenter.table(await h.table(), "en").body
    assert html.escape(newest) in (await h.table_message())["text"], "after the waits the newest state is shown"


async def test_another_players_move_leaves_an_untouched_hand_unedited(h: Harness) -> None:
    await three_humans(h)
    first = await play_turn_with(h, "draw")
    assert "You got:" in (await h.hand_message(first))["text"]
    n = len(h.fake.calls)
    await play_turn_with(h, "draw")
    assert not [c for c in h.fake.calls[n:] if c.chat_id == first["id"] and c.method == "editMessageText"], \
        "the first player's hand did not change: its event line stays rather than cost an edit"


async def play_turn_with(h: Harness, move: str) -> JSON:
    rec = await h.table()
    user = user_of(h, rec.seats[rec.state["turn"]].user_id)
    await h.dm(move, user)
    return user


async def test_a_turn_of_several_steps_edits_the_table_once_when_it_is_over(h: Harness) -> None:
    await three_humans(h, "three_thirteen")  # draw (or take), then discard
    for _ in range(6):
        rec = await h.table()
        if rec.status != "playing":
            break
        mover, n = rec.state["turn"], len(h.fake.calls)
        steps = 0
        while (now := await h.table()).status == "playing" and now.state["turn"] == mover:
            before = len(h.fake.calls)
            await play_turn(h)
            steps += 1
            if (await h.table()).state["turn"] == mover:
                assert not [c for c in h.fake.calls[before:] if c.chat_id == GROUP_ID], "a step inside the turn"
        group = [c.method for c in h.fake.calls[n:] if c.chat_id == GROUP_ID]
        assert steps >= 2 and group.count("editMessageText") == 1, (steps, group)
        name = rec.seats[mover].name
        lines = (await h.table_message())["text"].split("</pre>")[-1]
        assert lines.count(name) >= 2, ("every step's line is shown with the one edit", lines)
    assert h.group_texts()[-1] == (await h.table_message())["text"], "the newest state is what the group sees"


async def test_picks_do_not_outlive_a_turn_that_timed_out(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    seat = rec.state["turn"]
    user = user_of(h, rec.seats[seat].user_id)
    await h.press_verb(await h.hand_message(user), "pick", user, str(seat))
    assert (await h.tg.uis.get(rec.id, seat)).picks, "picked, and stored"
    h.clock.advance(61)
    assert len(await h.tg.scheduler.run_once()) == 1
    await h.tg.idle()
    assert (await h.table()).state["turn"] != seat
    assert not (await h.tg.uis.get(rec.id, seat)).picks, "the turn went: so did the picks"


async def test_the_window_waits_before_the_flood_limit_would_refuse(h: Harness) -> None:
    await h.dm("/start", h.alice)
    for _ in range(23):
        await h.say("/help", h.alice, h.group)
    await h.tg.idle()
    assert h.fake.throttled == [], "no 429: the outbox's own window waited first"
    assert h.sleeps == [60.0] and len([c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID]) == 23
