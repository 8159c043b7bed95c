"""The process's Prometheus metrics (prometheus-client), served at `/metrics` by the web server.

Counters and the AI histogram are updated where the work happens; what is a state rather than an
event — open tables, outbox queues, the store's commits — is read when a scrape asks (`refresh`).
One registry of the process's own (not the library's global one), so tests and several services in
one process do not clash over names."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry(auto_describe=True)

UPDATES = Counter("rummy_updates", "Platform updates handled (Telegram updates, Discord interactions)",
                  ["platform"], registry=REGISTRY)
MOVES = Counter("rummy_moves", "Table changes committed by this process (moves, timeouts, automatic moves)",
                ["platform"], registry=REGISTRY)
RATE_LIMITED = Counter("rummy_rate_limited", "429 answers from a platform (their Retry-After obeyed)",
                       ["platform"], registry=REGISTRY)
AI_SECONDS = Histogram("rummy_ai_seconds", "Time from asking for a table's automatic moves to having them",
                       registry=REGISTRY, buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10))
OPEN_TABLES = Gauge("rummy_open_tables", "Tables in the database by status (lobby, playing)", ["status"],
                    registry=REGISTRY)
OUTBOX = Gauge("rummy_outbox_queued", "Messages waiting in a platform's outbox", ["platform"], registry=REGISTRY)
COMMITS = Gauge("rummy_store_commits", "Transactions the store's group writer committed since start",
                registry=REGISTRY)
WRITES = Gauge("rummy_store_writes", "Writes (table commits, claims ...) in those transactions", registry=REGISTRY)

# A platform's outbox size, read at scrape time (the Telegram adapter registers its own).
queued: dict[str, Callable[[], int]] = {}


async def refresh(store: Any) -> None:
    """Read the states a scrape shows: open tables (one indexed count per status) and the store's
    group-commit figures, and each outbox's size."""
    counts = await store.count_tables(("lobby", "playing"))
    for status, n in counts.items():
        OPEN_TABLES.labels(status).set(n)
    stats = getattr(getattr(store, "writer", None), "stats", None)
    if stats is not None:
        COMMITS.set(stats.batches)
        WRITES.set(stats.writes)
    for platform, size in queued.items():
        OUTBOX.labels(platform).set(size())


def exposition(platforms: Iterable[str] = ()) -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type."""
    for platform in platforms:  # a platform that saw nothing yet still shows its 0
        UPDATES.labels(platform)
        MOVES.labels(platform)
        RATE_LIMITED.labels(platform)
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
