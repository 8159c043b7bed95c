"""The group's table never freezes for long (issue 26, item 8): a game played at full speed on an
injected clock. Unpaced, the 20-per-60 s window is spent in a burst and the table then waits out the
rest of the minute; paced (the outbox's default, one message every 3 s), every state the table is
given is shown, or overtaken by a newer one, within a few seconds, and no 60 s hold more than 20."""

from __future__ import annotations

import asyncio
import heapq
from dataclasses import dataclass, field
from random import Random
from types import SimpleNamespace
from typing import Any

from bot.telegram.outbox import Outbox
from tests.telegram.test_outbox_policy import Refs
from tests.telegram.test_window import busiest

GROUP = -100


class Clock:
    """Set, not advanced: a sleep ends at exactly the instant it was due (sums of small steps would
    drift a float's width, and the window's edges are exact)."""

    def __init__(self) -> None:
        self.at = 0.0

    def now(self) -> float:
        return self.at


class VirtualTime:
    """Sleeps that end when the test moves the clock past them, in order: the outbox's waits cost no
    wall-clock time, and every send happens at a definite instant of the injected clock."""

    def __init__(self) -> None:
        self.clock = Clock()
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._count = 0

    async def sleep(self, seconds: float) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self.clock.now() + seconds, self._count, done))
        self._count += 1
        await done

    async def run_until(self, until: float) -> None:
        while True:
            await _settle()
            if not self._sleepers or self._sleepers[0][0] > until:
                break
            at, _, done = heapq.heappop(self._sleepers)
            self.clock.at = max(at, self.clock.at)
            if not done.done():
                done.set_result(None)
        self.clock.at = max(until, self.clock.at)
        await _settle()


async def _settle() -> None:
    for _ in range(30):
        await asyncio.sleep(0)


@dataclass
class TimedBot:
    """Records each call with the injected time it was made at."""

    clock: Clock
    calls: list[tuple[float, str, str]] = field(default_factory=list)
    _ids: int = 100

    def _call(self, name: str, what: str) -> Any:
        self.calls.append((self.clock.now(), name, what))
        self._ids += 1
        return SimpleNamespace(message_id=self._ids)

    async def send_message(self, chat_id: int, text: str, **_: Any) -> Any:
        return self._call("send", text)

    async def edit_message_text(self, text: str, chat_id: int, message_id: int, **_: Any) -> Any:
        return self._call("edit", text)

    async def delete_message(self, chat_id: int, message_id: int) -> Any:
        return self._call("delete", str(message_id))


async def fast_game(pace: float | None, seed: int, minutes: float = 5.0) -> tuple[float, int, TimedBot]:
    """Moves 0.3-1.5 s apart (the AI and quick players) for `minutes`: each puts the table; one in
    four starts a turn the group is told of (a player the bot cannot reach privately), which the next
    move retracts; one in twenty-five ends a round (a message that stays). Returns the longest any
    table state waited to be shown (or overtaken), the busiest 60 s, and the calls."""
    time = VirtualTime()
    bot = TimedBot(time.clock)
    box = Outbox(bot, Refs(), time.sleep, clock=time.clock.now, group_pace=pace)  # type: ignore[arg-type]
    rng = Random(seed)
    put_at: list[float] = []
    version, now = 0, 0.0
    while now < minutes * 60:
        now += rng.uniform(0.3, 1.5)
        await time.run_until(now)
        version += 1
        box.put(GROUP, "t1", "table", f"table v{version}", None, version=version)
        put_at.append(now)
        await box.retract(GROUP, "t1", "turn", version=version)
        if version % 4 == 0:
            box.notify(GROUP, "t1", "turn", f"turn v{version}", version=version)
        if version % 25 == 0:
            box.post(GROUP, f"round over v{version}")
    await time.run_until(now + 600)
    await box.idle()
    shown = [(at, int(text.removeprefix("table v"))) for at, name, text in bot.calls
             if name in ("send", "edit") and text.startswith("table v")]
    behind = 0.0
    for v, at in enumerate(put_at, start=1):
        first = next(when for when, got in shown if got >= v)
        behind = max(behind, first - at)
    sends = [at for at, name, _ in bot.calls if name != "delete"]
    # A microsecond short of the minute: a wait is `slot - now` and ends at `now + wait`, which can
    # land a float's width before the slot exactly 60 s after an earlier message.
    return behind, busiest(sends, 60.0 - 1e-6), bot


async def test_paced_the_group_table_is_never_more_than_a_few_seconds_behind() -> None:
    for seed in range(3):
        behind, busiest_minute, bot = await fast_game(None, seed)
        print(f"paced, seed {seed}: the table at most {behind:.1f} s behind, {busiest_minute} messages "
              f"in the busiest 60 s, {len(bot.calls)} calls")
        assert behind <= 6.5, behind
        assert busiest_minute <= 20
        assert any(text.startswith("round over") for _, _, text in bot.calls)


async def test_unpaced_the_table_freezes_for_most_of_a_minute() -> None:
    """The check above can fail: without pacing the same game leaves the table half a minute behind."""
    behind, busiest_minute, _ = await fast_game(0.0, 0)
    print(f"unpaced: the table at most {behind:.1f} s behind, {busiest_minute} in the busiest 60 s")
    assert behind > 30 and busiest_minute <= 20


async def test_shutting_down_a_state_waiting_for_its_pace_is_given_up_at_once() -> None:
    """As for the window (outbox.py, `Leaving`): the bot does not wait out a pace while it stops; the
    restored render of the next start shows the table again."""
    time = VirtualTime()
    bot = TimedBot(time.clock)
    box = Outbox(bot, Refs(), time.sleep, clock=time.clock.now)  # type: ignore[arg-type]
    box.put(GROUP, "t1", "table", "table v1", None, version=1)
    await time.run_until(0.5)
    box.put(GROUP, "t1", "table", "table v2", None, version=2)
    await time.run_until(1.0)
    assert [text for _, _, text in bot.calls] == ["table v1"], "v2 waits for its pace (3 s after v1)"
    box.stop_waiting()
    await asyncio.wait_for(box.idle(), timeout=5)  # wall-clock guard only: the clock never moves here
    assert [text for _, _, text in bot.calls] == ["table v1"] and time.clock.now() == 1.0
