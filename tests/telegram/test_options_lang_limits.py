"""Options buttons reach every option; languages; command menus; RetryAfter; coalesced edits."""

from __future__ import annotations

import logging

import pytest

from bot.core.codec import decode
from rules import get_engine
from tests.telegram.conftest import GROUP_ID, Harness


async def test_every_option_is_reachable_with_buttons(h: Harness) -> None:
    h.bob["language_code"] = "ru"
    await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(), "options", h.alice)
    keys = list(get_engine("rummikub").options_model.model_fields)
    changed = set()
    for i, key in enumerate(keys):
        before = (await h.table()).options[key]
        msg = await h.table_message()
        nxt = [b for b in h.fake.buttons(msg) if b["text"] == "▶"][i]["callback_data"]
        assert decode(nxt).verb == "setopt"
        await h.press(nxt, msg, h.alice)
        if (await h.table()).options[key] != before:
            changed.add(key)
    assert changed == set(keys)
    up = await h.press_verb(await h.table_message(), "setopt", h.bob)
    assert h.answer_for(up)["text"] == "Это может сделать только хозяин стола."  # Bob's Telegram is Russian
    old = await h.table_message()
    await h.press_verb(old, "setopt", h.alice)
    up = await h.press_verb(old, "setopt", h.alice)  # an options button from before the last change
    assert "out of date" in h.answer_for(up)["text"]
    await h.press_verb(await h.table_message(), "lobby", h.alice)
    assert [b["text"] for b in h.fake.buttons(await h.table_message())][0] == "Join"


async def test_timer_choices_cover_the_whole_range(h: Harness) -> None:
    from bot.core.options_ui import option_choices

    model = get_engine("rummikub").options_model
    timers = option_choices(model, model().model_dump(), "turn_timer_s", 4)
    assert timers[0] == 0 and 15 in timers and 300 in timers and all(x == 0 or 15 <= x <= 300 for x in timers)
    assert option_choices(model, model().model_dump(), "first_player", 4) == ["random", 1, 2, 3, 4]


async def test_lang_and_command_menus(h: Harness) -> None:
    h.bob["language_code"] = "ru"
    menus = {c.params.get("language_code"): c.params["commands"] for c in h.fake.calls_to("setMyCommands")}
    assert {None, "ru"} <= set(menus) and [c["command"] for c in menus["ru"]] == [c["command"] for c in menus[None]]
    assert menus["ru"] != menus[None]
    await h.open_lobby(users=(h.bob,))
    await h.say("/lang ru", h.alice, h.group)
    assert "Стол" in (await h.table_message())["text"] or "стол" in (await h.table_message())["text"]
    await h.press_verb(await h.table_message(), "start", h.alice)
    assert "Румми" in (await h.table_message())["text"]
    assert "Ваша стойка" in (await h.hand_message(h.bob))["text"]  # Bob's Telegram is Russian
    assert "Your rack" in (await h.hand_message(h.alice))["text"]
    await h.say("/lang xx", h.alice, h.group)
    assert "/lang" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/lang en", h.bob, h.group)  # not host, not admin
    assert (await h.store.chat_settings("telegram", str(GROUP_ID)))["lang"] == "ru"


async def test_retry_after_is_obeyed(h: Harness, caplog: pytest.LogCaptureFixture) -> None:
    await h.open_lobby(users=(h.bob,))
    caplog.set_level(logging.INFO, logger="telegram")
    h.fake.fail_next("editMessageText", 429, "Too Many Requests: retry after 5", {"retry_after": 5})
    n = len(h.fake.calls)
    await h.press_verb(await h.table_message(), "start", h.alice)
    # Waited as told, once; the group's other messages of the start are paced 3 s apart.
    assert h.sleeps.count(5.0) == 1 and set(h.sleeps) <= {5.0, 3.0}
    edits = [c for c in h.fake.calls_to("editMessageText", after=n) if c.chat_id == GROUP_ID]
    assert len(edits) == 2 and edits[0].params == edits[1].params  # the same edit, once more after waiting
    assert "Rummikub · game 1" in (await h.table_message())["text"]
    # Handled, so not logged as an error (AIORateLimiter's own record is turned into one INFO line).
    limiter = [r for r in caplog.records if r.name == "telegram.ext.AIORateLimiter"]
    assert limiter and all(r.levelno == logging.INFO and r.exc_info is None for r in limiter)


async def test_edits_to_one_chat_are_coalesced(h: Harness) -> None:
    rec = await h.open_lobby()
    outbox = h.tg.outbox
    n = len(h.fake.calls)
    for i in range(10):
        outbox.put(GROUP_ID, rec.id, "table", f"state {i}", None)
    await outbox.idle()
    edits = h.fake.calls_to("editMessageText", after=n)
    assert 1 <= len(edits) <= 2 and edits[-1].params["text"] == "state 9"
    outbox.put(GROUP_ID, rec.id, "table", "state 9", None)  # what the message already shows
    await outbox.idle()
    assert len(h.fake.calls_to("editMessageText", after=n)) == len(edits)


async def test_new_takes_options_and_refuses_bad_ones(h: Harness) -> None:
    await h.dm("/start", h.alice)
    await h.say("/new rummikub turn_timer_s=7", h.alice, h.group)
    assert "turn_timer_s" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/new chess", h.alice, h.group)
    assert "Unknown game" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/new", h.alice, h.group)
    assert "Which game?" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.say("/new rummikub turn_timer_s=120 match_games=3 first_player=2", h.alice, h.group)
    rec = await h.table()
    assert (rec.options["turn_timer_s"], rec.options["match_games"], rec.options["first_player"]) == (120, 3, 2)
    await h.say("/new rummikub", h.alice, h.group)
    assert "already a table" in h.fake.calls_to("sendMessage")[-1].params["text"]
    await h.dm("/new rummikub", h.alice)
    assert "played in groups" in h.fake.calls_to("sendMessage")[-1].params["text"]
