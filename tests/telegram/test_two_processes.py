"""Issue 24: one update delivered to two processes at the same moment (webhook workers behind one
URL, a second poller) is handled and answered once: the first to claim it answers, the other drops
it; once handled, neither answers it again."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.metrics import REGISTRY
from tests.telegram.conftest import GROUP_ID, TOKEN, Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI
from tests.telegram.test_concurrency import HeldSleep

UPDATE_ID = 7_000


@pytest.fixture
async def two(fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[tuple[Harness, Harness]]:
    """Two bot processes on one database and one clock, each polling a fake Bot API of its own."""
    other_fake = await FakeTelegramBotAPI(TOKEN).start()
    clock = FakeClock()
    pair = Harness(fake, str(tmp_path / "shared.db"), clock), Harness(other_fake, str(tmp_path / "shared.db"), clock)
    await pair[0].start()
    await pair[1].start()
    try:
        yield pair
    finally:
        await pair[1].stop()
        await pair[0].stop()
        await other_fake.stop()


def replies(fake: FakeTelegramBotAPI, mark: int = 0) -> list[str]:
    return [c.params["text"] for c in fake.calls_to("sendMessage", mark) if c.chat_id == GROUP_ID]


async def test_an_update_given_to_two_processes_at_once_is_answered_once(
        fake: FakeTelegramBotAPI, two: tuple[Harness, Harness]) -> None:
    one, other = two
    other_fake = other.fake
    held = HeldSleep(one)
    try:
        # The first process is half way through: its reply got 429 and it waits (held by the test).
        counted = REGISTRY.get_sample_value("rummy_rate_limited_total", {"platform": "telegram"}) or 0.0
        fake.fail_next("sendMessage", 429, "Too Many Requests: retry after 30", {"retry_after": 30}, chat_id=GROUP_ID)
        one.tg.outbox.sleep = held
        update = fake.push_text("/help", user=one.alice, chat=one.group)
        await asyncio.wait_for(held.asleep.wait(), 10)
        message = update["message"]

        # The same update reaches the second process meanwhile: dropped, nothing sent.
        other_fake.push_update({"message": message}, update_id=update["update_id"])
        await other.tg.wait_processed(update["update_id"])
        assert replies(other_fake) == []

        held.release.set()
        await one.settle(update)
        assert REGISTRY.get_sample_value("rummy_rate_limited_total", {"platform": "telegram"}) == counted + 1
        assert len(replies(fake)) == 2 and replies(fake)[0] == replies(fake)[1]  # the refused send, its retry

        # Delivered again once handled: neither process answers it.
        mark = len(other_fake.calls)
        other_fake.push_update({"message": message}, update_id=update["update_id"])
        await other.tg.wait_processed(update["update_id"])
        assert replies(other_fake, mark) == []
    finally:
        held.release.set()  # a failed test must not leave the first process waiting (its stop would hang)


async def test_a_new_given_to_two_processes_opens_one_table_and_is_answered_once(
        fake: FakeTelegramBotAPI, two: tuple[Harness, Harness]) -> None:
    one, other = two
    other_fake = other.fake
    await one.dm("/start", one.alice)
    update = fake.push_text("/new rummikub", user=one.alice, chat=one.group)
    other_fake.push_update({"message": update["message"]}, update_id=update["update_id"])
    await asyncio.gather(one.tg.wait_processed(update["update_id"]), other.tg.wait_processed(update["update_id"]))
    await one.tg.idle()
    await other.tg.idle()
    tables = await one.store.list_tables(["lobby"])
    assert len(tables) == 1
    lobbies = replies(fake) + replies(other_fake)
    assert len(lobbies) == 1, lobbies  # one lobby message, no "this chat has a table"
    assert "Rummikub" in lobbies[0]
