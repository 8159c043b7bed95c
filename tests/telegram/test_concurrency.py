"""Updates of different chats run concurrently, one chat's in order (bot/telegram/processing.py).

A group is put under `RetryAfter` (429 injected by the fake) and the outbox's retry sleep is held
on an event the test controls, so "the group is still waiting" is a fact the test sets, not a
duration. What ran meanwhile is read from the fake's recorded calls and the adapter's processed ids.
"""

from __future__ import annotations

import asyncio
import html
import random
from collections.abc import Iterator
from typing import Any

import pytest
from telegram import Update

from bot.core.i18n import t
from bot.telegram.processing import PerChatUpdateProcessor, chat_key
from tests.telegram.conftest import GROUP_ID, Harness


class HeldSleep:
    """The outbox's sleep: records the seconds asked for and returns only once released."""

    def __init__(self, h: Harness) -> None:
        self.h = h
        self.asleep = asyncio.Event()
        self.release = asyncio.Event()

    async def __call__(self, seconds: float) -> None:
        self.h.sleeps.append(seconds)
        self.asleep.set()
        await self.release.wait()


@pytest.fixture
def held(h: Harness) -> Iterator[HeldSleep]:
    """The group's next reply gets 429 (retry after 30 s), and the retry waits for the test."""
    h.fake.fail_next("sendMessage", 429, "Too Many Requests: retry after 30", {"retry_after": 30}, chat_id=GROUP_ID)
    sleep = HeldSleep(h)
    assert h.tg.outbox is not None
    h.tg.outbox.sleep = sleep
    yield sleep
    sleep.release.set()  # a failed test must not leave the group's update waiting (the harness stop would hang)


def _sends_to(h: Harness, chat_id: int, after: int = 0) -> list[str]:
    return [c.params["text"] for c in h.fake.calls_to("sendMessage", after) if c.chat_id == chat_id]


async def test_a_dm_is_answered_while_a_group_waits_out_retry_after(h: Harness, held: HeldSleep) -> None:
    await h.dm("/start", h.carol)
    mark = len(h.fake.calls)
    group_update = h.fake.push_text("/help", user=h.alice, chat=h.group)
    await asyncio.wait_for(held.asleep.wait(), 10)  # the group's reply got 429 and waits 30 s
    assert h.sleeps[-1] == 30

    dm_update = h.fake.push_text("/help", user=h.carol)
    await h.tg.wait_processed(dm_update["update_id"])

    # Carol was answered; the group is still inside its wait: one refused send, no retry yet.
    assert len(_sends_to(h, h.carol["id"], mark)) == 1
    assert len(_sends_to(h, GROUP_ID, mark)) == 1
    assert group_update["update_id"] not in h.tg.processed

    held.release.set()
    await h.settle(group_update)
    group_sends = [c for c in h.fake.calls_to("sendMessage", mark) if c.chat_id == GROUP_ID]
    carol_send = next(c for c in h.fake.calls_to("sendMessage", mark) if c.chat_id == h.carol["id"])
    assert len(group_sends) == 2 and group_sends[0].params["text"] == group_sends[1].params["text"]
    # In the fake's call order the DM's reply came between the refused send and its retry.
    assert h.fake.calls.index(group_sends[0]) < h.fake.calls.index(carol_send) < h.fake.calls.index(group_sends[1])


async def test_two_updates_of_one_chat_are_handled_in_order(h: Harness, held: HeldSleep) -> None:
    await h.dm("/start", h.carol)
    mark = len(h.fake.calls)
    first = h.fake.push_text("/help", user=h.alice, chat=h.group)
    await asyncio.wait_for(held.asleep.wait(), 10)
    second = h.fake.push_text("/start", user=h.bob, chat=h.group)
    # A DM processed after the second group update arrived: by then it had its chance to overtake.
    probe = h.fake.push_text("/help", user=h.carol)
    await h.tg.wait_processed(probe["update_id"])
    assert second["update_id"] not in h.tg.processed
    assert len(_sends_to(h, GROUP_ID, mark)) == 1  # only the first update's refused reply

    held.release.set()
    await h.settle(second)
    order = [u for u in h.tg.processed if u in (first["update_id"], second["update_id"])]
    assert order == [first["update_id"], second["update_id"]]
    help_text, *rest = _sends_to(h, GROUP_ID, mark)
    assert rest == [help_text, html.escape(t("tg.start_group", "en"))]  # the retry of /help, then /start's reply


def _update(update_id: int, chat_id: int) -> Update:
    user = {"id": abs(chat_id), "is_bot": False, "first_name": "U"}
    chat: dict[str, Any] = {"id": chat_id, "type": "private" if chat_id > 0 else "supergroup"}
    message = {"message_id": update_id, "date": 0, "chat": chat, "from": user, "text": "x"}
    return Update.de_json({"update_id": update_id, "message": message}, None)


async def _play(seed: int) -> None:
    rng = random.Random(seed)
    processor = PerChatUpdateProcessor(max_running=rng.choice([1, 2, 8]))
    log: list[tuple[str, int, int]] = []
    running: dict[int, int] = {}
    overlapped = False

    async def handle(update: Update, yields: int) -> None:
        nonlocal overlapped
        key = chat_key(update)
        assert key is not None
        assert running.get(key, 0) == 0, "two updates of one chat at once"
        running[key] = 1
        overlapped = overlapped or sum(running.values()) > 1
        log.append(("start", key, update.update_id))
        for _ in range(yields):
            await asyncio.sleep(0)
        log.append(("end", key, update.update_id))
        running[key] = 0

    chats = [-100, -200, 301, 402]
    updates = [_update(i, rng.choice(chats)) for i in range(1, 60)]
    await asyncio.gather(*(processor.process_update(u, handle(u, rng.randrange(1, 5))) for u in updates))
    for key in chats:
        arrived = [u.update_id for u in updates if chat_key(u) == key]
        assert [i for e, k, i in log if e == "start" and k == key] == arrived
        assert [i for e, k, i in log if e == "end" and k == key] == arrived
    assert overlapped == (processor.max_running > 1), seed
    assert all(processor.waiting(k) == 0 for k in chats)  # nothing left behind per chat


async def test_seeded_interleavings_keep_each_chat_in_order_and_overlap_chats() -> None:
    """Random arrivals over a few chats, each handler yielding a random number of times: per chat
    the handlers start and finish in arrival order, one at a time, while other chats overlap (and
    with max_running=1 nothing overlaps at all)."""
    for seed in range(20):
        await _play(seed)
