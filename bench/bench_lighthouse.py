"""Lighthouse (mobile) over the web table: `python -m bench.bench_lighthouse [--runs N]`.

Lighthouse 12.2.3 is pinned in bench/lighthouse/package-lock.json and installed beforehand with
`npm ci --prefix bench/lighthouse` (nothing is downloaded here); it drives Debian's chromium
(CHROME_PATH, default /usr/bin/chromium) headless, with --no-sandbox when run as root. Pages: each
of the five games' seat page mid-game (the seat on turn), a spectator page and a finished match's
replay, over a served table on a local port. Printed per page: accessibility, best practices,
performance and SEO (the median of `--runs` runs), then the audits under 1 that cost points.
Goals (issue 26): accessibility, best practices and performance at least 95 on every page."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from bench.bench_rummikub import machine
from bench.bench_web import Served, serving
from bot.core.presenter.games import turn_of
from tests.web.browser import played

LIGHTHOUSE = Path(__file__).with_name("lighthouse") / "node_modules" / ".bin" / "lighthouse"
CATEGORIES = ("accessibility", "best-practices", "performance", "seo")
GOAL = 95
# The moves each game is played before it is measured: melds and a market on the table.
MOVES = {"rummikub": 10, "rummy101": 8, "rummy500": 14, "canasta": 16, "three_thirteen": 3}
TIMEOUT_S = 240.0


def load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def lighthouse(url: str, chrome: str) -> dict:
    flags = "--headless=new --disable-gpu --disable-dev-shm-usage" + (" --no-sandbox" if os.geteuid() == 0 else "")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        cmd = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}", f"--chrome-flags={flags}",
               "--only-categories=" + ",".join(CATEGORIES), "--form-factor=mobile", "--max-wait-for-load=20000"]
        env = {**os.environ, "CHROME_PATH": chrome}
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=TIMEOUT_S, check=False)
        if done.returncode != 0 or not out.exists():
            raise RuntimeError(f"lighthouse failed ({done.returncode}) on {url}: {done.stderr.strip()[-400:]}")
        return json.loads(out.read_text())


def losses(report: dict) -> list[str]:
    """The audits that cost a category points: weighted, scored under 1."""
    out = []
    for key in CATEGORIES:
        for ref in report["categories"][key]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] > 0 and audit.get("score") is not None and audit["score"] < 1:
                out.append(f"{key}: {ref['id']} ({audit['score']:.2f}) {audit.get('displayValue', '')}".rstrip()
                           + "".join(f"\n        {where}" for where in _where(audit)))
    return out


def _where(audit: dict) -> list[str]:
    """The first few elements an audit names (its details' nodes), so a loss can be found on the page."""
    items = (audit.get("details") or {}).get("items") or []
    out = []
    for item in items[:3]:
        node = item.get("node") or {}
        out.append(node.get("selector") or node.get("snippet") or item.get("url") or "")
    return [w[:120] for w in out if w]


async def pages(served: Served) -> list[tuple[str, str]]:
    """(name, url) of each page measured."""
    # First the finished match (its chat is then free for the Rummikub table in play).
    ended = await played(served.service, "rummikub", 600, seed=3)
    out = []
    spectated = None
    for game, moves in MOVES.items():
        rec = await played(served.service, game, moves)
        seat = turn_of(rec)
        out.append((f"{game} seat", served.url(rec.id, seat if seat in (0, 1) else 0)))
        spectated = spectated or rec.id
    assert spectated is not None
    out.append(("spectator", served.url(spectated, None)))
    out.append(("replay", served.url(ended.id, 0, path="replay")))
    return out


def measure(urls: list[tuple[str, str]], runs: int, chrome: str) -> bool:
    met = True
    print(f"{'page':<22}" + "".join(f"{c:>16}" for c in CATEGORIES))
    for name, url in urls:
        scores: dict[str, list[float]] = {c: [] for c in CATEGORIES}
        lost: set[str] = set()
        for _ in range(runs):
            report = lighthouse(url, chrome)
            for c in CATEGORIES:
                scores[c].append(100 * (report["categories"][c]["score"] or 0))
            lost.update(losses(report))
        median = {c: statistics.median(v) for c, v in scores.items()}
        met &= all(median[c] >= GOAL for c in ("accessibility", "best-practices", "performance"))
        print(f"{name:<22}" + "".join(f"{median[c]:>16.0f}" for c in CATEGORIES))
        for line in sorted(lost):
            print(f"    {line}")
    return met


async def main_async(runs: int, chrome: str) -> bool:
    async with serving() as served:
        urls = await pages(served)
        # Lighthouse runs in a process of its own; the server keeps answering on this loop meanwhile.
        return await asyncio.to_thread(measure, urls, runs, chrome)


def main(argv: Sequence[str] = ()) -> None:
    runs = int(argv[argv.index("--runs") + 1]) if "--runs" in argv else 1
    chrome = os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    if not LIGHTHOUSE.exists():
        print("bench_lighthouse: Lighthouse is not installed: run `npm ci --prefix bench/lighthouse`")
        return
    print(f"== Lighthouse 12.2.3, mobile, {runs} run(s) per page, median | {machine()} | load {load()}")
    met = asyncio.run(main_async(runs, chrome))
    print(f"   goals (a11y, best practices, performance >= {GOAL}): {'met' if met else 'NOT met'} | load {load()}")


if __name__ == "__main__":
    main(sys.argv[1:])
