"""How many event streams may be open (per link, per address, in all) and how fast one seat may post
moves. Both answer at once, before any work: 429 for one client over its share, with Retry-After
where waiting helps, and 503 when the server as a whole is full."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from aiohttp import web

from bot.core.clock import Clock
from bot.web.limits import OPENINGS_AT_ONCE, WebLimits


def refusal(kind: type[web.HTTPException], sentence: str, retry_after: float | None = None) -> web.HTTPException:
    headers = {"Retry-After": str(max(1, math.ceil(retry_after)))} if retry_after is not None else None
    return kind(text=sentence, headers=headers)


@dataclass
class Streams:
    limits: WebLimits
    by_link: Counter[str] = field(default_factory=Counter)
    by_address: Counter[str] = field(default_factory=Counter)
    total: int = 0
    opening: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(OPENINGS_AT_ONCE))

    def room(self, address: str) -> None:
        """Raises the refusal when no stream can open from `address` now (asked again at `admit`;
        asked first before the request's credentials are even read)."""
        lim = self.limits
        if self.total >= lim.max_streams:
            raise refusal(web.HTTPServiceUnavailable, "The server has too many open table streams; "
                          "try again in a moment.", 5)
        if lim.max_streams_per_address and self.by_address[address] >= lim.max_streams_per_address:
            raise refusal(web.HTTPTooManyRequests, "Too many open table streams from your address; "
                          "close some pages first.")

    @contextmanager
    def admit(self, link: str, address: str) -> Iterator[None]:
        """One stream open for its whole life; `link` is the seat link's token or the Mini App's
        table, seat and user (the same seat in two tabs is one link)."""
        lim = self.limits
        self.room(address)
        if lim.max_streams_per_link and self.by_link[link] >= lim.max_streams_per_link:
            raise refusal(web.HTTPTooManyRequests, "Too many pages are open with this link; close some first.")
        self.total += 1
        self.by_address[address] += 1
        self.by_link[link] += 1
        try:
            yield
        finally:
            self.total -= 1
            for counter, key in ((self.by_address, address), (self.by_link, link)):
                counter[key] -= 1
                if counter[key] <= 0:
                    del counter[key]


@dataclass
class MoveRate:
    """A token bucket per seat: `move_burst` posts at once, then `moves_per_s` — far above what a
    person taps, far below what a script can send."""

    limits: WebLimits
    clock: Clock
    buckets: dict[tuple[str, int], tuple[float, float]] = field(default_factory=dict)  # seat -> (tokens, at)

    def wait(self, table_id: str, seat: int) -> float:
        """0 and one post counted, or the seconds until the seat may post again."""
        rate, burst, now = self.limits.moves_per_s, float(self.limits.move_burst), self.clock.now()
        tokens, at = self.buckets.get((table_id, seat), (burst, now))
        tokens = min(burst, tokens + max(0.0, now - at) * rate)
        if tokens < 1.0:
            self.buckets[(table_id, seat)] = (tokens, now)
            return (1.0 - tokens) / rate
        self.buckets[(table_id, seat)] = (tokens - 1.0, now)
        if len(self.buckets) > 10_000:  # a full bucket is the same as none: forget those
            self.buckets = {k: v for k, v in self.buckets.items() if v[0] + (now - v[1]) * rate < burst}
        return 0.0
