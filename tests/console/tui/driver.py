"""Driving the full-screen table headless (Textual's pilot): an app on a store with an injected
clock, the screen as text (what a snapshot compares), and a match played to its end by keys alone —
each move the game's AI would make for seat 1, entered by the fewest keys (bot/console/tui/keys.py)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog

from bot.console.tui.app import TableApp
from bot.console.tui.keys import keys_for
from bot.console.tui.picker import Choice
from bot.console.tui.table import TuiTable
from bot.core.clock import FakeClock
from bot.core.presenter.games import moves_of, view_of
from bot.core.service import TableService
from storage import Store
from tests.console.driver import ai_move

# Options that make a whole match short (one round, a low target) — AI opponents play the rest.
SHORT: dict[str, dict[str, Any]] = {
    "rummikub": {"initial_meld_min": 0},
    "rummy101": {"match_rounds": 1},
    "rummy500": {"target_score": 100, "hand_size": 7},
    "canasta": {"match_length": "1 round"},
    "three_thirteen": {"rounds": 1},
}
OPPONENTS = {"rummikub": 1, "rummy101": 1, "rummy500": 1, "canasta": 3, "three_thirteen": 1}


def new_app(store: Store, game: str, seed: int = 1, lang: str = "en", clock: FakeClock | None = None,
            options: dict[str, Any] | None = None) -> TableApp:
    clock = clock or FakeClock()
    service = TableService(store, clock)
    table = TuiTable(service, lambda text: None, lang)
    choice = Choice(game, OPPONENTS[game], "normal", {"turn_timer_s": 0, **SHORT[game], **(options or {})}, lang,
                    seed=seed)
    app = TableApp(table, clock, choice=choice, status_every_s=None)
    app.start_at_once = True
    return app


def log_text(app: TableApp) -> str:
    """The log pane's words, on one line."""
    return " ".join(" ".join(strip.text for strip in app.query_one("#log", RichLog).lines).split())


def screen_text(app: TableApp) -> str:
    """The screen as plain text, cell for cell (the snapshot the tests compare)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system=None,
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens,  # noqa: SLF001
                                                       simplify=True))
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


async def settle(pilot: Pilot[Any], app: TableApp) -> None:
    """Until the table is idle: the move and the AI's answers stored and drawn."""
    for _ in range(200):
        await pilot.pause()
        if not app.table.busy.locked() and not app.workers._workers and app.shown is not None:  # noqa: SLF001
            return
    raise AssertionError("the table never became idle")


def planned_keys(app: TableApp) -> list[str]:
    """The keys of the AI's move for your seat on the table shown now."""
    shown, rec = app.shown, app.table.rec
    assert shown is not None and rec is not None and rec.state is not None
    command = ai_move(rec.game, rec.state, rec.log_seq)
    view = view_of(rec, app.table.seat)
    return keys_for(shown.hand, shown.order, moves_of(rec, view), command, app.table.lang,
                    app.suggester.complete_now)


async def play_to_end(pilot: Pilot[Any], app: TableApp, limit: int = 600) -> list[int]:
    """Your seat played by keys until the match ends; the keys pressed for each move."""
    await settle(pilot, app)
    counts = []
    for _ in range(limit):
        rec = app.table.rec
        assert rec is not None
        if rec.status != "playing":
            return counts
        before = rec.version
        keys = planned_keys(app)
        await pilot.press(*keys)
        await settle(pilot, app)
        after = app.table.rec
        assert after is not None and after.version > before, (keys, screen_text(app))
        counts.append(len(keys))
    raise AssertionError(f"the match did not end in {limit} moves")
