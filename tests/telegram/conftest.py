"""A harness: the real python-telegram-bot Application, polling a fake Bot API on 127.0.0.1,
driving the real table service on a SQLite file with a fake clock."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.codec import decode
from bot.core.service import TableService
from bot.telegram import TelegramConfig, build_application
from bot.telegram.app import ALLOWED_UPDATES, CLAIMS
from rules import get_engine
from storage import SqliteStore, Store, TableRecord
from tests.telegram.fake_bot_api import JSON, FakeTelegramBotAPI

TOKEN = "123456:TEST-TOKEN"
GROUP_ID = -100500


class Harness:
    def __init__(self, fake: FakeTelegramBotAPI, db_path: str, clock: FakeClock) -> None:
        self.fake = fake
        self.db_path = db_path
        self.clock = clock
        self.sleeps: list[float] = []
        # The fake's flood window runs on the test's clock plus every second the bot slept (the outbox
        # obeying a 429): a RetryAfter then passes without a wall-clock wait, deterministically.
        self.slept = 0.0
        fake.clock = lambda: self.clock.now() + self.slept
        self.real_sleep = False  # True: the bot's waits also pass on the wall clock (a bench's latency)
        self.group = fake.group(GROUP_ID, "Friends")
        self.alice = fake.user(101, "Alice")
        self.bob = fake.user(202, "Bob")
        self.carol = fake.user(303, "Carol")
        self.seed = 7
        self.deck: list[str] | None = None
        self.options: dict[str, Any] = {}
        # The chats' default `/look`. The production default is "pictures"; these tests read the
        # text form, the picture tests (test_pictures.py, test_every_game.py) use the `hp` fixture.
        self.look = "text"
        self.concurrent = True  # False: PTB's one update at a time (the bench's "before")
        # The group limit as in production (20 in any 60 s): it is the outbox's own window, on the
        # service's clock and the injected sleep, so it costs no wall-clock time. The overall limit
        # (AIORateLimiter, real time) is lifted.
        self.rate_limits: dict[str, float] = {"overall_max_rate": 10_000, "group_max_rate": 20}

    def make_store(self) -> Store:
        return SqliteStore(self.db_path)

    async def start(self) -> None:
        self.fake.reopen()
        self.store = self.make_store()
        await self.store.open()
        ids = iter(range(1, 10_000))
        self.service = TableService(self.store, self.clock, new_table_id=lambda: f"tb{next(ids):04d}{random.randrange(10**4):04d}",
                                    new_seed=lambda: self.seed, lobby_ttl_s=600, scope=CLAIMS)

        async def fake_sleep(seconds: float) -> None:
            self.sleeps.append(seconds)
            self.slept += seconds
            if self.real_sleep:
                await asyncio.sleep(seconds)

        self.app, self.tg = build_application(
            TOKEN, self.service, self.store, config=TelegramConfig(run_scheduler=False, look=self.look), base_url=self.fake.base_url,
            sleep=fake_sleep, concurrent=self.concurrent, **self.rate_limits)
        await self.app.initialize()
        await self.app.start()  # post_init is only run by run_polling, so call it here
        await self.tg.startup(self.app)
        assert self.app.updater is not None
        await self.app.updater.start_polling(poll_interval=0.0, timeout=10, allowed_updates=ALLOWED_UPDATES)

    async def stop(self) -> None:
        assert self.app.updater is not None
        await self.tg.idle()
        self.assert_every_callback_answered()
        assert_no_hand_in_group(self)
        # Every text the bot sent fitted Telegram's limits and parsed: a refused one is a lost reply.
        assert not self.fake.rejected, self.fake.rejected
        assert_flood_obeyed(self)
        await self.app.updater.stop()
        await self.app.stop()
        await self.tg.shutdown()
        await self.app.shutdown()
        await self.store.close()

    # ---- driving ------------------------------------------------------------------------------

    async def settle(self, update: JSON) -> JSON:
        await self.tg.wait_processed(update["update_id"])
        return update

    async def idle(self) -> None:
        """Until everything the bot queued for any chat has been sent."""
        await self.tg.idle()

    async def say(self, text: str, user: JSON, chat: JSON | None = None) -> JSON:
        return await self.settle(self.fake.push_text(text, user=user, chat=chat))

    async def dm(self, text: str, user: JSON) -> JSON:
        return await self.say(text, user)

    async def press(self, data: str, message: JSON, user: JSON) -> JSON:
        return await self.settle(self.fake.push_callback(data, message=message, user=user))

    async def press_label(self, message: JSON, label: str, user: JSON) -> JSON:
        for b in self.fake.buttons(message):
            if b["text"] == label and "callback_data" in b:
                return await self.press(b["callback_data"], message, user)
        raise AssertionError(f"no button {label!r} in {[b['text'] for b in self.fake.buttons(message)]}")

    async def press_verb(self, message: JSON, verb: str, user: JSON, *args: str) -> JSON:
        for b in self.fake.buttons(message):
            data = decode(b.get("callback_data")) if "callback_data" in b else None
            if data and data.verb == verb and data.args[: len(args)] == args:
                return await self.press(b["callback_data"], message, user)
        raise AssertionError(f"no {verb} {args} button in {self.fake.buttons(message)}")

    def assert_every_callback_answered(self) -> None:
        answered = {c.params["callback_query_id"] for c in self.fake.calls_to("answerCallbackQuery")}
        for u in self.fake.pushed:
            if "callback_query" in u:
                assert u["callback_query"]["id"] in answered, u

    async def settle_count(self, update_id: int, count: int) -> None:
        async def _wait() -> None:
            async with self.tg._processed_cond:
                await self.tg._processed_cond.wait_for(lambda: self.tg.processed.count(update_id) >= count)
        await asyncio.wait_for(_wait(), 10)
        await self.tg.idle()

    def answer_for(self, update: JSON) -> JSON:
        cid = update["callback_query"]["id"]
        answers = [c.params for c in self.fake.calls_to("answerCallbackQuery") if c.params["callback_query_id"] == cid]
        assert len(answers) == 1, answers
        return answers[0]

    # ---- looking ------------------------------------------------------------------------------

    async def table(self) -> TableRecord:
        rec = await self.store.active_table_for_chat("telegram", str(GROUP_ID))
        if rec is None:
            recs = await self.store.list_tables(["finished", "abandoned"])
            rec = recs[-1]
        return rec

    async def table_message(self, rec: TableRecord | None = None) -> JSON:
        rec = rec or await self.table()
        mid = (await self.store.table_refs(rec.id))["table"]
        return self.fake.messages[(GROUP_ID, mid)]

    async def hand_message(self, user: JSON, rec: TableRecord | None = None) -> JSON:
        rec = rec or await self.table()
        mid = (await self.store.table_refs(rec.id))[f"hand:{user['id']}"]
        return self.fake.messages[(user["id"], mid)]

    async def open_lobby(self, game: str = "rummikub", users: tuple[JSON, ...] = ()) -> TableRecord:
        for u in (self.alice, *users):
            await self.dm("/start", u)
        await self.say(f"/new {game}", self.alice, self.group)
        rec = await self.table()
        if self.deck is not None or self.options:
            # Scenario setup the chat cannot express: a stacked deck, options straight in the record.
            rec.deck = self.deck
            rec.options = {**rec.options, **self.options}
            rec = await self.store.commit(rec, rec.version)
        for u in users:
            await self.press_verb(await self.table_message(), "join", u)
        return await self.table()

    async def ai_move(self, user: JSON) -> str:
        """What a simulated player types: the game's own AI choice for their seat."""
        rec = await self.table()
        engine = get_engine(rec.game)
        seat = self.service.seat_of(rec, self.player(user))
        assert rec.state is not None and seat is not None
        return engine.format(engine.ai_action(rec.state, seat, random.Random(rec.log_seq)))

    @staticmethod
    def player(user: JSON):  # noqa: ANN205
        from bot.core.models import Player
        return Player("telegram", str(user["id"]), user["first_name"])

    def group_texts(self) -> list[str]:
        out = []
        for c in self.fake.calls:
            if c.method in ("sendMessage", "editMessageText") and c.chat_id == GROUP_ID:
                out.append(c.params["text"])
        return out


def assert_flood_obeyed(h: Harness) -> None:
    """An edit the group's flood limit refused is followed by a later edit (or the delete) of that
    message that went through: the group ends up showing the newest state. (A refused new message
    is not checked: a turn notice that went stale while waiting may rightly be dropped.)"""
    calls = h.fake.calls
    for i, c in enumerate(calls):
        if c.flooded and c.method.lower().startswith("editmessage"):
            target = (c.chat_id, c.params.get("message_id"))
            later = (d for d in calls[i + 1:] if d.status == 200 and (d.chat_id, d.params.get("message_id")) == target
                     and (d.method.lower().startswith("editmessage") or d.method.lower() == "deletemessage"))
            assert next(later, None) is not None, ("an edit lost to the flood limit", c.method, c.params)


def assert_no_hand_in_group(h: Harness) -> None:
    """Private stays private: nothing sent to the group carries a hand or a private pop-up."""
    for c in h.fake.calls:
        if c.chat_id is not None and c.chat_id < 0:
            body = json.dumps(c.params, ensure_ascii=False)
            for marker in ("Your rack", "Ваша стойка", "your hand (", "Picked:", "You got:"):
                assert marker not in body, (c.method, body[:300])


@pytest.fixture
async def fake() -> AsyncIterator[FakeTelegramBotAPI]:
    server = await FakeTelegramBotAPI(TOKEN).start()
    yield server
    await server.stop()


@pytest.fixture
async def h(fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    async for harness in _harness(fake, tmp_path, "text"):
        yield harness


@pytest.fixture
async def hp(fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    """The harness with the production default look: tables and hands as pictures."""
    async for harness in _harness(fake, tmp_path, "pictures"):
        yield harness


async def _harness(fake: FakeTelegramBotAPI, tmp_path: Path, look: str) -> AsyncIterator[Harness]:
    harness = Harness(fake, str(tmp_path / "tg.db"), FakeClock())
    harness.look = look
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()
