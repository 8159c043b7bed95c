"""The group window (bot/telegram/window.py): at most `limit` messages in any `period` seconds, a
sliding window and not a bucket, on an injected clock and sleep."""

from __future__ import annotations

from random import Random

import pytest

from bot.core.clock import FakeClock
from bot.telegram.window import SlidingWindow


def busiest(times: list[float], period: float) -> int:
    """The most send times in any half-open span [t, t + period)."""
    times = sorted(times)
    best = lo = 0
    for hi, at in enumerate(times):
        while at - times[lo] >= period:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def _sends(clock: FakeClock, gaps: list[float], move_clock_on_sleep: bool) -> tuple[list[float], list[float]]:
    window = SlidingWindow(20, 60.0, clock.now)
    waits: list[float] = []

    async def sleep(seconds: float) -> None:
        waits.append(seconds)
        if move_clock_on_sleep:
            clock.advance(seconds)

    times = []
    for gap in gaps:
        clock.advance(gap)
        await window.acquire(sleep)
        times.append(window.now())
    return times, waits


@pytest.mark.parametrize("move_clock_on_sleep", [True, False])
async def test_a_burst_sends_twenty_then_waits_for_the_oldest_to_leave(move_clock_on_sleep: bool) -> None:
    times, waits = await _sends(FakeClock(), [0.0] * 45, move_clock_on_sleep)
    assert busiest(times, 60.0) == 20
    # The 21st waits the whole minute (a bucket of 20 a minute would let it go after 3 s), the 22nd-40th
    # go with it, the 41st waits another minute.
    assert waits == [60.0, 60.0]
    assert times[20] - times[0] == 60.0 and times[40] - times[20] == 60.0


@pytest.mark.parametrize("seed", range(5))
async def test_no_sixty_seconds_ever_hold_more_than_twenty(seed: int) -> None:
    rng = Random(seed)
    gaps = [rng.choice([0.0, 0.0, 0.5, 1.0, 3.0, 7.0, 20.0]) for _ in range(300)]
    times, _ = await _sends(FakeClock(), gaps, move_clock_on_sleep=True)
    assert busiest(times, 60.0) <= 20


async def test_at_human_pace_nothing_waits() -> None:
    _, waits = await _sends(FakeClock(), [3.0] * 100, move_clock_on_sleep=True)
    assert waits == [], "20 a minute is one every 3 s: never held"


def test_two_senders_never_take_the_same_slot() -> None:
    clock = FakeClock()
    window = SlidingWindow(2, 60.0, clock.now)
    assert [window.reserve() for _ in range(5)] == [clock.now()] * 2 + [clock.now() + 60] * 2 + [clock.now() + 120]
