"""One Rummikub button press followed from the Telegram update to the stored move (issue 25, item 3):
the service decodes it against the table it reads under the table's gate, so the table is read once
before the move's commit (the adapter reading it too, to rebuild the seat's view and moves, was a
second read)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.codec import decode
from bot.core.i18n import t
from storage import Store, TableRecord
from tests.telegram.conftest import Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI


class ReadCounting:
    """Forwards to a real store, keeping the trail of table reads and commits."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.trail: list[str] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def get_table(self, table_id: str) -> TableRecord | None:
        self.trail.append("read")
        return await self.inner.get_table(table_id)

    async def active_table_for_chat(self, *args: Any, **kwargs: Any) -> TableRecord | None:
        self.trail.append("read")
        return await self.inner.active_table_for_chat(*args, **kwargs)

    async def commit(self, *args: Any, **kwargs: Any) -> Any:
        self.trail.append("commit")
        return await self.inner.commit(*args, **kwargs)


class CountingHarness(Harness):
    def make_store(self) -> Store:
        self.counting = ReadCounting(super().make_store())
        return self.counting  # type: ignore[return-value]


@pytest.fixture
async def hc(fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[CountingHarness]:
    harness = CountingHarness(fake, str(tmp_path / "tg.db"), FakeClock())
    await harness.start()
    try:
        yield harness
    finally:
        await harness.stop()


def reads_before_commit(trail: list[str]) -> int:
    assert "commit" in trail, trail
    return trail[: trail.index("commit")].count("read")


async def test_a_rummikub_press_reads_the_table_once_for_its_decode_and_apply(hc: CountingHarness) -> None:
    h = hc
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    seat = rec.state["turn"]
    mover = (h.alice, h.bob)[seat]
    hand = await h.hand_message(mover)
    draw = next(b for b in h.fake.buttons(hand)
                if "callback_data" in b and decode(b["callback_data"]).verb == "cmd"
                and b["text"].startswith(t("move.rummikub.draw", "en")))
    await h.idle()
    h.counting.trail.clear()
    pressed = await h.press(draw["callback_data"], hand, mover)
    await h.idle()
    assert h.answer_for(pressed)["text"] == "draw"
    assert (await h.table()).version == rec.version + 1
    assert reads_before_commit(h.counting.trail) == 1, h.counting.trail
