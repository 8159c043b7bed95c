"""The full-screen terminal table (bot/console/tui), headless: `python -m bench.bench_tui [--tui-matches N]
[--tui-size 80x24]`. Figures only, never assertions.

Per game, a short match (one round or a low target, AI opponents) where your seat makes the move
the game's AI would make, entered by the fewest keys the screen offers (bot/console/tui/keys.py:
the hand pane's letters and digits, else the command typed with Tab completion). Printed:

- keys per move: median and p95 over your moves;
- by buttons: the share of moves the hand pane's keys make (the rest are typed);
- redraw after a move: the first `TableApp.redraw` of each new table version (every pane built anew
  from the stored table: nothing of the version before is reused), then Textual's next frame run at
  once (the layout when a pane's height changed, what changed painted, the terminal's bytes
  rendered), median and p95 — the goal is p95 ≤ 50 ms on this 2-core machine; beside it, the whole
  screen laid out and painted (an upper bound: a move never changes every pane);
- suggestions: the engine's suggested moves searched in a thread after that redraw (the hand is
  drawn again with them; the screen never waits for them), median and p95.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from rich.console import Console
from textual._compositor import CompositorUpdate

from bench.bench_rummikub import machine, percentile
from bot.console.tui.app import TableApp
from bot.console.tui.keys import button_keys, keys_for
from bot.console.tui.picker import Choice
from bot.console.tui.table import TuiTable
from bot.core.clock import FakeClock
from bot.core.presenter.games import moves_of, view_of
from bot.core.service import TableService
from rules import get_engine
from storage import MemoryStore

SHORT: dict[str, dict[str, Any]] = {
    "rummikub": {"initial_meld_min": 0},
    "rummy101": {"match_rounds": 1},
    "rummy500": {"target_score": 100, "hand_size": 7},
    "canasta": {"match_length": "1 round"},
    "three_thirteen": {"rounds": 1},
}
OPPONENTS = {"rummikub": 1, "rummy101": 1, "rummy500": 1, "canasta": 3, "three_thirteen": 1}


def _ai_move(game: str, state: Any, log_seq: int, seat: int) -> str:
    engine = get_engine(game)
    return engine.format(engine.ai_action(state, seat, random.Random(log_seq)))


async def _settle(pilot: Any, app: TableApp) -> None:
    for _ in range(500):
        await pilot.pause()
        if not app.table.busy.locked() and not app.workers._workers and app.shown is not None:  # noqa: SLF001
            return


async def _match(game: str, seed: int, size: tuple[int, int]
                 ) -> tuple[list[int], int, list[float], list[float], list[float], list[float]]:
    store = MemoryStore()
    await store.open()
    clock = FakeClock()
    table = TuiTable(TableService(store, clock), lambda text: None)
    app = TableApp(table, clock, choice=Choice(game, OPPONENTS[game], "normal",
                                               {"turn_timer_s": 0, **SHORT[game]}, seed=seed),
                   status_every_s=None)
    app.start_at_once = True
    keys_per_move: list[int] = []
    by_buttons = 0
    redraws: list[float] = []
    builds, cpus, searches = _timed(app)
    paints: list[float] = []
    cpu: list[float] = []
    try:
        async with app.run_test(size=size) as pilot:
            await _settle(pilot, app)
            for _ in range(2000):
                rec, shown = app.table.rec, app.shown
                if rec is None or rec.status != "playing" or shown is None or rec.state is None:
                    break
                seat = app.table.seat
                assert seat is not None
                command = _ai_move(game, rec.state, rec.log_seq, seat)
                templates = moves_of(rec, view_of(rec, seat))
                keys = keys_for(shown.hand, shown.order, templates, command, "en", app.suggester.complete_now)
                if shown.hand is not None and keys == button_keys(shown.hand, shown.order, templates, command, "en"):
                    by_buttons += 1
                keys_per_move.append(len(keys))
                builds.clear()
                cpus.clear()
                await pilot.press(*keys)
                await _settle(pilot, app)
                if builds:
                    redraws.append(builds[0])
                    cpu.append(cpus[0])
                    paints.append(_paint_time(app))
    finally:
        await store.close()
    return keys_per_move, by_buttons, redraws, searches, paints, cpu


def _timed(app: TableApp) -> tuple[list[float], list[float], list[float]]:
    """The duration of each redraw of a table version not drawn before (the redraw after a move),
    the processor time the screen's thread spent on it, and the duration of each suggestion search."""
    builds: list[float] = []
    cpus: list[float] = []
    searches: list[float] = []
    drawn: set[tuple[str, int]] = set()
    redraw, search = app.redraw, app.table.suggestions.search

    async def timed_redraw() -> None:
        rec = app.table.rec
        start, cpu = time.perf_counter(), time.thread_time()
        await redraw()
        key = (rec.id, rec.version) if rec is not None else None
        if key is not None and key not in drawn:
            drawn.add(key)
            built = time.perf_counter() - start
            builds.append(built + _repaint_time(app))
            cpus.append(time.thread_time() - cpu)

    async def timed_search(hand: Any) -> bool:
        start = time.perf_counter()
        found = await search(hand)
        searches.append(time.perf_counter() - start)
        return found

    app.redraw = timed_redraw  # type: ignore[method-assign]
    app.table.suggestions.search = timed_search  # type: ignore[method-assign]
    return builds, cpus, searches


def _repaint_time(app: TableApp) -> float:
    """Textual's next frame, run at once instead of at its frame timer: the layout again when a
    pane's height changed, the regions that changed painted, and the update turned into the bytes a
    terminal gets (the headless driver writes nothing, so they are rendered here as `App._display`
    renders them for a terminal)."""
    def display(screen: Any, renderable: Any) -> None:
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(app.console)

    start = time.perf_counter()
    shown, app._display = app._display, display  # type: ignore[method-assign]  # noqa: SLF001
    try:
        app.screen._on_timer_update()  # noqa: SLF001
    finally:
        app._display = shown  # type: ignore[method-assign]  # noqa: SLF001
    return time.perf_counter() - start


def _paint_time(app: TableApp) -> float:
    """The screen laid out and painted whole into a buffer (an upper bound of what a move repaints:
    Textual paints only the regions that changed), without the frame timer's wait that a pilot
    pause adds."""
    start = time.perf_counter()
    screen = app.screen
    screen._refresh_layout(app.size)  # noqa: SLF001
    console = Console(width=app.size[0], height=app.size[1], file=io.StringIO(), force_terminal=True,
                      color_system="truecolor", legacy_windows=False)
    console.print(screen._compositor.render_update(full=True))  # noqa: SLF001
    return time.perf_counter() - start


def _size(text: str) -> tuple[int, int]:
    w, _, h = text.partition("x")
    return int(w), int(h)


async def _run(games: Sequence[str], matches: int, size: tuple[int, int]) -> None:
    print(f"== bench_tui: {matches} short match(es) per game at {size[0]}x{size[1]}, your seat by keys "
          f"(the AI's move each turn) | {machine()} | load {os.getloadavg()[0]:.2f}")
    for game in games:
        keys: list[int] = []
        buttons = 0
        redraws: list[float] = []
        searches: list[float] = []
        paints: list[float] = []
        cpu: list[float] = []
        for n in range(matches):
            k, b, r, s, p, c = await _match(game, 100 + n, size)
            cpu += c
            keys += k
            buttons += b
            redraws += r
            searches += s
            paints += p
        if not keys:
            print(f"  {game:15s} no moves")
            continue
        ms = [x * 1000 for x in redraws]
        found = [x * 1000 for x in searches] or [0.0]
        full = [x * 1000 for x in paints]
        own = [x * 1000 for x in cpu]
        print(f"  {game:15s} moves {len(keys):4d} · keys/move median {statistics.median(keys):.0f} "
              f"p95 {percentile(keys, 0.95):.0f} · by buttons {100 * buttons / len(keys):.0f}% · "
              f"redraw median {statistics.median(ms):.1f} ms p95 {percentile(ms, 0.95):.1f} ms "
              f"(goal p95 ≤ 50 ms; processor time median {statistics.median(own):.1f} p95 {percentile(own, 0.95):.1f} ms; "
              f"the whole screen laid out and painted: median {statistics.median(full):.1f} "
              f"p95 {percentile(full, 0.95):.1f} ms) · suggestions after it median {statistics.median(found):.0f} ms "
              f"p95 {percentile(found, 0.95):.0f} ms | load {os.getloadavg()[0]:.2f}")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_tui", description=__doc__)
    parser.add_argument("--tui-matches", type=int, default=1)
    parser.add_argument("--tui-size", type=_size, default=(80, 24))
    parser.add_argument("--tui-games", default=",".join(SHORT))
    args, _ = parser.parse_known_args(argv)
    asyncio.run(_run(args.tui_games.split(","), args.tui_matches, args.tui_size))


if __name__ == "__main__":
    main(sys.argv[1:])
