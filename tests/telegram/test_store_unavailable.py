"""Telegram when the store cannot be reached (ISSUE 24, item 4): a typed move or a press that could not
be saved gets the sentence — a message in the chat, or the press's answer — wherever the outage met
it (the service's commit, or the bot's own dedupe check before it), nothing is applied, and the same
move goes through once the store is back, without a restart."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.i18n import t
from storage import SqliteStore, Store
from tests.failing_store import FailingStore
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI
from tests.telegram.test_crash_redelivery import alices_draws, table_at_alices_turn

SENTENCE = t("error.E_STORE_UNAVAILABLE", "en")


class FailingHarness(Harness):
    def make_store(self) -> Store:
        self.failing = FailingStore(SqliteStore(self.db_path))
        return self.failing  # type: ignore[return-value]


@pytest.fixture
async def h(fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[FailingHarness]:
    harness = FailingHarness(fake, str(tmp_path / "tg.db"), FakeClock())
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


def dm_texts(h: Harness, after: int) -> list[str]:
    return [c.params["text"] for c in h.fake.calls_to("sendMessage", after) if c.chat_id == h.alice["id"]]


async def test_a_typed_move_that_could_not_be_saved_is_told_and_made_when_typed_again(
        h: FailingHarness) -> None:
    await table_at_alices_turn(h)
    rec = await h.table()
    for method in ("commit", "update_claimed"):  # in the service; before it, in the bot's own check
        h.failing.fail(method)
        mark = len(h.fake.calls)
        await h.dm("draw", h.alice)
        await h.idle()
        assert SENTENCE in dm_texts(h, mark), method
        assert alices_draws(await h.store.log(rec.id)) == 0, method  # nothing applied
    mark = len(h.fake.calls)
    await h.dm("draw", h.alice)  # the store is back
    await h.idle()
    assert alices_draws(await h.store.log(rec.id)) == 1
    assert SENTENCE not in dm_texts(h, mark)
    assert h.failing.failed == ["commit", "update_claimed"]


async def test_a_press_that_could_not_be_saved_is_answered_with_the_sentence(
        h: FailingHarness) -> None:
    await h.open_lobby()
    h.failing.fail("commit")
    press = await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    assert h.answer_for(press)["text"] == SENTENCE
    assert [s.kind for s in (await h.table()).seats] == ["human"]  # no AI seated
    await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    assert [s.kind for s in (await h.table()).seats] == ["human", "ai"]


async def test_a_move_made_whose_update_id_could_not_be_recorded_is_not_called_unsaved(
        h: FailingHarness) -> None:
    await table_at_alices_turn(h)
    rec = await h.table()
    # The update's second claim: the first marks it running, the second (the last step, after
    # the move and its answer) marks it done.
    h.failing.fail("claim_update", skip=1)
    mark = len(h.fake.calls)
    await h.dm("draw", h.alice)
    await h.idle()
    assert alices_draws(await h.store.log(rec.id)) == 1
    assert SENTENCE not in dm_texts(h, mark)
    assert h.failing.failed == ["claim_update"]
