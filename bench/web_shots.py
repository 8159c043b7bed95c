"""Screenshots of the web table for the issue note: `python -m bench.web_shots OUTDIR`.

At phone (360x640) and desktop (1280x800) size, in headless Chromium, from the seat on turn:
Rummikub, Rummy 500, Tile Canasta and
Three-Thirteen some moves in (each human seat played by the AI's own choice, seeded), so the table
shows as cards and tiles: melds, the market, the pile top, the stock."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from bench.bench_web import serving
from bot.core.presenter.games import turn_of
from tests.web.browser import played

SIZES = {"phone": (360, 640), "desktop": (1280, 800)}


def _shoot(url: str, size: tuple[int, int], out: Path) -> None:
    import shutil
    import time

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                f"--window-size={max(size[0], 500)},{size[1]}"):
        options.add_argument(arg)
    if size[0] < 500:  # headless windows are at least 500 px wide: emulate the phone's viewport
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1],
                                                                               "pixelRatio": 1, "touch": True}})
    driver = webdriver.Chrome(options=options, service=Service(executable_path=shutil.which("chromedriver")))
    try:
        driver.get(url)
        for _ in range(100):
            if driver.execute_script("return document.body.dataset.version"):
                break
            time.sleep(0.05)
        time.sleep(0.3)  # let the live check mark the melds
        driver.save_screenshot(str(out))
    finally:
        driver.quit()


# The moves each game is played before its picture: enough for melds and a market, not a round's end.
MOVES = {"rummikub": 10, "rummy500": 14, "canasta": 16, "three_thirteen": 3}


async def main_async(outdir: Path) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    async with serving() as served:
        for game, moves in MOVES.items():
            rec = await played(served.service, game, moves)
            seat = turn_of(rec) or 0
            for name, size in SIZES.items():
                out = outdir / f"{game}-{name}.png"
                await asyncio.to_thread(_shoot, served.url(rec.id, seat), size, out)
                print(out)


def main(argv: list[str]) -> None:
    asyncio.run(main_async(Path(argv[0] if argv else "web-shots")))


if __name__ == "__main__":
    main(sys.argv[1:])
