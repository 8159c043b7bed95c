"""The outbox's delivery rules on a recording stand-in for the Bot API: a notice replaces the
previous one, a notice stale before it is sent is dropped, and behind a full group window only the
newest table state goes out."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

from bot.core.clock import FakeClock
from bot.telegram.outbox import Outbox

GROUP, DM = -100, 7


@dataclass
class RecordingBot:
    calls: list[tuple[str, int, Any]] = field(default_factory=list)
    gate: asyncio.Event | None = None  # while set to an unset event, calls wait (a slow chat)
    _ids: int = 100

    async def _call(self, name: str, chat_id: int, what: Any) -> Any:
        if self.gate is not None:
            await self.gate.wait()
        self.calls.append((name, chat_id, what))
        self._ids += 1
        return SimpleNamespace(message_id=self._ids)

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Any:
        return await self._call("send", chat_id, text)

    async def edit_message_text(self, text: str, chat_id: int, message_id: int, **_: Any) -> Any:
        return await self._call("edit", chat_id, text)

    async def delete_message(self, chat_id: int, message_id: int) -> Any:
        return await self._call("delete", chat_id, message_id)


@dataclass
class Refs:
    refs: dict[str, dict[str, Any]] = field(default_factory=dict)

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        return dict(self.refs.get(table_id, {}))

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        self.refs.setdefault(table_id, {})[key] = value


def outbox(bot: RecordingBot, **kw: Any) -> Outbox:
    async def no_sleep(_: float) -> None:
        pass
    return Outbox(bot, Refs(), kw.pop("sleep", no_sleep), clock=FakeClock().now, **kw)  # type: ignore[arg-type]


async def test_a_new_notice_deletes_the_previous_one() -> None:
    bot = RecordingBot()
    box = outbox(bot)
    box.notify(DM, "t1", "notice:7", "your turn", version=1)
    await box.idle()
    first = await box.ref("t1", "notice:7")
    box.notify(DM, "t1", "notice:7", "your turn again", version=3)
    await box.idle()
    assert [c[0] for c in bot.calls] == ["send", "delete", "send"] and bot.calls[1][2] == first
    await box.retract(DM, "t1", "notice:7", version=4)
    await box.idle()
    assert [c[0] for c in bot.calls][-1] == "delete" and await box.ref("t1", "notice:7") is None
    await box.retract(DM, "t1", "notice:7", version=5)
    await box.idle()
    assert len(bot.calls) == 4, "nothing shown, nothing to delete: no call"


async def test_a_notice_stale_before_it_is_sent_is_dropped() -> None:
    bot = RecordingBot(gate=asyncio.Event())
    box = outbox(bot)
    box.put(DM, "t1", "hand:7", "hand", None, version=1)  # the DM is busy sending this one
    await asyncio.sleep(0)
    box.notify(DM, "t1", "notice:7", "your turn (v1)", version=1)
    await box.retract(DM, "t1", "notice:7", version=2)  # the turn is over before the notice went
    box.notify(DM, "t1", "notice:8", "old", version=2)
    box.notify(DM, "t1", "notice:8", "new", version=3)  # replaced while waiting: only the newest
    box.notify(DM, "t1", "notice:8", "older still", version=1)  # arrives late: already stale
    bot.gate.set()
    await box.idle()
    assert [(c[0], c[2]) for c in bot.calls] == [("send", "hand"), ("send", "new")]


async def test_behind_a_full_group_window_only_the_newest_table_goes_out() -> None:
    bot = RecordingBot()
    release = asyncio.Event()
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)
        await release.wait()

    box = outbox(bot, sleep=sleep, group_limit=1, group_period=60.0)
    box.put(GROUP, "t1", "table", "v1", None, version=1)
    await box.idle()
    box.put(GROUP, "t1", "table", "v2", None, version=2)
    await asyncio.sleep(0.01)
    assert waited == [60.0], "the second message of the minute waits for the window"
    for v in (3, 4, 5):
        box.put(GROUP, "t1", "table", f"v{v}", None, version=v)
    release.set()
    await box.idle()
    assert [(c[0], c[2]) for c in bot.calls] == [("send", "v1"), ("edit", "v5")]


async def test_deleting_does_not_wait_for_the_group_window() -> None:
    bot = RecordingBot()
    waited: list[float] = []

    async def sleep(seconds: float) -> None:
        waited.append(seconds)

    box = outbox(bot, sleep=sleep, group_limit=1, group_period=60.0)
    box.notify(GROUP, "t1", "turn", "Bob, your turn", version=1)
    await box.idle()
    await box.retract(GROUP, "t1", "turn", version=2)
    await box.idle()
    assert [c[0] for c in bot.calls] == ["send", "delete"] and waited == []
