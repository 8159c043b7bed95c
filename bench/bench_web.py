"""The web table's figures: `python -m bench.bench_web [--moves N]`.

1. Commit -> page update: a two-human Rummikub table on SQLite, both seats and a spectator with the
   event stream open; each move is applied with `TableService.act`, and the time from its commit
   (a commit listener placed before the web hub's) to each stream's parsed event is recorded.
   With Chromium installed, the same again for a real page: a MutationObserver notes when the
   page's version changes (both sides read the same wall clock, in ms).
2. Commit in another process -> event: the page stream served here, the move made by a second
   process (bench/web_mover.py) on the same SQLite file or PostgreSQL database, reaching this one
   through the store's change feed (storage/feed.py); the time from the commit returning there to
   the parsed event here, on the one monotonic clock both processes read.
3. Page weight: the bytes a first visit transfers (page, script, style, words, the first view)
   and every external host the page names. Figures only, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from bench.bench_rummikub import machine, percentile
from bot.core.models import Player
from bot.core.presenter.games import turn_of
from bot.core.service import TableService
from bot.web.app import STATIC, WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import TableRecord, open_store
from storage.feed import POLL_S, SqlitePollFeed

ALICE, BOB = Player("bench", "1", "Alice"), Player("bench", "2", "Bob")


@asynccontextmanager
async def serving(listener: Callable[[TableRecord], None] | None = None,
                  database: str | None = None) -> AsyncIterator[Served]:
    """The web app on a free local port over a fresh SQLite store (or the `database` given);
    `listener` sees commits first."""
    with tempfile.TemporaryDirectory() as tmp:
        store = open_store(database or str(Path(tmp) / "web.db"))
        await store.open()
        service = TableService(store)
        links = SeatLinks(b"bench")
        app = create_app(service, store, WebConfig(links))
        if listener is not None:
            service.commit_listeners.insert(0, listener)
        runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        try:
            yield Served(service, links, f"http://127.0.0.1:{runner.addresses[0][1]}")
        finally:
            await runner.cleanup()
            await store.close()


@dataclass
class Served:
    service: TableService
    links: SeatLinks
    base: str

    def url(self, table_id: str, seat: int | None, path: str = "table", lang: str = "en") -> str:
        return f"{self.base}/{path}/{table_id}?k={self.links.token(table_id, seat, time.time() + 3600)}&lang={lang}"


def _summary(name: str, ms: list[float]) -> None:
    if not ms:
        print(f"{name:<34} no samples")
        return
    print(f"{name:<34} n={len(ms):<4} median {statistics.median(ms):7.2f} ms   p95 {percentile(ms, .95):7.2f} ms"
          f"   max {max(ms):7.2f} ms")


async def _stream(http: aiohttp.ClientSession, url: str, arrivals: dict[int, float], ready: asyncio.Event) -> None:
    async with http.get(url) as resp:
        async for raw in resp.content:
            line = raw.decode()
            if line.startswith("data: "):
                arrivals[json.loads(line[6:])["version"]] = time.perf_counter()
                ready.set()


async def _table(service: TableService) -> TableRecord:
    rec = await service.open_table("rummikub", "bench", "chat", ALICE)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    return await service.get(rec.id)


async def _moves(service: TableService, rec: TableRecord, moves: int, pause: float) -> None:
    for _ in range(moves):
        turn = turn_of(await service.get(rec.id))
        await service.act(rec.id, (ALICE, BOB)[turn or 0], "draw")
        await asyncio.sleep(pause)  # let the pages take it before the next commit (a bench, not a test)


async def streams(moves: int) -> None:
    committed: dict[int, float] = {}
    pages: list[dict[int, float]] = [{}, {}, {}]
    async with serving(lambda r: committed.setdefault(r.version, time.perf_counter())) as served:
        rec = await _table(served.service)
        base = f"{served.base}/api/table/{rec.id}/events?k="
        async with aiohttp.ClientSession() as http:
            readies = [asyncio.Event() for _ in pages]
            tasks = [asyncio.create_task(_stream(http, base + served.links.token(rec.id, seat, time.time() + 3600),
                                                 got, ok))
                     for seat, got, ok in zip((0, 1, None), pages, readies, strict=True)]
            for ok in readies:
                await ok.wait()
            committed.clear()  # the deal was sent when each stream opened, not pushed
            await _moves(served.service, rec, moves, 0.02)
            await asyncio.sleep(0.2)
            for task in tasks:
                task.cancel()
    for name, got in zip(("seat 0 stream", "seat 1 stream", "spectator stream"), pages, strict=True):
        _summary(f"commit -> event, {name}", [(got[v] - t) * 1000 for v, t in committed.items() if v in got])


async def _cross(database: str, moves: int) -> list[float]:
    """Commit (in bench/web_mover.py) -> event (here) for `moves` moves, each awaited before the next."""
    arrivals: dict[int, float] = {}
    async with serving(database=database) as served:
        rec = await _table(served.service)
        ready = asyncio.Event()
        async with aiohttp.ClientSession() as http:
            url = f"{served.base}/api/table/{rec.id}/events?k={served.links.token(rec.id, 1, time.time() + 3600)}"
            stream = asyncio.create_task(_stream(http, url, arrivals, ready))
            await ready.wait()
            mover = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bench.web_mover", database, rec.id, cwd=str(Path(__file__).parent.parent),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert mover.stdin is not None and mover.stdout is not None
            committed: dict[int, float] = {}
            try:
                for _ in range(moves):
                    mover.stdin.write(b"move\n")
                    await mover.stdin.drain()
                    version, at = (await mover.stdout.readline()).split()
                    committed[int(version)] = float(at)
                    for _ in range(200):  # the next move once this one arrived (or 2 s passed: lost)
                        if int(version) in arrivals:
                            break
                        await asyncio.sleep(0.01)
            finally:
                mover.stdin.close()
                await mover.wait()
                stream.cancel()
    return [(arrivals[v] - t) * 1000 for v, t in committed.items() if v in arrivals] + \
        [float("inf")] * sum(v not in arrivals for v in committed)


async def poll_cost(tables: int = 100, polls: int = 2000) -> None:
    """What one SQLite feed poll costs the event loop with `tables` open tables: when nothing was
    committed since the last poll (PRAGMA data_version only) and when something was (the versions
    query too)."""
    with tempfile.TemporaryDirectory() as tmp:
        async with serving(database=str(Path(tmp) / "poll.db")) as served:
            ids: set[str] = set()
            for i in range(tables):
                rec = await served.service.open_table("rummikub", "bench", f"chat{i}", ALICE)
                ids.add(rec.id)
            feed = SqlitePollFeed(served.service.store, path=str(Path(tmp) / "poll.db"))
            await feed.versions(ids)
            idle = time.perf_counter()
            for _ in range(polls):
                await feed.versions(ids)
            idle = (time.perf_counter() - idle) / polls
            feed._data_version = None  # as after a commit by another connection (the gate opens)
            busy = time.perf_counter()
            for _ in range(polls):
                feed._data_version = None
                await feed.versions(ids)
            busy = (time.perf_counter() - busy) / polls
            feed.close()
    print(f"SQLite feed poll, {tables} open tables  {idle * 1e6:7.1f} µs with nothing committed, "
          f"{busy * 1e6:7.1f} µs after a commit (every {POLL_S * 1000:.0f} ms while pages are open)")


async def cross_process(moves: int) -> None:
    await poll_cost()
    with tempfile.TemporaryDirectory() as tmp:
        _summary("other process -> event, SQLite", await _cross(str(Path(tmp) / "shared.db"), moves))
    try:
        from bench.scale_backends import start_postgres
        server, url = start_postgres()
    except (ImportError, SystemExit) as err:
        print(f"other process -> event, PostgreSQL  skipped: {err}")
        return
    try:
        _summary("other process -> event, PostgreSQL", await _cross(url, moves))
    finally:
        server.stop()


def _browser_run(url: str, seen_script: str) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=500,640"):
        options.add_argument(arg)
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 640,
                                                                           "pixelRatio": 2, "touch": True}})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    driver.get(url)
    for _ in range(100):
        if driver.execute_script("return document.body.dataset.version"):
            break
        time.sleep(0.05)
    driver.execute_script(seen_script)
    return driver


SEEN = """window.__seen = {};
new MutationObserver(() => { window.__seen[document.body.dataset.version] = Date.now(); })
  .observe(document.body, {attributes: true, attributeFilter: ["data-version"]});"""


async def browser(moves: int) -> None:
    if not (shutil.which("chromium") and shutil.which("chromedriver")):
        print("commit -> page (Chromium)          skipped: no chromium + chromedriver")
        return
    committed: dict[int, float] = {}
    async with serving(lambda r: committed.setdefault(r.version, time.time() * 1000)) as served:
        rec = await _table(served.service)
        driver = await asyncio.to_thread(_browser_run, served.url(rec.id, 1), SEEN)
        committed.clear()
        try:
            await _moves(served.service, rec, moves, 0.05)
            await asyncio.sleep(0.5)
            seen = await asyncio.to_thread(driver.execute_script, "return window.__seen")
        finally:
            await asyncio.to_thread(driver.quit)
    _summary("commit -> page (Chromium, DOM)", [seen[str(v)] - t for v, t in committed.items() if str(v) in seen])


async def weight() -> None:
    async with serving() as served:
        rec = await _table(served.service)
        k = served.links.token(rec.id, 0, time.time() + 3600)
        # Every script and style the page names (it is split into small files), then its data.
        assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', (STATIC / "index.html").read_text(encoding="utf-8"))
        paths = [f"/table/{rec.id}?k={k}", *assets, "/api/words/en", f"/api/table/{rec.id}?k={k}"]
        total = 0
        async with aiohttp.ClientSession(auto_decompress=False) as http:
            for path in paths:
                async with http.get(served.base + path) as resp:
                    body = await resp.read()
                total += len(body)
                print(f"weight {path.split('?')[0]:<32} {len(body):>7} bytes")
    print(f"weight, first visit                {total:>7} bytes ({total / 1024:.1f} kB; limit 300 kB)")
    hosts = set()
    for f in STATIC.iterdir():
        hosts |= set(re.findall(r"https?://([^/\"'`\s]+)", f.read_text(encoding="utf-8")))
    print(f"external hosts named by the page   {sorted(hosts) or 'none'} (telegram.org only inside Telegram)")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_web")
    parser.add_argument("--moves", type=int, default=60)
    args, _ = parser.parse_known_args(argv)
    print(f"== bench_web: {machine()}")
    asyncio.run(streams(args.moves))
    asyncio.run(cross_process(args.moves))
    asyncio.run(browser(args.moves))
    asyncio.run(weight())


if __name__ == "__main__":
    main(sys.argv[1:])
