"""The terminal adapter: the same table service and rendering as the chat bots, in a terminal.

You play seat 1 against AI seats. Every accepted move is stored before it is shown, so quitting
(or killing the process) and running the same command again continues the game.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from bot.core.i18n import t
from bot.core.models import Outcome, Player, ServiceError
from bot.core.render import render_error, render_events, render_hand, render_help, render_table
from bot.core.service import TableService
from bot.core.stats import StatsError
from rules import IllegalAction, get_engine
from storage import TableRecord

PLATFORM = "console"
CHAT_ID = "terminal"
YOU = Player(PLATFORM, "you", "You")

Reader = Callable[[], Awaitable[str | None]]
Writer = Callable[[str], None]

_QUIT = {"quit", "exit", "q"}
STATS_WORDS = ("leaderboard", "stats", "teams", "team", "history", "rematch")


class ConsoleTable:
    def __init__(self, service: TableService, read: Reader, write: Writer, lang: str = "en") -> None:
        self.service = service
        self.read = read
        self.write = write
        self.lang = lang
        self.by_number = False

    async def open_or_resume(
        self,
        game: str,
        ai: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        new: bool = False,
        user: Player = YOU,
    ) -> TableRecord | None:
        """Resume the unfinished terminal game, or open a new table: you plus `ai` AI seats."""
        existing = await self.service.store.active_table_for_chat(PLATFORM, CHAT_ID)
        if existing is not None:
            if new or existing.status == "lobby":
                await self.service.end_table(existing.id, user, is_admin=True)
            elif existing.game != get_engine(game).name:
                self.write(t("console.other_game", self.lang, game=t(f"game.{existing.game}", self.lang),
                             name=existing.game))
                return None
            else:
                self.write(t("lobby.restored", self.lang))
                outcome = await self.service.resume(existing.id)
                self._show_events(outcome, user)
                return outcome.table
        rec = await self.service.open_table(game, PLATFORM, CHAT_ID, user, options=options, seed=seed)
        for _ in range(ai):
            rec = await self.service.add_ai(rec.id, user)
        outcome = await self.service.start(rec.id, user)
        self._show_events(outcome)
        return outcome.table

    async def run(self, rec: TableRecord, user: Player = YOU) -> int:
        """The read-act-show loop; returns an exit status."""
        self.write(t("console.welcome", self.lang))
        self._show(rec, user)
        while rec.status == "playing":
            line = await self.read()
            if line is None:
                self.write(t("console.bye", self.lang))
                return 0
            command = line.strip()
            lowered = command.lower()
            if not command:
                continue
            if lowered in _QUIT:
                self.write(t("console.bye", self.lang))
                return 0
            if lowered in ("help", "?"):
                self.write(render_help(rec.game, self.lang))
                self.write(t("console.extra_help", self.lang))
                self.write(t("stats.console_help", self.lang))
                continue
            if lowered in ("table", "hand", "rack"):
                self._show(rec, user)
                continue
            if lowered == "sort":
                self.by_number = not self.by_number
                self._show(rec, user)
                continue
            if lowered.split()[0].lstrip("/") in STATS_WORDS:
                await self.stats_command(command, user)
                continue
            for due in await self.service.tick():
                self._show_events(due, user)
            try:
                outcome = await self.service.act(rec.id, user, command)
            except (IllegalAction, ServiceError) as err:
                self.write(render_error(err, self.lang, rec.game))
                rec = await self.service.get(rec.id)
                continue
            self._show_events(outcome, user)
            rec = outcome.table
            # A draft step's note already shows the melds it changed and the rack: the whole table
            # and draft again would bury it (the full view stays one `table` away).
            if not outcome.events or any(e.type != "DraftChanged" for e in outcome.events):
                self._show(rec, user)
        return 0

    async def stats_command(self, line: str, user: Player = YOU) -> TableRecord | None:
        """`leaderboard [game] [all|month|week]`, `stats [player]`, `teams [game]`, `team name <name>`,
        `history [n]`, `rematch` (returns the new table, started)."""
        word, *args = line.strip().lstrip("/").split()
        standings = self.service.standings
        try:
            if word == "leaderboard":
                self.write(await standings.leaderboard(PLATFORM, CHAT_ID, args, self.lang))
            elif word == "stats":
                self.write(await standings.stats(PLATFORM, CHAT_ID, user, args, self.lang))
            elif word == "teams":
                self.write(await standings.teams(PLATFORM, CHAT_ID, args, self.lang))
            elif word == "team":
                self.write(await standings.name_team(PLATFORM, CHAT_ID, user, args, self.lang))
            elif word == "history":
                self.write(await standings.history(PLATFORM, CHAT_ID, args, self.lang))
            elif word == "rematch":
                rec = await self.service.rematch(PLATFORM, CHAT_ID, user)
                outcome = await self.service.start(rec.id, user)
                self.write(t("stats.rematch_opened", self.lang))
                self._show_events(outcome, user)
                return outcome.table
        except StatsError as err:
            self.write(err.render(self.lang))
        except ServiceError as err:
            self.write(render_error(err, self.lang))
        return None

    def _seat(self, rec: TableRecord, user: Player) -> int | None:
        return self.service.seat_of(rec, user)

    def _show_events(self, outcome: Outcome, user: Player = YOU) -> None:
        for line in render_events(outcome.table, outcome.events, self._seat(outcome.table, user), self.lang):
            self.write(line)

    def _show(self, rec: TableRecord, user: Player) -> None:
        if rec.state is None:
            return
        engine = get_engine(rec.game)
        seat = self._seat(rec, user)
        self.write(render_table(rec, engine.view(rec.state, None), self.lang, now=self.service.clock.now()))
        if seat is not None and rec.status == "playing":
            self.write(render_hand(rec, engine.view(rec.state, seat), self.lang, by_number=self.by_number))
