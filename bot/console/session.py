"""A terminal session from the first prompt to quitting: pick a game, choose opponents, resume or
replace an unfinished game, play, and at the match's end a menu (rematch, another game, standings,
quit). `quit`, `help` and the standings commands answer at every prompt; end of input and Ctrl-C
(the reader returns None for both) quit at once — every accepted move is already stored.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.console.app import CHAT_ID, HELP_WORDS, PLATFORM, QUIT_WORDS, STATS_WORDS, YOU, ConsoleTable, first_word
from bot.console.guide import guide_reply
from bot.console.seats import default_opponents, opponents_hint, opponents_range, seat_levels
from bot.core.ai_seats import DEFAULT_LEVEL, LEVELS
from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.presenter.games import games as game_names
from bot.core.presenter.games import read_options
from bot.core.render import render_error
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from storage import TableRecord

MENU = ("rematch", "game", "standings", "quit")
MENU_WORDS = {"rematch": "rematch", "again": "rematch", "game": "game", "another": "game", "new": "game",
              "standings": "standings", "quit": "quit", "exit": "quit", "q": "quit",
              "реванш": "rematch", "игра": "game", "рейтинг": "standings", "выход": "quit"}


@dataclass
class Request:
    """What `rummyclub play` asked for. `ai` and `options` are only what was typed (None / {}:
    not asked), so resuming is silent unless the typed choice differs from the unfinished game."""

    game: str
    ai: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    new: bool = False
    ai_levels: list[str] = field(default_factory=list)  # `--ai-level`, checked (bot/console/seats.py)


class Session:
    def __init__(self, service: TableService, table: ConsoleTable, user: Player = YOU,
                 clock: Scheduler | None = None) -> None:
        self.service = service
        self.table = table
        self.user = user
        self.lang = table.lang
        # The table's clock, started once a table is open or resumed (its renders follow the table's).
        self.clock = clock

    def write(self, text: str) -> None:
        self.table.write(text)

    def bye(self) -> int:
        self.write(t("console.bye", self.lang))
        return 0

    async def ask(self, help_text: Callable[[], str], game: str | None = None) -> str | None:
        """One answer to a question: None for quit, end of input or Ctrl-C; `help` and the standings
        commands are answered here and the question waits on."""
        while True:
            line = await self.table.read()
            if line is None:
                return None
            answer = line.strip()
            word = first_word(answer)
            if word in QUIT_WORDS and len(answer.split()) == 1:
                return None
            if (guide := guide_reply(answer, game, self.lang)) is not None:  # `rules canasta` anywhere
                self.write(guide)
            elif word in HELP_WORDS:
                self.write(help_text())
            elif word in STATS_WORDS and word != "rematch":
                await self.table.stats_command(answer, self.user, game=game)
            else:
                return answer

    # ---- the whole session -----------------------------------------------------------------------

    async def run(self, request: Request | None = None) -> int:
        """`rummyclub run` (no request: resume the unfinished game, or the picker) or `rummyclub play`."""
        self.table.welcome()
        existing = await self.service.store.active_table_for_chat(PLATFORM, CHAT_ID)
        if existing is not None and existing.status != "playing":
            await self.service.end_table(existing.id, self.user, is_admin=True)  # a stale lobby
            existing = None
        rec: TableRecord | None
        if request is None:
            rec = await self.table.resume(existing, self.user) if existing else await self.new_game()
        else:
            try:
                rec = await self.open(request, existing)
            except ServiceError as err:  # a bad option: say which and stop
                self.write(render_error(err, self.lang))
                return 2
        while rec is not None:
            if self.clock is not None:
                self.clock.start()
            finished = await self.table.play(rec, self.user)
            if finished is None:
                return 0  # the table said goodbye
            rec = await self.end_menu(finished)
        return self.bye()

    async def open(self, request: Request, existing: TableRecord | None) -> TableRecord | None:
        """The table `rummyclub play` asked for: the unfinished one when it matches (or you choose
        to resume it), else a new one. None: you quit at the question."""
        # The terminal has no one to wait for: the turn timer is off unless asked for.
        options = {"turn_timer_s": 0, **request.options}
        read_options(request.game, options)  # a bad option is refused before anything is asked
        ai = default_opponents(request.game) if request.ai is None else request.ai
        if existing is not None and not request.new:
            question = self._differences(existing, request)
            if question is None:
                return await self.table.resume(existing, self.user)
            self.write(question)
            while True:
                answer = await self.ask(lambda: t("console.resume_help", self.lang))
                if answer is None:
                    return None
                choice = answer.lower() or "resume"
                if choice in ("resume", "r", "continue"):
                    return await self.table.resume(existing, self.user)
                if choice in ("new", "n", "replace"):
                    break
                self.write(t("console.resume_bad", self.lang, got=answer))
        if existing is not None:
            await self.service.end_table(existing.id, self.user, is_admin=True)
            self.write(t("console.replaced", self.lang, game=t(f"game.{existing.game}", self.lang)))
        return await self.table.open_new(request.game, ai, options, request.seed, self.user, request.ai_levels)

    def _differences(self, existing: TableRecord, request: Request) -> str | None:
        """The question to ask before resuming, or None when the unfinished game is what was asked."""
        old_name = t(f"game.{existing.game}", self.lang)
        new_name = t(f"game.{request.game}", self.lang)
        if existing.game != request.game:
            return t("console.resume_other", self.lang, old=old_name, new=new_name)
        # Read through the model, so an option added since the game began (hints) is its default, not a change.
        current = read_options(request.game, existing.options)
        wanted = read_options(request.game, {**existing.options, **request.options})
        changes = [t("console.change_option", self.lang, option=key, old=_shown(current.get(key)),
                     new=_shown(value))
                   for key, value in wanted.items() if current.get(key) != value]
        ai_seats = [s for s in existing.seats if s.kind == "ai"]
        if request.ai is not None and request.ai != len(ai_seats):
            changes.append(t("console.change_ai", self.lang, old=len(ai_seats), new=request.ai))
        elif request.ai_levels:
            old_levels = [s.level for s in ai_seats]
            new_levels = seat_levels(len(ai_seats), request.ai_levels)
            if old_levels != new_levels:
                changes.append(t("console.change_levels", self.lang, old=self._levels_text(old_levels),
                                 new=self._levels_text(new_levels)))
        if not changes:
            return None
        return t("console.resume_changed", self.lang, game=new_name, changes="; ".join(changes))

    def _levels_text(self, levels: Sequence[str]) -> str:
        return ", ".join(t(f"level.{level}", self.lang) for level in levels)

    # ---- picking a game --------------------------------------------------------------------------

    async def new_game(self) -> TableRecord | None:
        """The picker, then the opponents question; None when you quit (or a rematch was chosen)."""
        game = await self.pick_game()
        if game is None:
            return None
        if isinstance(game, TableRecord):  # `rematch` typed at the picker
            return game
        ai = await self.ask_opponents(game)
        if ai is None:
            return None
        level = await self.ask_level(game)
        if level is None:
            return None
        return await self.table.open_new(game, ai, {"turn_timer_s": 0}, None, self.user, [level])

    async def pick_game(self) -> str | TableRecord | None:
        games = game_names()
        listed = ", ".join(f"{i + 1}. {t(f'game.{g}', self.lang)} ({g})" for i, g in enumerate(games))
        self.write(t("console.pick_game", self.lang, games=listed))
        while True:
            answer = await self.ask(lambda: t("console.picker_help", self.lang, games=listed))
            if answer is None:
                return None
            choice = answer.lower() or "1"
            if first_word(choice) == "rematch":
                rec = await self.table.rematch(self.user)
                if rec is not None:
                    return rec
                continue
            if choice.isdigit() and 1 <= int(choice) <= len(games):
                return games[int(choice) - 1]
            if choice in games:
                return choice
            self.write(t("console.unknown_game", self.lang, game=answer, last=len(games), games=", ".join(games)))

    async def ask_opponents(self, game: str) -> int | None:
        lo, hi = opponents_range(game)
        default = default_opponents(game)
        name = t(f"game.{game}", self.lang)
        if lo == hi:
            self.write(t(f"console.opponents_fixed.{game}", self.lang, game=name, ai=hi))
            return hi
        self.write(t("console.opponents", self.lang, game=name, lo=lo, hi=hi, default=default))
        if (hint := opponents_hint(game, self.lang)) is not None:
            self.write(hint)
        while True:
            answer = await self.ask(lambda: t("console.opponents_help", self.lang, lo=lo, hi=hi, default=default),
                                    game=game)
            if answer is None:
                return None
            if not answer:
                return default
            if answer.isdigit() and lo <= int(answer) <= hi:
                return int(answer)
            self.write(t("console.opponents_bad", self.lang, got=answer, lo=lo, hi=hi, default=default))

    async def ask_level(self, game: str) -> str | None:
        """How the AI opponents play (`--ai-level` of `rummyclub play`): a level by number, by its
        name in either language, or Enter for the default. None: you quit."""
        names = [(level, t(f"level.{level}", self.lang)) for level in LEVELS]
        listed = ", ".join(f"{i + 1}. {name}" for i, (_, name) in enumerate(names))
        default = t(f"level.{DEFAULT_LEVEL}", self.lang)
        self.write(t("console.level", self.lang, levels=listed, default=default))
        while True:
            answer = await self.ask(lambda: t("console.level_help", self.lang, levels=listed, default=default),
                                    game=game)
            if answer is None:
                return None
            word = answer.casefold()
            if not word:
                return DEFAULT_LEVEL
            if word.isdigit() and 1 <= int(word) <= len(LEVELS):
                return LEVELS[int(word) - 1]
            for level, name in names:
                if word in (level, name.casefold()):
                    return level
            self.write(t("console.level_bad", self.lang, got=answer, levels=listed, default=default))

    # ---- the match's end -------------------------------------------------------------------------

    async def end_menu(self, finished: TableRecord) -> TableRecord | None:
        """Rematch, another game, standings, quit (also by number). None: quit."""
        game = finished.game
        self.write(t("console.menu", self.lang))
        while True:
            answer = await self.ask(lambda: t("console.menu_help", self.lang), game=game)
            if answer is None:
                return None
            word = first_word(answer)
            choice = MENU[int(word) - 1] if word.isdigit() and 1 <= int(word) <= len(MENU) else MENU_WORDS.get(word)
            if choice == "quit":
                return None
            if choice == "rematch":
                rec = await self.table.rematch(self.user)
                if rec is not None:
                    return rec
            elif choice == "game":
                return await self.new_game()
            elif choice == "standings":
                await self.table.stats_command("leaderboard", self.user, game=game)
                await self.table.stats_command("history 3", self.user)
                self.write(t("console.menu_short", self.lang))
            elif word in ("table", "hand"):
                self.table.show_final(finished, self.user)
                self.write(t("console.menu_short", self.lang))
            else:
                self.write(t("console.menu_bad", self.lang, got=answer))


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
