"""Issue 27, item 4: a Telegram-only and a Discord-only process on one database. Each process's clock
claims only the tables it can show, so a Discord table's passed deadline is played by the Discord
process and shown (its table edited, the next player pinged), whichever process ticks first; the
same for a Telegram lobby that expires. (Before: the Telegram process could claim the Discord table,
play the timeout, store it and drop the outcome — nothing ever reached Discord.)"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.discord.conftest import Harness
from tests.telegram.conftest import GROUP_ID
from tests.telegram.conftest import TOKEN as TELEGRAM_TOKEN
from tests.telegram.conftest import Harness as TelegramHarness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI


@pytest.fixture
async def tg(h: Harness) -> AsyncIterator[TelegramHarness]:
    """The Telegram process: its own fake Bot API, the Discord harness's database file and clock."""
    fake = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    harness = TelegramHarness(fake, h.db_path, h.clock)
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()
        await fake.stop()


async def test_a_discord_deadline_is_played_and_shown_by_the_discord_process(h: Harness, tg: TelegramHarness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    h.clock.advance(61)
    telegram_calls = len(tg.fake.calls)
    discord_requests = len(h.fake.requests)

    assert await tg.tg.scheduler.run_once() == []  # the Telegram process ticks first: not its table
    assert (await h.table()).version == rec.version
    assert len(tg.fake.calls) == telegram_calls

    outcomes = await h.bot.scheduler.run_once()
    assert [o.table.id for o in outcomes] == [rec.id]
    after = await h.table()
    assert (await h.store.log(rec.id))[-1].kind == "timeout"
    assert "penalty" in (await h.table_message())["embeds"][0]["description"]
    nxt = h.user_of(after, after.state["turn"])
    sent = h.fake.requests[discord_requests:]
    pings = [r.json["content"] for r in sent if r.method == "POST" and r.path.endswith("/messages")]
    assert any(f"<@{nxt['id']}>" in p and "your turn" in p for p in pings), pings


async def test_a_telegram_lobby_expires_in_the_telegram_process(h: Harness, tg: TelegramHarness) -> None:
    rec = await tg.open_lobby()
    h.clock.advance(601)
    assert await h.bot.scheduler.run_once() == []  # the Discord process: not its lobby
    assert (await tg.table()).status == "lobby"
    edits = len(tg.fake.calls_to("editMessageText"))
    outcomes = await tg.tg.scheduler.run_once()
    assert [o.table.id for o in outcomes] == [rec.id]
    assert (await tg.table()).status == "abandoned"
    await tg.idle()
    closed = [c for c in tg.fake.calls_to("editMessageText")[edits:] if c.chat_id == GROUP_ID]
    assert closed, "the lobby's message was not edited"
