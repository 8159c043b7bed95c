"""The fake Bot API refuses what Telegram refuses, so a test fails when the bot breaks a rule:
the group flood limit (20 messages in any 60 s), markup that does not parse, over-long texts and
captions, oversized callback data. Driven by plain HTTP, the fake's clock moved by hand."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import aiohttp
import pytest

from bot.core.clock import FakeClock
from tests.telegram.conftest import GROUP_ID, TOKEN, Harness, assert_flood_obeyed
from tests.telegram.fake_bot_api import JSON, Call, FakeTelegramBotAPI, parse_html

OTHER_GROUP = -100600


@pytest.fixture
async def api(fake: FakeTelegramBotAPI) -> AsyncIterator[tuple[FakeTelegramBotAPI, FakeClock, Any]]:
    clock = FakeClock()
    fake.clock = clock.now
    async with aiohttp.ClientSession() as session:
        async def call(method: str, **params: Any) -> JSON:
            form = {k: v if isinstance(v, str) else json.dumps(v) for k, v in params.items()}
            async with session.post(f"{fake.base_url}{TOKEN}/{method}", data=form) as resp:
                return await resp.json()
        yield fake, clock, call


async def test_the_21st_group_message_in_60_s_is_refused_with_retry_after(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    for i in range(20):
        assert (await call("sendMessage", chat_id=str(GROUP_ID), text=f"m{i}"))["ok"]
        clock.advance(1)
    # t=20: the first message (t=0) leaves the window at t=60, so Telegram says wait 40 s.
    refused = await call("sendMessage", chat_id=str(GROUP_ID), text="one too many")
    assert refused["error_code"] == 429 and refused["parameters"] == {"retry_after": 40}
    assert fake.throttled == [("sendMessage", GROUP_ID, 40)]
    # Another group and a private chat have budgets of their own.
    fake.dm_open.add(101)
    assert (await call("sendMessage", chat_id=str(OTHER_GROUP), text="hi"))["ok"]
    assert (await call("sendMessage", chat_id="101", text="hi"))["ok"]


async def test_the_window_slides_it_is_not_a_bucket_refilled_each_minute(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    for i in range(20):
        assert (await call("sendMessage", chat_id=str(GROUP_ID), text=f"m{i}"))["ok"]  # all at t=0
    clock.advance(59.5)
    assert (await call("sendMessage", chat_id=str(GROUP_ID), text="early"))["error_code"] == 429
    clock.advance(0.5)  # t=60: every one of the 20 has left the window
    for i in range(20):
        assert (await call("sendMessage", chat_id=str(GROUP_ID), text=f"n{i}"))["ok"]
    assert (await call("sendMessage", chat_id=str(GROUP_ID), text="late"))["error_code"] == 429


async def test_edits_count_deletes_and_refused_calls_do_not(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    sent = await call("sendMessage", chat_id=str(GROUP_ID), text="table")
    mid = sent["result"]["message_id"]
    # A refused call (bad markup) and a delete are not counted.
    bad = await call("sendMessage", chat_id=str(GROUP_ID), text="<b>open", parse_mode="HTML")
    assert bad["error_code"] == 400
    ping = await call("sendMessage", chat_id=str(GROUP_ID), text="ping")
    assert (await call("deleteMessage", chat_id=str(GROUP_ID), message_id=str(ping["result"]["message_id"])))["ok"]
    for i in range(18):
        assert (await call("editMessageText", chat_id=str(GROUP_ID), message_id=str(mid), text=f"table {i}"))["ok"]
    # 20 counted now (2 sends, 18 edits): the next edit is the 21st.
    edit = await call("editMessageText", chat_id=str(GROUP_ID), message_id=str(mid), text="table again")
    assert edit["error_code"] == 429
    assert (await call("deleteMessage", chat_id=str(GROUP_ID), message_id=str(mid)))["ok"]


async def test_group_limit_none_turns_the_rule_off(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    fake.group_limit = None
    for i in range(25):
        assert (await call("sendMessage", chat_id=str(GROUP_ID), text=f"m{i}"))["ok"]


async def test_delete_removes_the_message_and_a_second_delete_is_refused(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    mid = (await call("sendMessage", chat_id=str(GROUP_ID), text="ping"))["result"]["message_id"]
    assert (GROUP_ID, mid) in fake.messages
    assert (await call("deleteMessage", chat_id=str(GROUP_ID), message_id=str(mid)))["ok"]
    assert (GROUP_ID, mid) not in fake.messages and fake.chat_messages(GROUP_ID) == []
    again = await call("deleteMessage", chat_id=str(GROUP_ID), message_id=str(mid))
    assert again["error_code"] == 400 and "not found" in again["description"]


@pytest.mark.parametrize(("method", "params", "why"), [
    ("sendMessage", {"text": "<b>bold</i>", "parse_mode": "HTML"}, "can't parse entities"),
    ("sendMessage", {"text": "<table>x</table>", "parse_mode": "HTML"}, "can't parse entities"),
    ("sendMessage", {"text": "x" * 4097}, "message is too long"),
    ("sendMessage", {"text": "ok", "reply_markup": {"inline_keyboard": [[{"text": "b", "callback_data": "d" * 65}]]}},
     "BUTTON_DATA_INVALID"),
    ("sendMessage", {"text": "ok", "reply_markup": {"inline_keyboard": [[{"text": "b", "callback_data": "й" * 33}]]}},
     "BUTTON_DATA_INVALID"),  # 66 bytes in 33 characters: Telegram counts bytes
    ("sendPhoto", {"photo": "file-id", "caption": "c" * 1025}, "caption is too long"),
    ("sendPhoto", {"photo": "file-id", "caption": "<i>c", "parse_mode": "HTML"}, "can't parse entities"),
    ("sendMessage", {"text": '<tg-time format="t">12:00</tg-time>', "parse_mode": "HTML"}, "can't parse entities"),
    ("sendMessage", {"text": '<tg-time unix="1" format="x">12:00</tg-time>', "parse_mode": "HTML"},
     "can't parse entities"),
])
async def test_the_fake_refuses_what_telegram_refuses(api, method: str, params: JSON, why: str) -> None:  # noqa: ANN001
    fake, clock, call = api
    answer = await call(method, chat_id=str(GROUP_ID), **params)
    assert answer["error_code"] == 400 and why in answer["description"]
    assert fake.rejected and why in fake.rejected[-1][1]


async def test_limits_are_measured_after_the_markup_is_parsed(api) -> None:  # noqa: ANN001
    fake, clock, call = api
    timed = '⏱ <tg-time unix="1764590400" format="t">12:00 UTC</tg-time>'
    assert parse_html(timed) == "⏱ 12:00 UTC"  # a date_time entity shows its text
    assert (await call("sendMessage", chat_id=str(GROUP_ID), text=timed, parse_mode="HTML"))["ok"]
    caption = "<b>" + "c" * 1024 + "</b>"  # 1 031 characters sent, 1 024 shown: accepted
    assert (await call("sendPhoto", chat_id=str(GROUP_ID), photo="file-id", caption=caption, parse_mode="HTML"))["ok"]
    button = {"inline_keyboard": [[{"text": "b", "callback_data": "d" * 64}]]}
    sent = await call("sendMessage", chat_id=str(GROUP_ID), text="ok", reply_markup=button)
    assert sent["ok"]
    mid = str(sent["result"]["message_id"])
    too_big = {"inline_keyboard": [[{"text": "b", "callback_data": "d" * 65}]]}
    edit = await call("editMessageReplyMarkup", chat_id=str(GROUP_ID), message_id=mid, reply_markup=too_big)
    assert "BUTTON_DATA_INVALID" in edit["description"]
    assert not fake.throttled


async def test_the_bot_waits_out_the_flood_limit_on_the_harness_clock(h: Harness) -> None:
    """The harness runs the fake's window on its FakeClock plus the outbox's (injected) sleeps, so a
    429 is obeyed without a wall-clock wait and every reply still reaches the group. (The bot's own
    group window is lifted here, else it never meets the fake's 429: test_delivery has that.)"""
    await h.stop()
    h.rate_limits = {**h.rate_limits, "group_max_rate": 100_000}
    await h.start()
    await h.dm("/start", h.alice)
    for _ in range(23):
        await h.say("/help", h.alice, h.group)
    await h.tg.idle()
    group_sends = [c for c in h.fake.calls_to("sendMessage") if c.chat_id == GROUP_ID]
    # All 23 at t=0: the 21st reply is told to wait the whole 60 s, after which the window is empty.
    assert h.fake.throttled == [("sendMessage", GROUP_ID, 60)] and h.sleeps == [60]
    assert len(group_sends) == 24  # the refused reply was sent again, once
    assert len(h.fake.chat_messages(GROUP_ID)) == 23


def test_an_edit_refused_by_the_flood_limit_and_never_sent_again_fails_the_test() -> None:
    edit = {"chat_id": str(GROUP_ID), "message_id": "7", "text": "table v2"}
    refused = Call("editMessageText", edit, status=429, flooded=True)
    lost = SimpleNamespace(fake=SimpleNamespace(calls=[refused]))
    with pytest.raises(AssertionError, match="lost to the flood limit"):
        assert_flood_obeyed(lost)  # type: ignore[arg-type]
    newer = Call("editMessageText", {**edit, "text": "table v3"})  # a newer state of the same message will do
    assert_flood_obeyed(SimpleNamespace(fake=SimpleNamespace(calls=[refused, newer])))  # type: ignore[arg-type]
