"""The terminal adapter: the same table service and rendering as the chat bots, in a terminal.

You play seat 1 against AI seats. Every accepted move is stored before it is shown, so quitting
(or killing the process) and running the same command again continues the game. This module plays
one table; `session.py` around it picks games, asks questions and offers the match-end menu.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from bot.console.guide import guide_reply
from bot.console.seats import seat_levels
from bot.core.codec import CodecError
from bot.core.hints import table_hint
from bot.core.i18n import t
from bot.core.models import Outcome, Player, ServiceError, StoreUnavailable
from bot.core.presenter import HandUIs, Presenter, TablePanel, Updates
from bot.core.presenter.games import Event, IllegalAction, MoveTemplate, canonical, moves_of, view_of
from bot.core.presenter.prompt import prompt_line, typed_moves
from bot.core.presses import Command, MoveTo, NotYours, Played, Press, Presser, Shown, Suggest
from bot.core.render import render_error, render_help
from bot.core.service import TableService
from bot.core.stats import StatsError, parse_board_args
from bot.core.text import clean
from storage import TableRecord

PLATFORM = "console"
CHAT_ID = "terminal"
YOU = Player(PLATFORM, "you", "You")
# The claim owner (bot/core/clockwork.py) of every terminal process. The terminal's table is one
# person's, played by one terminal at a time, so a claim a terminal left behind (killed while the
# AI answered) belongs to the next one started: it plays those moves at once instead of waiting out
# the lease of a process that is gone. Two terminals on one database at once would share the
# claim; the stored version still applies every move once.
TERMINAL_OWNER = "console:terminal"

Reader = Callable[[], Awaitable[str | None]]
Writer = Callable[[str], None]
Prompt = Callable[[str], None]  # the legal moves to show with the next prompt ("" for none)

QUIT_WORDS = frozenset({"quit", "exit", "q"})
HELP_WORDS = frozenset({"help", "?"})
STATS_WORDS = ("leaderboard", "stats", "teams", "team", "history", "rematch")
# The private "you drew X" events; the hand view repeats the card as `drawn` while the turn goes on.
# `sort colour` / `sort number` (either language): True for the rack by number.
SORT_WORDS = {"colour": False, "color": False, "suit": False, "number": True, "rank": True,
              "цвет": False, "масть": False, "число": True, "номер": True}
RECEIVED = frozenset({"CardsReceived", "CardReceived", "TileReceived", "TilesReceived"})
PLAYED_PRESSES = (Command, MoveTo, Suggest)  # presses that send a move (the others change the screen)


@dataclass(frozen=True)
class Applied:
    """A move sent: the table as it now stands, and when it was accepted its outcome and updates."""

    table: TableRecord
    outcome: Outcome | None = None
    updates: Updates | None = None


def first_word(line: str) -> str:
    words = line.strip().lower().split()
    return words[0].lstrip("/") if words else ""


class ConsoleTable:
    def __init__(self, service: TableService, read: Reader, write: Writer, lang: str = "en",
                 prompt: Prompt | None = None, replay_url: Callable[[str], str] | None = None) -> None:
        self.service = service
        # With the web table on (`--web`): a finished match's replay address, listed by `history`.
        self.replay_url = replay_url
        self._read = read
        self._prompt = prompt
        # Everything shown passes through clean(): an error quoting what was typed must not carry
        # escape sequences that move the cursor, retitle or clear the terminal.
        self.write: Writer = lambda text: write(clean(text, newlines=True))
        self.lang = lang
        self.uis = HandUIs(service.store)
        self.presenter = Presenter(self.uis)
        self.by_number = False  # the rack order of this session, carried to every new table
        self.welcomed = False
        self._drawn_shown: str | None = None  # the drawn card the hand has already named this turn
        # (table, version, your view, its legal moves) last shown: the prompt's moves come from them.
        self._view: tuple[str, int, dict[str, Any], list[MoveTemplate]] | None = None
        self._clocked: TableRecord | None = None  # the table as the clock last moved it (show_clock)

    async def read(self) -> str | None:
        """One line at a question (the picker, the menu): the prompt shows no moves there."""
        return await self._read()

    async def read_move(self, rec: TableRecord, user: Player) -> str | None:
        """One line at the table: the prompt shows the moves you can type now."""
        if self._prompt is None:
            return await self._read()
        self._prompt(clean(self.moves_line(rec, user)))
        try:
            return await self._read()
        finally:
            self._prompt("")

    def moves_line(self, rec: TableRecord, user: Player = YOU) -> str:
        """Your legal moves as one short line (bot/core/presenter/prompt.py); "" off your turn."""
        seat = self.service.seat_of(rec, user)
        if rec.state is None or rec.status != "playing" or seat is None:
            return ""
        if self._view is not None and self._view[:2] == (rec.id, rec.version):
            view, templates = self._view[2], self._view[3]
        else:
            view = view_of(rec, seat)
            templates = moves_of(rec, view)
        moves = typed_moves(rec.game, view, seat, templates, self.lang, hints=bool(rec.options.get("hints")))
        return prompt_line(moves)

    def welcome(self) -> None:
        """The first line of a session, before anything the table says (AI opening moves included)."""
        if not self.welcomed:
            self.welcomed = True
            self.write(t("console.welcome", self.lang))

    # ---- opening and resuming --------------------------------------------------------------------

    async def open_or_resume(
        self,
        game: str,
        ai: int,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        new: bool = False,
        user: Player = YOU,
    ) -> TableRecord | None:
        """Resume the unfinished terminal game, or open a new table: you plus `ai` AI seats.
        (The session asks first when the unfinished one is another game or set up differently.)"""
        self.welcome()
        existing = await self.service.store.active_table_for_chat(PLATFORM, CHAT_ID)
        if existing is not None:
            if new or existing.status == "lobby":
                await self.service.end_table(existing.id, user, is_admin=True)
            elif existing.game != canonical(game):
                self.write(t("console.other_game", self.lang, game=t(f"game.{existing.game}", self.lang),
                             name=existing.game))
                return None
            else:
                return await self.resume(existing, user)
        return await self.open_new(game, ai, options, seed, user)

    async def resume(self, existing: TableRecord, user: Player = YOU) -> TableRecord:
        self.write(t("lobby.restored", self.lang))
        outcome = await self.service.resume(existing.id)
        await self.show_events(outcome, user)
        return outcome.table

    async def open_new(self, game: str, ai: int, options: dict[str, Any] | None = None, seed: int | None = None,
                       user: Player = YOU, levels: Sequence[str] = (), topic_id: str | None = None) -> TableRecord:
        """A new table: you and `ai` AI seats at `levels` (bot/console/seats.seat_levels), started.
        `topic_id`: a place of the terminal's beside the first (the full screen keeps several games)."""
        rec = await self.service.open_table(game, PLATFORM, CHAT_ID, user, options=options, seed=seed,
                                            topic_id=topic_id)
        for level in seat_levels(ai, levels):
            rec = await self.service.add_ai(rec.id, user, level=level)
        outcome = await self.service.start(rec.id, user)
        await self._save_sort(outcome.table, user)  # the rack order you chose carries over
        await self.show_events(outcome, user)
        return outcome.table

    async def rematch(self, user: Player = YOU, topic_id: str | None = None) -> TableRecord | None:
        """The chat's last match again (of place `topic_id`): same seats and options, a new deal,
        started at once."""
        try:
            rec = await self.service.rematch(PLATFORM, CHAT_ID, user, topic_id=topic_id)
            outcome = await self.service.start(rec.id, user)
        except ServiceError as err:
            # The shared sentence for no table speaks of /new, which the terminal has no use for.
            self.write(t("console.no_rematch", self.lang) if err.code == "E_NO_TABLE" else render_error(err, self.lang))
            return None
        self.write(t("console.rematch", self.lang))
        await self._save_sort(outcome.table, user)
        await self.show_events(outcome, user)
        return outcome.table

    # ---- playing ---------------------------------------------------------------------------------

    async def run(self, rec: TableRecord, user: Player = YOU) -> int:
        """The read-act-show loop; returns an exit status."""
        await self.play(rec, user)
        return 0

    async def play(self, rec: TableRecord, user: Player = YOU) -> TableRecord | None:
        """Play until the match ends (returns the finished table) or you leave (returns None)."""
        self.welcome()
        await self._load_sort(rec, user)
        await self._show(rec, user)
        while rec.status == "playing":
            line = await self.read_move(rec, user)
            command = (line or "").strip()
            word = first_word(command)
            if line is None or word in QUIT_WORDS and len(command.split()) == 1:
                self.write(t("console.bye", self.lang))
                return None
            rec = self._latest(rec)
            if rec.status != "playing":
                return rec  # the clock ended the match while you typed
            if not command:
                continue
            if (guide := guide_reply(command, rec.game, self.lang)) is not None:
                self.write(guide)
            elif word in HELP_WORDS:
                self.write(render_help(rec.game, self.lang))
                self.write(t("console.extra_help", self.lang))
                self.write(t("stats.console_help", self.lang))
                self.write(t("guide.hint", self.lang))
            elif command.lower() in ("table", "hand", "rack"):
                await self._show(rec, user, again=True)
            elif word == "sort":
                if (problem := await self.sort(rec, user, command)) is not None:
                    self.write(problem)
                else:
                    await self._show(rec, user, again=True)
            elif word == "rematch":
                self.write(t("console.rematch_in_play", self.lang))
            elif command.lower() == "hint":
                await self.hint(rec, user)
            elif word in STATS_WORDS:
                await self.stats_command(command, user, game=rec.game)
            else:
                rec = await self._act(rec, user, command)
        return rec

    def _latest(self, rec: TableRecord) -> TableRecord:
        clocked = self._clocked
        return clocked if clocked is not None and clocked.id == rec.id and clocked.version > rec.version else rec

    @staticmethod
    def is_mine(rec: TableRecord) -> bool:
        return rec.platform == PLATFORM and rec.chat_id == CHAT_ID

    async def show_clock(self, outcomes: Sequence[Outcome], user: Player = YOU) -> None:
        """What the table's clock (bot/core/scheduler.py) did at the terminal's table — a turn timer's
        timeout and the AI's answers, or the moves a killed terminal left — shown as a move is."""
        for outcome in outcomes:
            rec = outcome.table
            if not self.is_mine(rec):
                continue
            self._clocked = rec
            updates = await self.show_events(outcome, user)
            if rec.status == "playing":
                await self._show(rec, user, outcome=outcome, panel=updates.table)
            if self._prompt is not None:
                self._prompt(clean(self.moves_line(rec, user)))  # "" once the match is over

    async def apply(self, rec: TableRecord, user: Player, command: str) -> Applied:
        """A move typed or pressed: what the clock owed first, then the move and the automatic moves
        answering it, every line of them written. A refusal is written and changes nothing: the
        table returned is then the stored one (the one last shown when the store is out of reach)."""
        try:
            for due in await self.service.tick():
                await self.show_events(due, user)
            outcome = await self.service.act(rec.id, user, command)
        except StoreUnavailable as err:  # nothing stored: said, and the table is the one last shown
            self.write(render_error(err, self.lang, rec.game))
            return Applied(rec)
        except (IllegalAction, ServiceError) as err:
            self.write(render_error(err, self.lang, rec.game))
            return Applied(await self.service.get(rec.id))
        return Applied(outcome.table, outcome, await self.show_events(outcome, user))

    async def press(self, rec: TableRecord, user: Player, pressed: Press) -> Applied:
        """A press on the hand (the full screen's keys and clicks), decoded by the service against
        the table as stored (bot/core/presses.py): a new hand screen (kept in `uis`, nothing else
        changes), or the move, written as `apply` writes it (what the clock owed first). A refusal is
        written and changes nothing; a press that no longer fits the hand (a key on a screen the
        table has moved past) changes nothing silently. The table returned is the stored one."""
        seat = self.service.seat_of(rec, user)
        try:
            if isinstance(pressed, PLAYED_PRESSES):
                for due in await self.service.tick():
                    await self.show_events(due, user)
        except StoreUnavailable as err:
            self.write(render_error(err, self.lang, rec.game))
            return Applied(rec)
        result = await self.service.press(rec.id, Presser(user, seat), pressed, self.uis, version=rec.version)
        if isinstance(result, Played):
            outcome = await result.outcome.settled()
            return Applied(outcome.table, outcome, await self.show_events(outcome, user))
        if isinstance(result, Shown | NotYours):
            return Applied(result.table)
        if not isinstance(result.error, CodecError):
            self.write(render_error(result.error, self.lang, rec.game))
        return Applied(result.table or rec)

    async def _act(self, rec: TableRecord, user: Player, command: str) -> TableRecord:
        applied = await self.apply(rec, user, command)
        outcome, updates = applied.outcome, applied.updates
        if outcome is None or updates is None:
            return applied.table
        # At the match's end the events just shown hold the last summary and the winner; the table
        # would print that summary a second time (`table` at the menu shows it). A draft step's note
        # already shows the melds it changed and the rack: the whole table and draft again would bury
        # it (the full view stays one `table` away).
        draft_step = bool(outcome.events) and all(e.type == "DraftChanged" for e in outcome.events)
        if outcome.table.status == "playing" and not draft_step:
            await self._show(outcome.table, user, outcome=outcome, panel=updates.table)
        return outcome.table

    async def hint(self, rec: TableRecord, user: Player) -> None:
        """`hint`: the best move as a command to type (bot/core/hints.py), or why there is none."""
        try:
            self.write((await table_hint(self.service, rec.id, user)).render(self.lang))
        except ServiceError as err:
            self.write(render_error(err, self.lang, rec.game))

    # ---- standings -------------------------------------------------------------------------------

    async def stats_command(self, line: str, user: Player = YOU, game: str | None = None) -> TableRecord | None:
        """`leaderboard [game] [all|month|week]`, `stats [player]`, `teams [game]`, `team name <name>`,
        `history [n]`, `rematch` (returns the new table, started). `game` is the one being played:
        the leaderboard shows it unless another is named."""
        word, *args = line.strip().lstrip("/").split()
        word = word.lower()
        standings = self.service.standings
        try:
            if word == "leaderboard":
                if game is not None and parse_board_args(args, self.lang).game is None:
                    args = [*args, game]
                self.write(await standings.leaderboard(PLATFORM, CHAT_ID, args, self.lang, me=user))
            elif word == "stats":
                self.write(await standings.stats(PLATFORM, CHAT_ID, user, args, self.lang))
            elif word == "teams":
                self.write(await standings.teams(PLATFORM, CHAT_ID, args, self.lang))
            elif word == "team":
                self.write(await standings.name_team(PLATFORM, CHAT_ID, user, args, self.lang))
            elif word == "history":
                self.write(await standings.history(PLATFORM, CHAT_ID, args, self.lang, self.replay_url))
            elif word == "rematch":
                return await self.rematch(user)
        except StatsError as err:
            self.write(err.render(self.lang))
        except ServiceError as err:
            self.write(render_error(err, self.lang))
        return None

    # ---- per-seat display choices ----------------------------------------------------------------

    async def sort(self, rec: TableRecord, user: Player, command: str) -> str | None:
        """`sort` flips the rack order, `sort colour` / `sort number` set it (kept with your seat);
        anything else after `sort` is answered with a sentence naming the two orders."""
        words = command.strip().lower().split()[1:]
        if not words:
            self.by_number = not self.by_number
        elif words[0] in SORT_WORDS and len(words) == 1:
            self.by_number = SORT_WORDS[words[0]]
        else:
            return t("console.sort_bad", self.lang, got=" ".join(words))
        await self._save_sort(rec, user)
        return None

    async def _load_sort(self, rec: TableRecord, user: Player) -> None:
        """The rack order stored with your seat (the hand screen every platform keeps, hand_ui.py)."""
        seat = self.service.seat_of(rec, user)
        if seat is not None:
            self.by_number = (await self.uis.get(rec.id, seat)).by_number

    async def _save_sort(self, rec: TableRecord, user: Player) -> None:
        seat = self.service.seat_of(rec, user)
        if seat is not None:
            # Read afresh: the seat's browser page (`--web`) keeps its picks in the same screen.
            self.uis.forget(rec.id)
            await self.uis.update(rec.id, seat, by_number=self.by_number)

    # ---- showing: the presenter's panels and lines, laid out one after another ------------------------

    async def _lang_of(self, seat: int | None) -> str:
        return self.lang

    def _private_view(self, rec: TableRecord, seat: int | None, outcome: Outcome | None = None) -> dict[str, Any] | None:
        if rec.state is None or seat is None or rec.status != "playing":
            return None
        if outcome is not None and seat in outcome.private_views:
            return outcome.private_views[seat]  # built once by the service for this very table
        return view_of(rec, seat)

    def _said_by_hand(self, event: Event, drawn: str | None) -> bool:
        """A private "you drew X" that the hand shown right after names anyway ("You drew X.")."""
        if drawn is None or event.type not in RECEIVED:
            return False
        cards = event.data.get("cards") or event.data.get("tiles") or [event.data.get("card") or event.data.get("tile")]
        return list(cards) == [drawn]

    async def _updates(self, outcome: Outcome, user: Player) -> Updates:
        """The presenter's updates for your seat: the table as yours, every line you may see (less a
        "you drew X" the rack repeats); your rack is built by `_show`, which knows what it has said."""
        seat = self.service.seat_of(outcome.table, user)
        view = self._private_view(outcome.table, seat, outcome)
        drawn = view.get("drawn") if view else None
        drawn = drawn if isinstance(drawn, str) else None
        events = [e for e in outcome.events if not self._said_by_hand(e, drawn)]
        return await self.presenter.outcome(replace(outcome, events=events), self._lang_of, seats=(),
                                            viewer=seat, now=self.service.clock.now())

    async def show_events(self, outcome: Outcome, user: Player = YOU) -> Updates:
        updates = await self._updates(outcome, user)
        for line in updates.log:
            self.write(line)
        return updates

    def show_final(self, rec: TableRecord, user: Player = YOU) -> None:
        """The table as the match ended (the end menu's `table`)."""
        if rec.state is not None:
            panel = self.presenter.table(rec, self.lang, viewer=self.service.seat_of(rec, user),
                                         now=self.service.clock.now())
            self.write(panel.body)

    async def _show(self, rec: TableRecord, user: Player, again: bool = False, outcome: Outcome | None = None,
                    panel: TablePanel | None = None) -> None:
        """The table (`panel`, when the outcome's updates hold it) and your rack (from `outcome`'s views
        when it has them). After a move within the same turn (a Rummy 500 lay after a bank take) the
        rack no longer repeats "You drew X."; asked for with `table`, it shows all."""
        if rec.state is None:
            return
        seat = self.service.seat_of(rec, user)
        if panel is None:
            panel = self.presenter.table(rec, self.lang, viewer=seat, now=self.service.clock.now())
        self.write(panel.body)
        view = self._private_view(rec, seat, outcome)
        if view is None or seat is None:
            return
        templates = moves_of(rec, view)
        self._view = (rec.id, rec.version, view, templates)  # the prompt's moves read the same ones
        drawn = view.get("drawn") if isinstance(view.get("drawn"), str) else None
        if drawn is not None and drawn == self._drawn_shown and not again:
            view = {**view, "drawn": None}
        self._drawn_shown = drawn
        hand = await self.presenter.hand(rec, seat, self.lang, view, templates=templates)
        if hand is not None:
            self.write(hand.body)
