"""A DM move through the real python-telegram-bot, with the process killed before or after each
storage step of its handling (the dedupe check, settings, the table read, the key check, the
move's COMMIT, the AI's answer, the message refs, the final claim of the update id), then a restart
on the same SQLite file and Telegram delivering the same update again: the move is made exactly once,
and the player sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.service import CLAIM_LEASE_S
from storage import SqliteStore, Store
from tests.crash import DyingStore
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

UPDATE_ID = 9_000


class DyingHarness(Harness):
    def make_store(self) -> Store:
        self.dying = DyingStore(SqliteStore(self.db_path))
        return self.dying  # type: ignore[return-value]

    async def kill(self) -> None:
        """What is left of a killed process: the bot stops, nothing it holds is written."""
        assert self.app.updater is not None
        await self.app.updater.stop()
        await self.app.stop()
        await self.tg.shutdown()
        await self.app.shutdown()
        await self.dying.inner.close()


async def table_at_alices_turn(h: Harness) -> None:
    await h.open_lobby()
    await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "start", h.alice)  # the AI answers every move at once
    rec = await h.table()
    assert rec.state is not None and rec.state["turn"] == 0


def alices_draws(log: list) -> int:
    return sum(1 for e in log if e.kind == "action" and e.seat == 0 and e.text == "draw")


async def deliver_draw(h: Harness, message: dict | None = None) -> dict:
    if message is None:
        update = h.fake.push_text("draw", user=h.alice)
        update = h.fake.updates.pop()  # re-queued under a fixed id, as Telegram numbers updates
        h.fake.pushed.pop()
        message = update["message"]
    h.fake.push_update({"message": message}, update_id=UPDATE_ID)
    await h.tg.wait_processed(UPDATE_ID)
    return message


async def steps_of_one_delivery(fake: FakeTelegramBotAPI, tmp_path: Path) -> int:
    h = DyingHarness(fake, str(tmp_path / "probe.db"), FakeClock())
    await h.start()
    await table_at_alices_turn(h)
    before = h.dying.calls
    await deliver_draw(h)
    await h.tg.idle()
    steps = h.dying.calls - before
    await h.stop()
    return steps


@pytest.mark.parametrize("after", [False, True], ids=["before", "after"])
async def test_a_kill_at_any_step_then_redelivery_makes_the_move_once(
        fake: FakeTelegramBotAPI, tmp_path: Path, after: bool) -> None:
    steps = await steps_of_one_delivery(fake, tmp_path)
    assert steps >= 4  # the commit, the update claim and the delivery's refs at least: a probe that saw fewer is broken
    for at in range(1, steps + 1):
        path = str(tmp_path / f"kill-{at}.db")
        h = DyingHarness(fake, path, FakeClock())
        await h.start()
        await table_at_alices_turn(h)
        rec = await h.table()
        h.dying.arm(at, after)
        message = await deliver_draw(h)
        # The last steps (the turn notice's message ref) are the outbox's, after the update's own
        # handling: let them run, so that each step really is the one the process dies at.
        await h.tg.idle()
        await h.kill()
        assert h.dying.dead, at

        fake.updates.clear()  # what the dead process fetched is gone; Telegram sends it once more
        # The restarted process is a new claim owner: a table the dead one held is taken over once
        # that claim's lease has run out (tests/bot/test_claims.py).
        again = Harness(fake, path, FakeClock(FakeClock().now() + CLAIM_LEASE_S))
        await again.start()
        try:
            await deliver_draw(again, message)
            log = await again.store.log(rec.id)
            assert alices_draws(log) == 1, (at, after, [e.text for e in log])
            now = await again.table()
            assert now.state == await again.service.replay(rec.id)
            assert now.state is not None and now.state["turn"] == 0, (at, after)  # the AI answered too
            hand = await again.hand_message(again.alice)
            assert "Your rack" in hand["text"]
        finally:
            await again.stop()
