"""Issue 27, item 5: a restart without a storm. Each table and hand message is stored with the table
version it shows; a start edits only the messages behind their table, paced, and of several
processes started together only one edits a given table."""

from __future__ import annotations

from bot.core.service import TableService
from bot.telegram.common import TABLE_KEY, hand_key
from bot.telegram.outbox import shown_versions
from storage import TableRecord
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import Call

GROUPS = (-100500, -100501, -100502, -100503)


async def start_in(h: Harness, chat_id: int) -> TableRecord:
    """A two-player game in its own group: Alice hosts, Bob joins by the lobby's button."""
    group = h.fake.group(chat_id, f"Group {chat_id}")
    await h.say("/new rummikub", h.alice, group)
    rec = await h.store.active_table_for_chat("telegram", str(chat_id))
    assert rec is not None
    for verb, user in (("join", h.bob), ("start", h.alice)):
        message = h.fake.messages[(chat_id, (await h.store.table_refs(rec.id))[TABLE_KEY])]
        await h.press_verb(message, verb, user)
    rec = await h.store.get_table(rec.id)
    assert rec is not None and rec.status == "playing"
    return rec


async def tables(h: Harness) -> list[TableRecord]:
    for u in (h.alice, h.bob):
        await h.dm("/start", u)
    return [await start_in(h, chat_id) for chat_id in GROUPS]


def message_calls(h: Harness, after: int) -> list[Call]:
    """What a restart sent into chats (the bot's profile calls name no chat)."""
    return [c for c in h.fake.calls[after:] if c.chat_id is not None]


async def restart(h: Harness) -> int:
    await h.stop()
    n = len(h.fake.calls)
    await h.start()
    await h.tg.idle()
    return n


async def test_a_restart_with_every_message_current_costs_no_call(h: Harness) -> None:
    recs = await tables(h)
    for rec in recs:
        refs = await h.store.table_refs(rec.id)
        slots = [TABLE_KEY, hand_key(str(h.alice["id"])), hand_key(str(h.bob["id"]))]
        assert {k: shown_versions(refs)[k] for k in slots} == dict.fromkeys(slots, rec.version)
    n = await restart(h)
    assert message_calls(h, n) == []
    assert h.tg.restored._task is not None and h.tg.restored._task.done()


async def test_only_the_table_a_dead_process_moved_unseen_is_edited(h: Harness) -> None:
    recs = await tables(h)
    await h.stop()
    # Another process took a move on the second table and died before showing it.
    await h.store.open()
    other = TableService(h.store, h.clock)
    moved = recs[1]
    user = h.alice if moved.state["turn"] == 0 else h.bob
    await other.act(moved.id, h.player(user), "draw")  # which ends the turn: the mover's notice is over
    notice = (await h.store.table_refs(moved.id))[f"notice:{user['id']}"]
    await h.store.close()
    n = len(h.fake.calls)
    await h.start()
    await h.tg.idle()
    calls = message_calls(h, n)
    assert calls and {c.chat_id for c in calls} <= {GROUPS[1], h.alice["id"], h.bob["id"]}
    table_edits = [c for c in calls if c.chat_id == GROUPS[1]]
    assert [c.method for c in table_edits] == ["editMessageText"]
    assert "Game restored." in table_edits[0].params["text"]
    refs = await h.store.table_refs(moved.id)
    hand_ids = {refs[hand_key(str(u["id"]))] for u in (h.alice, h.bob)}
    edits = [c for c in calls if c.method.startswith("edit") and c.chat_id != GROUPS[1]]
    assert {int(c.params["message_id"]) for c in edits} <= hand_ids
    assert [(c.chat_id, int(c.params["message_id"])) for c in calls if c.method == "deleteMessage"] == \
        [(user["id"], notice)]
    # The turn went to the other player unseen: they are told now (never told, so told once).
    nxt = h.bob if user is h.alice else h.alice
    assert [(c.chat_id, c.params["text"].startswith("Your turn")) for c in calls if c.method == "sendMessage"] == \
        [(nxt["id"], True)]
    assert len(calls) <= 5, [c.method for c in calls]  # the table, two hands, the notice deleted and the new one
    after = await h.store.get_table(moved.id)
    assert after is not None and shown_versions(refs)[TABLE_KEY] == after.version
    # and a second restart finds nothing behind
    n = await restart(h)
    assert message_calls(h, n) == []


async def test_a_hand_behind_alone_is_the_one_edit(h: Harness) -> None:
    recs = await tables(h)
    await h.stop()
    await h.store.open()
    await h.store.set_table_ref(recs[2].id, "shown:" + hand_key(str(h.bob["id"])), recs[2].version - 1)
    await h.store.close()
    n = len(h.fake.calls)
    await h.start()
    await h.tg.idle()
    calls = message_calls(h, n)
    # Its content did not change: Telegram says "not modified", and the version is stored as shown.
    assert [(c.method, c.chat_id) for c in calls] == [("editMessageText", h.bob["id"])]
    assert shown_versions(await h.store.table_refs(recs[2].id))[hand_key(str(h.bob["id"]))] == recs[2].version
    assert message_calls(h, await restart(h)) == []


async def test_the_restored_render_is_paced(h: Harness) -> None:
    recs = await tables(h)
    await h.stop()
    await h.store.open()
    for rec in recs:
        await h.store.set_table_ref(rec.id, "shown:table", rec.version - 1)
    await h.store.close()
    h.sleeps.clear()
    await h.start()
    await h.tg.idle()
    per_call = 1 / h.tg.config.restore_calls_per_s
    assert h.tg.config.restore_calls_per_s == h.rate_limits["overall_max_rate"] / 2
    assert h.sleeps.count(per_call) == len(recs), h.sleeps  # one table message each, paced one by one


async def test_of_two_processes_started_together_one_edits_a_table_behind(h: Harness) -> None:
    recs = await tables(h)
    rec = recs[0]
    await h.store.set_table_ref(rec.id, "shown:table", rec.version - 1)
    outcome = next(o for o in await h.service.resume_all() if o.table.id == rec.id)
    n = len(h.fake.calls)
    await h.tg._restore(outcome)  # this process wins the table's version...
    await h.tg.idle()
    assert [c.chat_id for c in message_calls(h, n)] == [GROUPS[0]]
    await h.store.set_table_ref(rec.id, "shown:table", rec.version - 1)
    n = len(h.fake.calls)
    await h.tg._restore(outcome)  # ...a second one starting meanwhile finds it claimed
    await h.tg.idle()
    assert message_calls(h, n) == []
