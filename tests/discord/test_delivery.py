"""Issue 13's delivery policy on Discord, asserted on the fake's recorded calls: the mover's answer
is the new hand, at most one table edit per accepted action (none when nothing shown changed, the
deadline a live `<t:…:R>`), one ping per table replacing the previous one, stale notices dropped,
and at match end only the table message and the result left in the channel."""

from __future__ import annotations

import asyncio
import re

from bot.core.codec import decode
from bot.core.presenter import HandControls, Item, TurnNotice
from bot.core.presenter.controls import Action, Choice
from bot.discord import views as ui
from storage import TableRecord
from tests.discord.conftest import Harness, components
from tests.discord.fake_wire import Req


def _channel(h: Harness, since: int = 0) -> list[Req]:
    return [r for r in h.fake.requests[since:] if r.path.startswith(f"/channels/{h.fake.channel_id}/messages")]


def _pings(h: Harness, since: int = 0) -> list[Req]:
    return [r for r in _channel(h, since) if r.method == "POST" and "<@" in ((r.json or {}).get("content") or "")]


def _left_in_channel(h: Harness) -> list[dict]:
    return [m for m in h.fake.messages.values()
            if m.get("channel_id") == str(h.fake.channel_id) and not m.get("webhook_id")]


async def _started(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")


async def test_a_move_by_button_is_one_answer_and_at_most_three_channel_calls(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    hand = await h.hand(user)
    draw = next(c for c in components(hand) if c.get("label") == "draw")
    n = len(h.fake.requests)
    press = await h.click(draw["custom_id"], hand, user)
    new = h.fake.requests[n:]
    assert h.callback(press)["type"] == 7, "the answer is the mover's new hand, in one call"
    assert not [r for r in new if "/webhooks/" in r.path], "no follow-up or edit after the answer"
    channel = _channel(h, n)
    assert [r.method for r in channel].count("PATCH") == 1, "one edit of the table message"
    assert sorted(r.method for r in channel) == ["DELETE", "PATCH", "POST"], "the new ping replaces the old"
    assert len(new) == 4


async def test_one_ping_per_table_with_a_button_to_the_hand(h: Harness) -> None:
    await _started(h)
    for _ in range(4):
        rec = await h.table()
        await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    pings = _pings(h)
    assert len(pings) == 5  # the start's and one per move
    left = [m for m in _left_in_channel(h) if "<@" in m["content"]]
    assert len(left) == 1, "the channel holds only the newest ping"
    deleted = {r.path.rsplit("/", 1)[1] for r in h.fake.requests if r.method == "DELETE"}
    assert len(deleted) == 4 and left[0]["id"] not in deleted
    rec = await h.table()
    now = h.user_of(rec, rec.state["turn"])
    body = pings[-1].json
    assert f"<@{now['id']}>" in body["content"]
    assert body["allowed_mentions"]["parse"] == [] and [str(u) for u in body["allowed_mentions"]["users"]] == [now["id"]]
    (button,) = components(body)
    data = decode(button["custom_id"])
    assert data.verb == "hand" and not data.args and data.version == 0, "My hand: whoever presses it, never stale"
    press = await h.click(button["custom_id"], left[0], now)
    assert h.answer(press)["embeds"], "the ping's button opens the player's hand"


async def test_a_draft_step_leaves_the_channel_alone_and_the_deadline_counts_down_by_itself(h: Harness) -> None:
    h.deck = ["r10", "r11", "r12", "k1", "k2", "k3", "b5", "b7", "b9", "y2", "y4", "y6", "y8", "y13"]
    await _started(h)
    table = await h.table_message()
    rec = await h.table()
    assert re.search(rf"<t:{int(rec.deadline)}:R>", table["embeds"][0]["description"])
    assert "s left" not in table["embeds"][0]["description"]
    n = len(h.fake.requests)
    await h.slash("play", h.alice, text="new r10 r11 r12")  # a private draft: the table shows nothing new
    assert not _channel(h, n), "no edit whose only change would be the clock"
    h.clock.advance(5)
    assert await h.bot.scheduler.run_once() == []
    assert not _channel(h, n)
    await h.slash("play", h.alice, text="done")
    assert [r.method for r in _channel(h, n)].count("PATCH") == 1


async def test_at_match_end_only_the_table_and_the_result_are_left(h: Harness) -> None:
    from tests.stats.conftest import GO_OUT, LOSING, WINNING

    h.deck = WINNING + LOSING  # Alice goes out at once
    await h.open_lobby(users=(h.bob,))
    await h.slash("start", h.alice)
    assert len(_pings(h)) == 1
    await h.slash("play", h.alice, text=GO_OUT)
    rec = await h.table()
    assert rec.status == "finished"
    left = _left_in_channel(h)
    table = await h.table_message()
    assert [m["id"] for m in left] == [table["id"], left[1]["id"]] and len(left) == 2
    assert "<@" not in left[1]["content"] and "Alice" in left[1]["content"], "the result stays, the ping went"


async def test_a_notice_stale_before_it_is_sent_is_dropped(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    older = rec.model_copy(update={"version": rec.version - 1})
    seat = rec.state["turn"]
    n = len(h.fake.requests)
    await h.bot.delivery.notice(TurnNotice(older, seat, rec.seats[seat].user_id or "", "x", None), "en")
    assert not h.fake.requests[n:], "a newer state of the table was already seen: the notice is dropped"


async def test_table_edits_waiting_behind_one_in_flight_collapse_to_the_newest(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    delivery = h.bot.delivery
    lock = delivery._table(rec.id).edit
    await lock.acquire()  # an edit in flight
    states = [rec.model_copy(update={"version": rec.version + k}) for k in (1, 2, 3)]
    n = len(h.fake.requests)
    tasks = [asyncio.create_task(delivery.table(s, ui.embed("t", f"state {k}"), None)) for k, s in enumerate(states)]
    await asyncio.sleep(0)
    lock.release()
    await asyncio.gather(*tasks)
    edits = [r for r in _channel(h, n) if r.method == "PATCH"]
    assert len(edits) == 1 and "state 2" in edits[0].json["embeds"][0]["description"]


def _controls(items: int, actions: int, pieces: int = 0) -> HandControls:
    return HandControls(True, True, tuple(Item(i, f"i{i}", False) for i in range(items)),
                        tuple(Action(k, None, f"a{k}", False) for k in range(actions)),
                        0 if pieces else None, "move", tuple(Choice(k, f"1:p{k}") for k in range(pieces)))


def _pages(h: Harness, rec: TableRecord, controls: HandControls) -> list[list[dict]]:
    first = ui.hand_view(rec, 0, controls, "en").to_components()
    count = 1
    for comp in components({"components": first}):
        if decode(comp["custom_id"]).verb == "page":
            count = int(comp["label"].split("/")[1].split()[0])
    return [components({"components": ui.hand_view(rec, 0, controls, "en", p).to_components()}) for p in range(count)]


async def test_more_than_fits_is_paged_never_dropped(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    for controls in (_controls(80, 23, 30), _controls(60, 3, 40), _controls(26, 3), _controls(10, 40)):
        pages = _pages(h, rec, controls)
        options = [o["label"] for p in pages for c in p if c["type"] == 3 for o in c["options"]]
        labels = [c["label"] for p in pages for c in p if c["type"] == 2]
        assert [f"i{i}" for i in range(len(controls.items))] == [o for o in options if o.startswith("i")]
        assert [f"1:p{k}" for k in range(len(controls.pieces))] == [o for o in options if o.startswith("1:")]
        assert [a.label for a in controls.actions] == list(dict.fromkeys(x for x in labels if re.fullmatch(r"a\d+", x)))
        for page in pages:
            if len(controls.actions) <= 10:  # two rows of moves: on every page, never behind one
                assert {a.label for a in controls.actions} <= {c.get("label") for c in page}
            assert all(len(c.get("options") or []) <= 25 for c in page)
            assert len({c["custom_id"] for c in page}) == len(page), "custom ids unique within a message"
    targets = HandControls(True, True, move_index=0, pieces=(Choice(0, "1:p"),), moving=0,
                           targets=tuple(Choice(k, f"{k + 1}") for k in range(30)))
    labels = [c["label"] for p in _pages(h, rec, targets) for c in p if decode(c["custom_id"]).verb == "mv"]
    assert labels == [f"→{k + 1}" for k in range(30)], "a 15th destination (and a 30th) gets its button"


async def test_a_move_on_the_dm_hand_edits_it_once(h: Harness) -> None:
    await h.slash("dm", h.alice, mode="on")
    h.deck = ["r10", "r11", "r12", "k1", "k2", "k3", "b5", "b7", "b9", "y2", "y4", "y6", "y8", "y13"]  # Alice first
    await _started(h)
    rec = await h.table()
    channel_id, mid = (await h.store.table_refs(rec.id))[f"dm:{h.alice['id']}"].split(":")
    dm_hand = h.fake.messages[int(mid)]
    draw = next(c for c in components(dm_hand) if c.get("label") == "draw")
    n = len(h.fake.requests)
    press = await h.send(h.fake.click(draw["custom_id"], dm_hand, user=h.alice, in_guild=False))
    assert h.callback(press)["type"] == 7
    assert not [r for r in h.fake.requests[n:] if r.path.startswith(f"/channels/{channel_id}/")], \
        "the answer was the DM hand's edit: no second one"
    assert (await h.table()).log_seq > rec.log_seq


async def test_the_ping_sent_before_a_restart_is_still_replaced(h: Harness) -> None:
    await _started(h)
    (before,) = [m for m in _left_in_channel(h) if "<@" in m["content"]]
    await h.restart()
    rec = await h.table()
    await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    left = [m for m in _left_in_channel(h) if "<@" in m["content"]]
    assert len(left) == 1 and left[0]["id"] != before["id"]


async def test_a_slow_move_by_button_is_deferred_first_then_the_hand_edited(h: Harness) -> None:
    await h.stop()
    h.ack_after_s = 0.0  # every press counts as slow: the budget defers before the answer is ready
    await h.start()
    await _started(h)
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    hand = await h.hand(user)
    draw = next(c for c in components(hand) if c.get("label") == "draw")
    press = await h.click(draw["custom_id"], hand, user)
    assert h.callback(press)["type"] == 6
    assert h.reply(press)["embeds"] and "`draw`" in h.reply(press)["content"]
    assert (await h.table()).log_seq > rec.log_seq


async def test_a_round_end_shows_its_result_in_the_table_message_within_three_channel_calls(h: Harness) -> None:
    from tests.stats.conftest import GO_OUT, LOSING, WINNING

    await h.slash("new", h.alice, game="rummikub", options="match_games=2")
    rec = await h.table()
    rec.deck = WINNING + LOSING  # Alice goes out at once: game 1 of 2 ends, the match goes on
    await h.store.commit(rec, rec.version)
    await h.press(await h.table_message(), h.bob, "join")
    await h.press(await h.table_message(), h.alice, "start")
    n = len(h.fake.requests)
    await h.slash("play", h.alice, text=GO_OUT)
    rec = await h.table()
    assert rec.status == "playing" and rec.state["round"] == 2
    channel = _channel(h, n)
    assert sorted(r.method for r in channel) == ["DELETE", "PATCH", "POST"], "no results message of its own"
    (field,) = (await h.table_message())["embeds"][0]["fields"]
    assert field["name"] == "Last round" and "Alice" in field["value"]
    assert len(_left_in_channel(h)) == 2, "the table message and the new ping"
    await h.slash("play", h.user_of(rec, rec.state["turn"]), text="draw")
    assert "Alice" in (await h.table_message())["embeds"][0]["fields"][0]["value"], "shown until the next round ends"
    await h.restart()
    await h.slash("play", h.user_of(rec := await h.table(), rec.state["turn"]), text="draw")
    assert (await h.table_message())["embeds"][0]["fields"], "kept with the table over a restart"


async def test_at_match_end_the_ping_becomes_the_result_in_two_channel_calls(h: Harness) -> None:
    from tests.stats.conftest import GO_OUT, LOSING, WINNING

    h.deck = WINNING + LOSING
    await h.open_lobby(users=(h.bob,))
    await h.slash("start", h.alice)
    ping = (await h.store.table_refs((await h.table()).id))["ping"]
    n = len(h.fake.requests)
    await h.slash("play", h.alice, text=GO_OUT)
    calls = sorted((r.method, r.path.rsplit("/", 1)[-1]) for r in _channel(h, n))
    table = await h.table_message()
    assert calls == sorted([("PATCH", table["id"]), ("PATCH", ping)]), "the table edit and the ping edited"
    assert (await h.store.table_refs((await h.table()).id))["results"] == ping
    result = h.fake.messages[int((await h.store.table_refs((await h.table()).id))["results"])]
    assert "Alice" in result["content"] and not result["components"], "the ping's My hand button went with it"
    assert not (await h.table_message())["embeds"][0].get("fields"), "the result is its own message at match end"


async def test_a_result_with_no_ping_to_edit_is_posted(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    refs = await h.store.table_refs(rec.id)
    h.fake.messages.pop(int(refs["ping"]))  # deleted by a moderator
    n = len(h.fake.requests)
    await h.bot.delivery.match_end(rec, "Alice wins")
    methods = [r.method for r in _channel(h, n)]
    assert methods[0] == "PATCH" and "POST" in methods
    mid = (await h.store.table_refs(rec.id))["results"]
    assert h.fake.messages[int(mid)]["content"] == "Alice wins"


async def test_ending_a_table_takes_its_ping_away(h: Harness) -> None:
    await _started(h)
    assert [m for m in _left_in_channel(h) if "<@" in m["content"]]
    await h.slash("end", h.alice)
    assert (await h.table()).status == "abandoned"
    assert [m["id"] for m in _left_in_channel(h)] == [(await h.table_message())["id"]]
