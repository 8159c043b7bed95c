"""A true sliding window for one group: at most `limit` messages in any `period` seconds.

Telegram allows a bot about 20 messages a minute in one group. PTB's AIORateLimiter holds a group
to a leaky bucket (aiolimiter) instead: a full bucket of 20 goes out at once and then one every 3 s
drains in, so 39-40 calls pass in the first 60 s and Telegram answers the rest with RetryAfter. This
window keeps the send times of the last `limit` messages and lets the next one go only `period`
after the oldest of them, so no 60 s span ever holds more than `limit`.

The times are a schedule, not readings: a slot is reserved at `max(now, oldest + period)` before
the wait, so two senders of one group (the outbox worker and a command reply) never take the same
slot. After a wait "now" is at least the time waited for, even when the clock says less: a test's
clock does not move while its injected sleep returns at once, and the schedule must still keep
the limit (the fake Bot API measures its own window on that same injected time).

Pacing (`spacing`) rides on the same schedule, so paced and unpaced senders of one group share one
budget and never take the same slot.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Awaitable, Callable

Sleep = Callable[[float], Awaitable[None]]


class SlidingWindow:
    def __init__(self, limit: int, period: float, clock: Callable[[], float]) -> None:
        self.limit = limit
        self.period = period
        self.clock = clock
        self._sent: deque[float] = deque(maxlen=max(1, limit))  # the newest `limit` send times, oldest first
        self._waited_until = float("-inf")

    def now(self) -> float:
        return max(self.clock(), self._waited_until)

    def reserve(self, spacing: float = 0.0) -> float:
        """The time the next message may go (now, or when the oldest of the last `limit` leaves the
        window), taken for it: the caller waits until then and sends. `spacing`: not sooner than
        that many seconds after the group's previous message (pacing, see `acquire`)."""
        now = self.now()
        at = now
        if len(self._sent) == self._sent.maxlen:
            at = max(now, self._sent[0] + self.period)
        at = max(at, self._sent[-1] + spacing) if self._sent else at  # never earlier than a slot already taken
        self._sent.append(at)
        return at

    async def acquire(self, sleep: Sleep, spacing: float = 0.0) -> float:
        """Wait for a slot; returns the seconds waited (0 when the window had room).

        `spacing` paces a sender: at `period / limit` a stream of messages never spends the window
        in a burst and then waits out the rest of the period, it goes one every few seconds (the
        outbox paces its table edits so; what waits meanwhile is coalesced to the newest state)."""
        at = self.reserve(spacing)
        wait = at - self.now()
        if wait <= 0:
            return 0.0
        await sleep(wait)
        self._waited_until = max(self._waited_until, at)
        return wait


__all__ = ["SlidingWindow"]
