"""Real headless Chromium (Debian's chromium + chromium-driver, driven by Selenium) against the web
app served from a thread of its own, so the synchronous WebDriver calls never block its loop.
Outside CI a machine without the browser skips these tests with a message; with CI=true the
missing browser fails them (.ci/run installs it)."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from aiohttp import web

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from storage import SqliteStore
from tests.web.tables import BOT_TOKEN, SECRET

T = TypeVar("T")
CHROMIUM = ("chromium", "chromium-browser")
PHONE = (360, 640)


def browser_or_skip() -> tuple[str, str]:
    binary = next((p for name in CHROMIUM if (p := shutil.which(name))), None)
    driver = shutil.which("chromedriver")
    try:
        import selenium  # noqa: F401
    except ImportError:
        driver = None
    if binary and driver:
        return binary, driver
    why = "no headless browser: install Debian's chromium and chromium-driver, and selenium (the dev extras)"
    if os.environ.get("CI") == "true":
        pytest.fail(why)
    pytest.skip(why)


class Served:
    """The app on 127.0.0.1 in a background loop; `run` awaits a coroutine there."""

    def __init__(self, db: Path) -> None:
        self.clock = FakeClock()
        self.links = SeatLinks(SECRET)
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()
        self.store = SqliteStore(str(db))
        ids = iter(range(1000))
        self.service = TableService(self.store, self.clock, new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: 42)
        self.run(self.store.open())
        self.app = create_app(self.service, self.store, WebConfig(self.links, BOT_TOKEN, 3600.0), self.clock)
        self.runner = web.AppRunner(self.app, shutdown_timeout=0.5)
        self.run(self.runner.setup())
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        self.run(site.start())
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(20)

    def url(self, table: str, seat: int | None, ttl: float = 3600.0, lang: str = "en") -> str:
        return f"http://127.0.0.1:{self.port}/table/{table}?k={self.links.token(table, seat, self.clock.now() + ttl)}" \
               f"&lang={lang}"

    def close(self) -> None:
        self.run(self.runner.cleanup())
        self.run(self.store.close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)


def chrome(binary: str, driver: str, size: tuple[int, int] = PHONE) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={max(size[0], 500)},{size[1]}", "--no-first-run", "--disable-extensions"):
        options.add_argument(arg)
    if size == PHONE:
        # Headless windows are at least 500 px wide: a phone's viewport comes from device emulation.
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                               "pixelRatio": 2, "touch": True}})
    return webdriver.Chrome(options=options, service=Service(executable_path=driver))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    s = Served(tmp_path / "browser.db")
    yield s
    s.close()


@pytest.fixture
def browsers() -> Iterator[Callable[..., Any]]:
    """Opens Chromium windows on demand; all are closed after the test."""
    binary, driver = browser_or_skip()
    opened: list[Any] = []

    def open_one(size: tuple[int, int] = PHONE) -> Any:
        b = chrome(binary, driver, size)
        opened.append(b)
        return b

    yield open_one
    for b in opened:
        b.quit()


async def played(service: TableService, game: str, moves: int, seed: int = 11) -> Any:
    """A two-human table (Canasta: with two easy AI partners) some moves in, each human's move the
    AI's own choice for that seat (seeded): melds, a market, a pile on the table."""
    from random import Random

    from bot.core.presenter.games import turn_of
    from rules import get_engine
    from tests.web.tables import ALICE, BOB

    rec = await service.open_table(game, "telegram", f"chat-{game}", ALICE, seed=seed)
    await service.join(rec.id, BOB)
    if game == "canasta":
        for _ in range(2):
            await service.add_ai(rec.id, ALICE, level="easy")
    await service.start(rec.id, ALICE)
    rec = await service.get(rec.id)
    engine, rng = get_engine(game), Random(5)
    for _ in range(moves):
        seat = turn_of(rec)
        if seat not in (0, 1) or engine.result(rec.state) is not None:
            break
        rec = (await service.act(rec.id, (ALICE, BOB)[seat], engine.format(engine.ai_action(rec.state, seat, rng)))).table
    return rec
