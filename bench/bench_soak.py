"""Soak: weeks of play on the simulated clock, through the real adapters, service and SQLite.

Per platform (Telegram: the real python-telegram-bot against the fake Bot API; Discord: the real
discord.py against the fake Discord; both on 127.0.0.1), tables are opened one after another in a
group / channel: Alice opens a Rummikub table, Bob joins, Alice starts it, both step away and the
AI plays it to its end at once; the clock then moves on to the next table (`--soak-tables-per-day`
a simulated day), and the scheduler ticks as it would (it forgets old idempotency keys and update
ids once an hour of that clock). Nothing sleeps on the wall clock.

Printed at the end of every simulated day: tables played so far, the process's RSS, the RSS again
once glibc has given back the free pages it can (`malloc_trim`: fragmentation alone then shows as
RSS given back) and the bytes malloc's callers hold, what SQLite
holds (its page caches: they grow with the database up to their cap), Python's small-object
allocator (its 1 MiB arenas, those given back, the KB in blocks in use, free in pools in use, and in
unused pools: arenas growing while the KB in use does not is fragmentation, a peak that
came and went), the objects the garbage
collector tracks and the blocks Python's allocator holds (with `--soak-tracemalloc` also the bytes
bot/ and storage/ code allocated and still hold), what the adapter keeps per table (Telegram: the
outbox's tables, the delivery's caches, what messages show, chat queues; Discord: the delivery's
tables, hand screens, links), the service's per-table gates, and the row counts of action_keys and
processed_updates. They should level off — the maps at the tables in
play, the key tables at a week's worth (KEY_MEMORY_S) — instead of growing with the tables ever
played. The fakes' own records (every call, every message) are trimmed after each table: they are
the test servers' memory, not the bot's.

`python -m bench.bench_soak [--soak-days 14] [--soak-tables-per-day 24] [--soak-platforms telegram,discord]
[--soak-tracemalloc] [--soak-types DAY]`

`--soak-types DAY` prints, after each later day, the object types and the containers (dicts, lists,
sets, deques) that grew since DAY, with what holds them: where a per-table leak lives.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import ctypes.util
import gc
import logging
import os
import sqlite3
import sys
import tempfile
import time
import tracemalloc
from collections import Counter, OrderedDict, deque
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.core.clock import FakeClock

DAY_S = 24 * 3600.0
OWN_CODE = [tracemalloc.Filter(True, "*/bot/*"), tracemalloc.Filter(True, "*/storage/*")]


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def rss_anon_mb() -> float:
    """The anonymous part of RSS (heaps, arenas), without the mapped files (code, libraries, SQLite's -shm)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def python_arenas() -> tuple[int, int, float, float, float]:
    """The 1 MiB arenas Python's small-object allocator holds now, the arenas it has given back so far,
    the KB in its blocks in use, the KB free in its pools in use, and the KB of its unused pools: an
    arena stays while any of its blocks lives, so arenas (and the unused pools) growing while the KB in
    use does not is fragmentation, not memory held. Read from
    `sys._debugmallocstats` (written to the C stderr, so through a pipe), the only place CPython says it."""
    read, write = os.pipe()
    saved = os.dup(2)
    try:
        os.dup2(write, 2)
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(write)
    stats: dict[str, int] = {}
    with os.fdopen(read) as out:
        for line in out:
            key, _, value = line.partition("=")
            if value and ("# " in key or "unused pools" in key):
                stats[key.strip("# \n").split(" * ")[0]] = int(value.strip().replace(",", ""))
    return (stats.get("arenas allocated current", -1), stats.get("arenas reclaimed", -1),
            stats.get("bytes in allocated blocks", -1) / 1024, stats.get("bytes in available blocks", -1) / 1024,
            next((v for k, v in stats.items() if k.endswith("unused pools")), -1) / 1024)


def objects() -> tuple[int, int]:
    """Objects the garbage collector tracks, and the memory blocks Python's allocator holds (strings
    and numbers too), after a full collection: a leak of per-table state shows here as a count
    growing with the tables played. RSS also has what C code keeps (SQLite's page caches, the C
    allocator's arenas), which grows with the database and the threads before it levels off."""
    gc.collect()
    return len(gc.get_objects()), sys.getallocatedblocks()


def type_counts() -> Counter[str]:
    """The objects the garbage collector tracks, counted by type: what grows between two days names its holder."""
    gc.collect()
    return Counter(type(o).__qualname__ for o in gc.get_objects())


def container_sizes() -> dict[int, tuple[int, Any]]:
    """Every dict, list, set and deque the collector tracks, by id: its length, and the container itself
    (kept, so that an id reused by a newer object is not taken for the same container)."""
    gc.collect()
    return {id(o): (len(o), o) for o in gc.get_objects() if type(o) in (dict, list, set, deque, OrderedDict)}


def containers_grown(before: dict[int, tuple[int, Any]], now: dict[int, tuple[int, Any]]) -> list[str]:
    """The containers alive on both days that grew the most, with what holds them: a dict keyed by
    table, chat or message never pruned shows here, though it is one object whatever its size."""
    grown = sorted(((n - before[i][0], o) for i, (n, o) in now.items() if i in before and before[i][1] is o
                    and n > before[i][0]), key=lambda g: -g[0])[:8]
    lines = []
    for by, o in grown:
        holders = [type(r).__qualname__ + (f"({getattr(r, '__qualname__', '')})" if callable(r) else "")
                   for r in gc.get_referrers(o) if r is not before and r is not now and not isinstance(r, tuple)][:3]
        sample = list(o)[-2:] if not isinstance(o, dict) else list(o.items())[-2:]
        lines.append(f"{type(o).__name__} +{by} (now {len(o)}) held by {holders}: last {str(sample)[:160]}")
    return lines


def own_kb() -> float:
    """What bot/ and storage/ code allocated and still holds (the fakes and libraries left out)."""
    if not tracemalloc.is_tracing():
        return float("nan")
    gc.collect()
    return sum(s.size for s in tracemalloc.take_snapshot().filter_traces(OWN_CODE).statistics("filename")) / 1024


def sqlite_kb() -> float:
    """What SQLite itself holds in this process (page caches, statements): C memory, not Python's.
    Through ctypes because the sqlite3 module does not expose sqlite3_memory_used."""
    try:
        lib = ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    except OSError:
        return float("nan")
    lib.sqlite3_memory_used.restype = ctypes.c_int64
    return lib.sqlite3_memory_used() / 1024


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def c_heap_kb() -> tuple[float, float]:
    """glibc's heap as it stands, then RSS once glibc has given back every free page it can
    (`malloc_trim(0)`): (bytes in use by malloc's callers, KB; RSS after the trim, MB). Memory that is
    only fragmented shows as RSS that a trim gives back while the bytes in use stay flat; memory held
    shows in the bytes in use. Through ctypes: Python exposes neither."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.mallinfo2.restype = _MallInfo2
    except (OSError, AttributeError):
        return float("nan"), float("nan")
    info = libc.mallinfo2()
    libc.malloc_trim(0)
    return (info.uordblks + info.hblkhd) / 1024, rss_mb()


def rows(db_path: str) -> tuple[int, int]:
    with closing(sqlite3.connect(db_path)) as db:
        keys = db.execute("SELECT count(*) FROM action_keys").fetchone()[0]
        updates = db.execute("SELECT count(*) FROM processed_updates").fetchone()[0]
    return keys, updates


def header(kept: list[str]) -> str:
    return f"{'day':>4} {'tables':>6} {'RSS MB':>7} {'trimmed':>7} {'anon MB':>7} {'arenas':>6} {'freed':>5} {'py KB':>6} {'free KB':>7} {'pools KB':>8} {'malloc KB':>9} {'SQLite KB':>9} {'objects':>8} {'blocks':>8} {'own KB':>7} " + " ".join(f"{k:>8}" for k in kept) + \
        f" {'gates':>6} {'keys':>6} {'updates':>7}"


async def soak(name: str, days: int, per_day: int, setup: Callable[[Any, FakeClock], Awaitable[Any]],
               play: Callable[[Any], Awaitable[None]], kept: Callable[[Any], dict[str, int]],
               trim: Callable[[Any], None], stop: Callable[[Any], Awaitable[None]], types_from: int = 0) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        h = await setup(str(Path(tmp) / "soak.db"), clock)
        started, played = time.perf_counter(), 0
        first_types: Counter[str] | None = None
        first_sizes: dict[int, tuple[int, Any]] = {}
        try:
            print(f"\n{name}: {per_day} tables a simulated day")
            print(header(list(kept(h))))
            for day in range(1, days + 1):
                for _ in range(per_day):
                    clock.advance(DAY_S / per_day)
                    await h.scheduler.run_once()
                    await play(h)
                    played += 1
                    trim(h)
                sizes = kept(h)
                keys, updates = rows(h.db_path)
                tracked, blocks = objects()
                rss = rss_mb()
                arenas, reclaimed, py_used, py_free, py_pools = python_arenas()
                in_use, trimmed = c_heap_kb()
                print(f"{day:>4} {played:>6} {rss:>7.1f} {trimmed:>7.1f} {rss_anon_mb():>7.1f} {arenas:>6} {reclaimed:>5} {py_used:>6.0f} {py_free:>7.0f} {py_pools:>8.0f} "
                      f"{in_use:>9.0f} {sqlite_kb():>9.0f} {tracked:>8} {blocks:>8} "
                      f"{own_kb():>7.0f} "
                      + " ".join(f"{v:>8}" for v in sizes.values())
                      + f" {len(h.service.gates):>6} {keys:>6} {updates:>7}", flush=True)
                if types_from and day >= types_from:
                    now_types, now_sizes = type_counts(), container_sizes()
                    if first_types is None:
                        first_types, first_sizes = now_types, now_sizes
                    else:
                        grown = (now_types - first_types).most_common(12)
                        print("      types grown since day", types_from, ":", ", ".join(f"{t} +{n}" for t, n in grown))
                        print("      containers grown since day", types_from, ":")
                        for line in containers_grown(first_sizes, now_sizes):
                            print("        " + line)
        finally:
            await stop(h)
        print(f"{name}: {played} tables in {time.perf_counter() - started:.0f} s of real time")


# ---- Telegram ------------------------------------------------------------------------------------


async def telegram_setup(db_path: str, clock: FakeClock) -> Any:
    from tests.telegram.conftest import TOKEN, Harness
    from tests.telegram.fake_bot_api import FakeTelegramBotAPI

    fake = await FakeTelegramBotAPI(TOKEN).start()
    h = Harness(fake, db_path, clock)
    await h.start()
    h.scheduler = h.tg.scheduler
    return h


async def telegram_play(h: Any) -> None:
    lobby = await h.open_lobby(users=(h.bob,))
    await h.press_verb(await h.table_message(lobby), "start", h.alice)
    await h.say("/away", h.alice)
    await h.say("/away", h.bob)
    # By its id: the harness's `table()` finds an ended table among every table ever played, a read
    # (and a peak of Python memory) that grows with the tables played, and would be measured as the bot's.
    ended = await h.store.get_table(lobby.id)
    assert ended is not None and ended.status == "finished"
    await h.tg.idle()


def telegram_kept(h: Any) -> dict[str, int]:
    outbox = h.tg.outbox
    return {**h.tg.tables_kept(), "shown": len(outbox._shown), "chats": len(outbox._queues)}


def telegram_trim(h: Any) -> None:
    fake = h.fake
    h.sleeps.clear()  # the harness's record of every sleep the outbox asked for
    fake.calls.clear()
    fake.pushed.clear()
    fake.rejected.clear()
    fake.throttled.clear()
    fake.messages.clear()  # the next table is a new message; the ended one is not looked at again
    fake.photos.clear()
    for sent in fake.group_sent.values():
        now = fake.clock()
        sent[:] = [at for at in sent if now - at < 60.0]  # the flood rule looks back 60 s


async def telegram_stop(h: Any) -> None:
    await h.stop()
    await h.fake.stop()


# ---- Discord -------------------------------------------------------------------------------------


async def discord_setup(db_path: str, clock: FakeClock) -> Any:
    from bot.discord.app import point_at
    from tests.discord.conftest import TOKEN, Harness
    from tests.discord.fake_discord import FakeDiscord

    fake = await FakeDiscord(TOKEN).start()
    point_at(fake.api_base, fake.gateway_url)
    h = Harness(fake, db_path, clock)
    await h.start()
    h.scheduler = h.bot.scheduler
    h.fake_server = fake
    return h


async def discord_play(h: Any) -> None:
    # The table is found by its channel, then by its id: the harness's `table()` reads every table
    # ever played, a cost (and a peak of Python memory) that grows with the tables played.
    await h.slash("new", h.alice, game="rummikub")
    lobby = await h.store.active_table_for_chat("discord", str(h.fake.channel_id))
    assert lobby is not None
    await h.press(await h.table_message(lobby), h.bob, "join")
    await h.press(await h.table_message(lobby), h.alice, "start")
    await h.slash("away", h.alice)
    await h.slash("away", h.bob)
    ended = await h.store.get_table(lobby.id)
    assert ended is not None and ended.status == "finished"


def discord_kept(h: Any) -> dict[str, int]:
    return {"delivery": h.bot.delivery.tables_kept(), "hand_uis": h.bot.uis.tables_kept(),
            "links": len({k[0] for k in h.bot.looks.links})}


def discord_trim(h: Any) -> None:
    fake = h.fake
    fake.requests.clear()
    fake.messages.clear()
    fake.interactions.clear()
    fake.original.clear()
    fake.created_at.clear()
    fake.deferred.clear()
    fake.files.clear()
    fake.rejected.clear()
    fake.missing_images.clear()
    fake.expired.clear()


async def discord_stop(h: Any) -> None:
    await h.stop()
    await h.fake_server.stop()


PLATFORMS = {
    "telegram": (telegram_setup, telegram_play, telegram_kept, telegram_trim, telegram_stop),
    "discord": (discord_setup, discord_play, discord_kept, discord_trim, discord_stop),
}


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soak-days", type=int, default=14, help="simulated days (the keys are kept 7)")
    parser.add_argument("--soak-tables-per-day", type=int, default=24)
    parser.add_argument("--soak-platforms", default="telegram,discord")
    parser.add_argument("--soak-tracemalloc", action="store_true",
                        help="also the bytes bot/ and storage/ hold (about ten times slower)")
    parser.add_argument("--soak-types", type=int, default=0, metavar="DAY",
                        help="from this day on, print the object types whose count grew since that day")
    args, _ = parser.parse_known_args(argv)
    logging.basicConfig(level=logging.ERROR)  # discord.py's voice warnings are not the bench's
    if args.soak_tracemalloc:
        tracemalloc.start()
    for name in args.soak_platforms.split(","):
        asyncio.run(soak(name, args.soak_days, args.soak_tables_per_day, *PLATFORMS[name], types_from=args.soak_types))


if __name__ == "__main__":
    main(sys.argv[1:])
