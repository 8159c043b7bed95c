"""Starting the full-screen table (`rummyclub run` / `play` in a terminal: bot/console/tui/mode.py)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from bot.console.seats import default_opponents
from bot.console.session import Request
from bot.console.tui.app import TableApp
from bot.console.tui.picker import Choice, option_defaults
from bot.console.tui.table import TuiTable
from bot.core.ai_seats import DEFAULT_LEVEL
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.stopping import on_stop_signals
from storage.feed import change_feed


def request_choice(request: Request) -> Choice:
    """`rummyclub play <game> …` as the picker's starting values."""
    ai = default_opponents(request.game) if request.ai is None else request.ai
    level = request.ai_levels[0] if request.ai_levels else DEFAULT_LEVEL
    return Choice(request.game, ai, level, {**option_defaults(request.game), **request.options}, seed=request.seed)


async def play_full_screen(service: TableService, lang: str, request: Request | None, tick_s: float,
                           replay_url: Callable[[str], str] | None = None, said: tuple[str, ...] = ()) -> int:
    """The full-screen session on `service`. With a request (`play`): its game at once when nothing
    is unfinished (or `--new`); the unfinished game when it is that game set up that way; else the
    picker with the request's choices, the unfinished game kept until Play."""
    table = TuiTable(service, lambda text: None, lang, replay_url=replay_url)
    choice = request_choice(request) if request is not None else None
    app = TableApp(table, service.clock, feed=change_feed(service.store), choice=choice, said=said)
    if request is not None:
        existing = await table.unfinished()
        if existing is None or request.new:
            app.start_at_once = True
        elif existing.game == request.game and not request.options and request.ai is None and not request.ai_levels:
            app.choice = None  # resume it
    clock = Scheduler(service, tick_s, app.clock_outcomes)
    with on_stop_signals(lambda sig: app.exit(0)):
        clock.start()
        try:
            code = await app.run_async()
        finally:
            with contextlib.suppress(Exception):
                await clock.stop(1.0)
    return code or 0
