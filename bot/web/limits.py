"""What the web server allows one client, one seat and everyone together (settings WEB_*): how long a
request's head and body may take, how many connections and event streams may be open, how fast a
seat may post moves. Whatever is over a limit is refused at once with 408, 413, 429 or 503 — before
any work — so no client can hold the event loop, the open files or the memory."""

from __future__ import annotations

import resource
from dataclasses import dataclass

# Files the process keeps for itself whatever the clients do: the store (a database file, its -wal
# and -shm, or PostgreSQL connections), the Telegram or Discord client's sockets, the AI workers'
# pipes, logs — so /start keeps answering however many clients connect.
RESERVED_FILES = 64
# asyncio accepts up to `backlog` sockets at each readiness of the listening socket, before any code
# of ours sees them, and a refused or evicted socket is closed a few turns of the loop later (the
# transport's close is deferred): under a flood, this many bursts of sockets are open beyond the
# cap. Measured with bench/bench_hostile.py; with less headroom, accept() met EMFILE and asyncio
# stopped accepting anyone for a second. The kernel's queue of connections not yet accepted is
# another number (WEB_BACKLOG, set on the socket after asyncio's listen: bot/web/server.py), so a
# burst of connections waits there instead of having its SYNs dropped and retried a second later.
# Each accepted socket costs a few callbacks (its handler's task, a refusal or an eviction), all run in
# the next turn: at 64 per wake-up 1 100 idle connections queued ~580 callbacks and held the loop
# 11–15 ms; at 16, 3–6 ms (bench/bench_hostile.py idle_1100_*), the rest waiting in the kernel's queue.
ACCEPT_BURST = 16
BURSTS_IN_FLIGHT = 5
# Event streams past their caps' checks that may be opening (signing in, reading the table, writing
# the head and first event) at one time. Without it, a thousand pages arriving together all resumed
# in the same turn of the loop once the table's shared read came back: 0.7-1 s in one turn, with a
# page and Telegram's /start waiting 2 s (bench/bench_hostile.py streams_2000). Each one done lets
# the next one in on the next turn, so a turn opens at most this many.
OPENINGS_AT_ONCE = 16
MAX_BODY = 64 * 1024  # the biggest honest body, a whole Rummikub layout, is ~2 KB
MAX_LINE = 8190  # the request line (aiohttp's default): a Mini App's initData rides in the query, ~2 KB encoded
MAX_FIELD = 8190  # one header (aiohttp's default): X-Telegram-Init-Data


@dataclass(frozen=True)
class WebLimits:
    header_timeout_s: float = 10.0
    body_timeout_s: float = 10.0
    max_connections: int = 1000
    max_connections_per_address: int = 64  # 0: no cap
    max_streams: int = 1000
    max_streams_per_address: int = 32  # 0: no cap
    max_streams_per_link: int = 8  # 0: no cap
    moves_per_s: float = 5.0
    move_burst: int = 20

    def connection_cap(self) -> int:
        """`max_connections`, lowered to leave the process its own files and room for the sockets a
        flood has accepted and not yet closed (1024 open files: 880 connections)."""
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft == resource.RLIM_INFINITY:
            return self.max_connections
        return max(1, min(self.max_connections, soft - RESERVED_FILES - ACCEPT_BURST * BURSTS_IN_FLIGHT))
