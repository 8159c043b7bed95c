"""Long or hostile text from a player gets one short reply that fits Telegram's limits and echoes
only a cleaned excerpt; nothing about the game changes. The fake refuses (and the harness fails on)
any text over 4096 or with broken markup, so "one reply arrived" also proves it fitted."""

from __future__ import annotations

import re

from tests.telegram.conftest import GROUP_ID, Harness
from tests.telegram.fake_bot_api import JSON, parse_html

# Control characters, ESC, bidi overrides and zero-width characters: none may reach a chat.
BAD = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
HOSTILE = "\x1b[2J\x1b]0;pwned\x07" + "".join(map(chr, range(32))) + "\u202eevil\u2066\u200b\x9b31m"


async def _started(h: Harness) -> tuple[JSON, int]:
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    return (h.alice if rec.state["turn"] == 0 else h.bob), rec.version


async def _only_reply(h: Harness, chat_id: int, after: int) -> str:
    await h.tg.idle()
    sent = [c for c in h.fake.calls_to("sendMessage", after=after) if c.chat_id == chat_id]
    assert len(sent) == 1, [c.params["text"][:80] for c in sent]
    assert not h.fake.rejected
    shown = parse_html(sent[0].params["text"])
    assert not BAD.search(shown), ascii(shown)
    return shown


async def test_a_4000_character_dm_gets_one_short_reply(h: Harness) -> None:
    mover, version = await _started(h)
    n = len(h.fake.calls)
    await h.dm("draw " + "now " * 999, mover)  # 4001 characters: "draw takes no arguments"
    shown = await _only_reply(h, int(mover["id"]), n)
    assert shown.startswith("I could not read that: draw takes nothing after it") and "'now now now" in shown
    assert len(shown) < 220 and "…" in shown
    assert (await h.table()).version == version


async def test_a_dm_full_of_escapes_controls_and_bidi(h: Harness) -> None:
    mover, version = await _started(h)
    for text in (HOSTILE * 40, "discard " + HOSTILE, "&<b>" * 1000):
        n = len(h.fake.calls)
        await h.dm(text, mover)
        shown = await _only_reply(h, int(mover["id"]), n)
        assert "could not read" in shown and len(shown) < 200
        assert "pwned" not in shown  # the OSC title string went with its escape
    assert (await h.table()).version == version


async def test_long_new_and_stats_lines_get_short_replies(h: Harness) -> None:
    await h.dm("/start", h.alice)
    # The longest line a Telegram client sends is 4096 characters; these are all escape-heavy.
    for line in ("/new " + "<&" * 2045,
                 "/new rummikub " + " ".join(f"k{i}\x1b[1m=<{i}>" for i in range(400))[:4080],
                 "/stats " + HOSTILE * 60,
                 "/leaderboard " + "&" * 4000,
                 "/team name " + "\u202e" * 4000):
        n = len(h.fake.calls)
        await h.say(line, h.alice, h.group)
        shown = await _only_reply(h, GROUP_ID, n)
        assert len(shown) < 400, shown
    assert await h.store.active_table_for_chat("telegram", str(GROUP_ID)) is None


async def test_a_hostile_long_name_is_shown_clean_and_short(h: Harness) -> None:
    h.bob["first_name"] = "\u202eB" + "o" * 50 + "\x1b[5m\u200b"  # Telegram allows 64 + 64 characters
    h.bob["last_name"] = "\x00" + "Ж" * 63
    await h.open_lobby(users=(h.bob,))
    lobby = parse_html((await h.table_message())["text"])
    assert not BAD.search(lobby) and "Boooo" in lobby and "Ж" * 10 not in lobby
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    assert not BAD.search(rec.seats[1].name) and len(rec.seats[1].name) <= 32
    for c in h.fake.calls_to("sendMessage") + h.fake.calls_to("editMessageText"):
        assert not BAD.search(parse_html(c.params["text"])), c.params["text"][:200]


async def test_an_over_long_table_edit_and_callback_answer_are_cut_not_dropped(h: Harness) -> None:
    rec = await h.open_lobby()
    n = len(h.fake.calls)
    body = "\n".join(f"meld {i}: r{i % 13 + 1} &amp; 👍" for i in range(600))  # ~16 000 UTF-16 units
    h.tg.outbox.put(GROUP_ID, rec.id, "table", f"<b>Table</b>\n<pre>{body}</pre>", None)
    await h.tg.outbox.idle()
    edit = h.fake.calls_to("editMessageText", after=n)[-1].params["text"]
    assert len(edit.encode("utf-16-le")) // 2 <= 4096 and edit.endswith("\n…</pre>")
    assert parse_html(edit).startswith("Table\nmeld 0: r1 & 👍\nmeld 1")
    await h.tg.replies.answer(await _query(h), "Ж👍" * 300)
    assert len(h.fake.calls_to("answerCallbackQuery")[-1].params["text"].encode("utf-16-le")) <= 400
    assert not h.fake.rejected


async def _query(h: Harness):  # noqa: ANN202
    """A CallbackQuery bound to the bot, to call `_answer` with an over-long text directly."""
    from telegram import CallbackQuery, User

    up = h.fake.push_callback("x", message=await h.table_message(), user=h.carol)
    await h.settle(up)  # the adapter answers the bad button itself
    cbq = CallbackQuery(up["callback_query"]["id"], User(303, "Carol", False), "ci")
    cbq.set_bot(h.app.bot)
    return cbq
