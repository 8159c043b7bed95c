"""The full-screen terminal table (Textual), used when stdin and stdout are a terminal.

Panes that stay put: the table (changes since you last looked marked in the margin), the log of what
happened (the same narration as the line mode), your rack or hand with every control the chats have
(keys and mouse: `hand.py`), a status line (whose turn, counts and scores, your opening against its
threshold, the turn timer counting down) and a command line with history and completion from the
legal moves. Everything it does goes through `TuiTable` (table.py), on the same service as the line
mode; moves made elsewhere (the web page, another process) arrive through the service's commit
listeners and the store's change feed and are told in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.css.scalar import Scalar
from textual.events import Key
from textual.screen import ModalScreen
from textual.suggester import Suggester
from textual.widgets import Footer, Input, MarkdownViewer, RichLog, Static

from bot.console.colour import tokens
from bot.console.tui.driver import terminal_driver
from bot.console.tui.hand import Cell, Layout, coloured, control_rows, lay_out
from bot.console.tui.picker import Choice, Picker
from bot.console.tui.status import countdown
from bot.console.tui.table import Screenful, TuiTable
from bot.core.clock import Clock
from bot.core.grammar import hand_items
from bot.core.guides import guide_text
from bot.core.i18n import t
from bot.core.presenter import HandPanel, staging_lines
from bot.core.presses import Clear, Stage, Suggest, Unstage
from bot.core.text import clean
from storage.feed import ChangeFeed

MENU = ("rematch", "game", "standings", "quit")
HAND_SHARE = 0.45  # of the screen's height at most for the hand pane (the table and log keep the rest)
WORDS = ("help", "rules", "hint", "sort colour", "sort number", "leaderboard", "stats", "history", "quit")


class MovesSuggester(Suggester):
    """Completion from what you can type now: whole commands (`draw`, `take bank`), the verb of a move
    with slots (`discard `), the game's words (`hint`, `sort number`), and a tile or card of your hand
    for the word being typed after a verb (`discard Q` → `discard QS`)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.moves: tuple[str, ...] = ()
        self.items: tuple[str, ...] = ()

    def candidates(self, value: str) -> list[str]:
        out = []
        for move in self.moves:
            out.append(move.split("<")[0].rstrip() + " " if "<" in move else move)
        out += WORDS
        if " " in value:
            head, _, last = value.rpartition(" ")
            out += [f"{head} {item}" for item in self.items if last and item.lower().startswith(last.lower())]
        return out

    def complete_now(self, value: str) -> str | None:
        """The completion the line offers for `value` (None: nothing longer starts so)."""
        if not value:
            return None
        low = value.lower()
        return next((c for c in self.candidates(value) if c.lower().startswith(low) and c != value), None)

    async def get_suggestion(self, value: str) -> str | None:
        return self.complete_now(value)


class CommandLine(Input):
    """The command line: Enter sends, ↑/↓ walk the history, Tab (or →) takes the completion, Esc goes
    back to the hand."""

    BINDINGS = [Binding("up", "older", show=False), Binding("down", "newer", show=False),
                Binding("tab", "complete", show=False, priority=True), Binding("escape", "hand", show=False)]

    def __init__(self, suggester: MovesSuggester, **kwargs: Any) -> None:
        super().__init__(suggester=suggester, **kwargs)
        self.history: list[str] = []
        self.back = 0  # how far back in the history the line is (0: a new line)

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
        self.back = 0

    def action_older(self) -> None:
        if self.back < len(self.history):
            self.back += 1
            self.value = self.history[-self.back]
            self.cursor_position = len(self.value)

    def action_newer(self) -> None:
        if self.back > 0:
            self.back -= 1
            self.value = self.history[-self.back] if self.back else ""
            self.cursor_position = len(self.value)

    def action_complete(self) -> None:
        if self._suggestion and self._suggestion != self.value:
            self.value = self._suggestion
            self.cursor_position = len(self.value)

    def action_hand(self) -> None:
        self.app.query_one("#hand").focus()


class HandPane(Static, can_focus=True):
    """Your rack or hand and its controls. Keys: the letter of an item picks it, the digit of a button
    presses it, Esc drops the picks, `:` or Tab goes to the command line."""

    BINDINGS = [Binding("tab,colon,slash", "command", show=False, priority=True)]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.layout_ = Layout()

    def action_command(self) -> None:
        self.app.query_one(CommandLine).focus()

    def offset_of(self, action: str) -> tuple[int, int]:
        """Where in the pane (its border included) the cell of `action` starts."""
        x, y = self.layout_.spots[action]
        return x + self.gutter.left, y + self.gutter.top - round(self.scroll_y)

    async def on_key(self, event: Key) -> None:
        key = "esc" if event.key == "escape" else event.character or ""
        action = self.layout_.keys.get(key)
        if action is not None:
            event.stop()
            await self.app.run_action(action)


class TextScreen(ModalScreen[None]):
    """Help, or a game's rules rendered from their Markdown; Esc or q closes."""

    BINDINGS = [Binding("escape,q", "close", "Close")]
    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    TextScreen > VerticalScroll, TextScreen > MarkdownViewer { width: 100%; height: 100%; border: round $accent;
        background: $surface; padding: 0 1; }
    """

    def __init__(self, text: str, markdown: bool) -> None:
        super().__init__()
        self.text, self.markdown = text, markdown

    def compose(self) -> ComposeResult:
        if self.markdown:
            yield MarkdownViewer(self.text, show_table_of_contents=False)
        else:
            with VerticalScroll():
                yield Static(Text(self.text))
        yield Footer()

    def action_close(self) -> None:
        self.dismiss(None)


class TableApp(App[int]):
    ENABLE_COMMAND_PALETTE = False  # the command line is the palette here
    CSS = """
    Screen { layout: vertical; }
    #top { height: 1fr; }
    #table-pane { width: 3fr; min-width: 30; border-right: solid $primary-darken-2; }
    #log { width: 2fr; min-width: 24; }
    #hand { height: auto; max-height: 45%; padding: 0 0; border-top: solid $primary-darken-2; }
    #hand:focus { border-top: heavy $accent; }
    #status { height: auto; max-height: 2; background: $boost; }
    #status.warn { background: $error; color: $text; text-style: bold; }
    CommandLine { height: 1; border: none; padding: 0 1; }
    CommandLine:focus { border: none; }
    """
    BINDINGS = [
        Binding("f1", "help", "Help"), Binding("f2", "rules", "Rules"), Binding("f3", "sort", "Sort"),
        Binding("f4", "hint", "Hint"), Binding("f6", "new_game", "New game"), Binding("f7", "switch_game", "Games"),
        Binding("ctrl+c,ctrl+q", "leave", "Quit", priority=True),
    ]

    def __init__(self, table: TuiTable, clock: Clock, feed: ChangeFeed | None = None,
                 choice: Choice | None = None, status_every_s: float | None = 1.0, said: tuple[str, ...] = ()) -> None:
        super().__init__(driver_class=terminal_driver())
        self.table = table
        self.clock = clock
        self.feed = feed
        self.choice = choice  # the picker's starting values (`play <game> -o …`)
        self.start_at_once = False  # deal `choice` without showing the picker (`play <game>`, nothing unfinished)
        self.said = said  # lines for the log before anything else (the web link)
        self.status_every_s = status_every_s  # None: the status only moves when told (tests)
        self.shown: Screenful | None = None
        self.suggester = MovesSuggester()
        self.colour = True
        self._tasks: set[asyncio.Task[Any]] = set()

    # ---- layout --------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="top"):
            with VerticalScroll(id="table-pane"):
                yield Static(id="table")
            yield RichLog(id="log", wrap=True, markup=False, auto_scroll=True, min_width=20)
        yield HandPane(id="hand")
        yield Static(id="status")
        yield CommandLine(self.suggester, id="cmd", placeholder=t("tui.command", self.table.lang))
        yield Footer()

    async def on_mount(self) -> None:
        self.colour = not self.no_color
        self.table.tell_to(self.log_line)
        self.table.service.commit_listeners.append(self._committed)
        if self.feed is not None:
            self._spawn(self.feed.run(self._watched, self._committed_elsewhere))
        if self.status_every_s:
            self.set_interval(self.status_every_s, self.tick_status)
        self.log_line(t("tui.welcome", self.table.lang))
        for line in self.said:
            self.log_line(line)
        if self.table.rec is None:
            existing = await self.table.unfinished()
            if self.choice is not None and self.start_at_once:
                await self._open(self.choice)
                return
            if existing is not None:
                await self.table.resume(existing)
                if self.choice is not None:  # `play` asked for something else: the picker decides
                    self.log_line(t("tui.resume_or_beside", self.table.lang, game=t(f"game.{existing.game}", self.table.lang)))
                    self.ask_game()
            else:
                self.ask_game()
                return
        await self.redraw()
        self.query_one(HandPane).focus()

    def on_unmount(self) -> None:
        with contextlib.suppress(ValueError):
            self.table.service.commit_listeners.remove(self._committed)
        for task in self._tasks:
            task.cancel()

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ---- showing -------------------------------------------------------------------------------

    def log_line(self, text: str) -> None:
        log = self.query_one("#log", RichLog)
        for line in text.split("\n"):
            log.write(Text.assemble(*((piece, style or "") if self.colour else piece for piece, style in tokens(line))))

    async def redraw(self) -> None:
        """Every pane from the stored table and your hand screen. A pane whose text did not change is
        left alone: Textual then repaints only what moved (a pick repaints the hand, not the table)."""
        shown = await self.table.screen()
        self.shown = shown
        hand_pane = self.query_one(HandPane)
        if shown is None:
            self._put(self.query_one("#table", Static), Content(""))
            self._put(hand_pane, Content(""), 1)
            return
        wild = (shown.hand.view or {}).get("wild") if shown.hand is not None and shown.table.game == "three_thirteen" \
            else None
        self._put(self.query_one("#table", Static), coloured(shown.body, self.colour, shown.changed, wild))
        lang = self.table.lang
        rows = control_rows(shown.hand, shown.order, lang) if shown.hand is not None else []
        lines = []
        if shown.hand is not None:
            items = set(hand_items(shown.hand.view or {}))
            lines = [line for line in shown.hand.body.splitlines() if not (set(line.split()) <= items and line.strip())]
            lines += staging_lines(shown.hand.controls.staging, lang)
        if shown.table.status != "playing":
            rows = [(t("tui.menu", lang), self._menu_cells())]
            lines = [t("tui.match_over", lang)]
        layout = lay_out(rows, hand_pane.size.width or self.size.width, self.colour)
        # On a short terminal the controls come first: the hand's notes give way (the title last).
        room = max(1, int(self.size.height * HAND_SHARE) - hand_pane.styles.gutter.height - len(layout.lines))
        lines = lines if len(lines) <= room else lines[:1] if room >= 1 else []
        layout.spots = {k: (x, y + len(lines)) for k, (x, y) in layout.spots.items()}
        hand_pane.layout_ = layout
        body = [coloured(line, self.colour).rstrip() for line in lines] + layout.lines
        # The pane's height follows its lines (Textual's `auto` kept the height of the first, empty draw).
        self._put(hand_pane, Content("\n").join(body), len(body) + hand_pane.styles.gutter.height)
        self.suggester.moves = shown.moves
        self.suggester.items = tuple(hand_items(shown.hand.view or {})) if shown.hand is not None else ()
        self.tick_status(redrawn=True)
        if self.table.suggestions.wanted(shown.hand):
            assert shown.hand is not None
            self.run_worker(self._suggest(shown.hand), group="suggest", exclusive=True)

    async def _suggest(self, hand: HandPanel) -> None:
        """The engine's suggestions searched off the redraw, once it is on the screen (the search's
        thread would slow the painting down); the hand drawn again with them."""
        painted = asyncio.Event()
        self.call_after_refresh(painted.set)
        await painted.wait()
        if not await self.table.suggestions.search(hand):
            return
        rec = self.table.rec
        if rec is not None and (rec.id, rec.version) == (hand.table.id, hand.table.version):
            await self.redraw()

    @staticmethod
    def _put(widget: Static, content: Content, height: int | None = None) -> None:
        if getattr(widget, "shown_content", None) != content:
            widget.shown_content = content  # type: ignore[attr-defined]
            widget.update(content)
        if height is not None and widget.styles.height != Scalar.from_number(height):
            widget.styles.height = height

    def _menu_cells(self) -> list[Cell]:
        return [Cell(str(n + 1), t(f"tui.menu.{word}", self.table.lang), f"app.menu('{word}')")
                for n, word in enumerate(MENU)]

    def tick_status(self, redrawn: bool = False) -> None:
        """The status line with the countdown as of now (each second, repainted only when it changed;
        tests call it after moving the clock). `redrawn`: after a redraw, laid out again."""
        bar = self.query_one("#status", Static)
        if self.shown is None:
            bar.update("")
            return
        status = self.shown.status
        timer, warn = countdown(status, self.clock.now())
        line = " · ".join(p for p in (timer, status.text) if p)
        if redrawn or getattr(bar, "shown_line", None) != line:
            bar.shown_line = line  # type: ignore[attr-defined]
            bar.update(Text(line))
        bar.set_class(warn and status.mine, "warn")

    # ---- actions (keys and clicks) ---------------------------------------------------------------

    async def action_pick(self, index: int) -> None:
        await self.table.pick(index)
        await self.redraw()

    async def action_press(self, number: int) -> None:
        await self.table.action(number)
        await self.after_move()

    async def action_clear(self) -> None:
        await self.table.clear()
        await self.redraw()

    async def action_stage(self) -> None:
        await self.table.press(Stage())
        await self.redraw()

    async def action_unstage(self, number: int) -> None:
        await self.table.press(Unstage(number))
        await self.redraw()

    async def action_unstage_all(self) -> None:
        await self.table.press(Clear())
        await self.redraw()

    async def action_suggest(self, index: int) -> None:
        await self.table.press(Suggest(index))
        await self.after_move()

    async def action_menu(self, word: str) -> None:
        if word == "quit":
            self.exit(0)
        elif word == "rematch":
            await self.table.rematch()
            await self.redraw()
        elif word == "game":
            self.ask_game()
        elif word == "standings":
            rec = self.table.rec
            await self.table.lines.stats_command("leaderboard", self.table.user, game=rec.game if rec else None)
            await self.table.lines.stats_command("history 3", self.table.user)

    async def action_sort(self) -> None:
        await self.run_line("sort")

    async def action_hint(self) -> None:
        await self.run_line("hint")

    def action_help(self) -> None:
        self.push_screen(TextScreen(self.table.help_text(), markdown=False))

    def action_rules(self, game: str | None = None) -> None:
        game = game or (self.table.rec.game if self.table.rec is not None else None)
        if game is not None:
            self.push_screen(TextScreen(guide_text(game, self.table.lang), markdown=True))

    def action_new_game(self) -> None:
        self.ask_game()

    async def action_switch_game(self) -> None:
        """F7: the next of your games in play, where you left it."""
        rec = await self.table.switch()
        lang = self.table.lang
        if rec is None:
            self.log_line(t("tui.no_other_game", lang))
            return
        self.log_line(t("tui.switched", lang, game=t(f"game.{rec.game}", lang)))
        await self.redraw()

    def action_leave(self) -> None:
        self.exit(0)

    async def after_move(self) -> None:
        await self.redraw()

    # ---- the command line ----------------------------------------------------------------------

    @on(Input.Submitted, "#cmd")
    async def _submitted(self, event: Input.Submitted) -> None:
        line = event.value
        cmd = self.query_one(CommandLine)
        cmd.remember(line.strip())
        cmd.value = ""
        self.query_one(HandPane).focus()  # back to the keys of the hand: `:` types again
        await self.run_line(line)

    async def run_line(self, line: str) -> None:
        if line.strip():
            self.log_line(f"> {clean(line.strip())}")
        todo = await self.table.command(line)
        if todo == "quit":
            self.exit(0)
            return
        if todo == "help":
            self.action_help()
        elif todo is not None and todo.startswith("rules:"):
            self.action_rules(todo.removeprefix("rules:"))
        await self.redraw()

    # ---- picking a game ------------------------------------------------------------------------

    def ask_game(self) -> None:
        """The picker, set as last asked (`play`'s request, or the last game dealt)."""
        self.push_screen(Picker(self.table.lang, self.choice), self._picked)

    def _picked(self, choice: Choice | None) -> None:
        self.run_worker(self._open(choice), exclusive=True, group="open")

    async def _open(self, choice: Choice | None) -> None:
        if choice is None:
            if self.table.rec is None:
                self.exit(0)
            return
        self.choice = Choice(choice.game, choice.ai, choice.level, dict(choice.options), choice.lang)  # F6 starts here
        self.table.set_lang(choice.lang)
        self.query_one(CommandLine).placeholder = t("tui.command", choice.lang)
        await self.table.open_new(choice.game, choice.ai, choice.options, [choice.level], choice.seed)
        await self.redraw()
        self.query_one(HandPane).focus()

    # ---- what happens elsewhere ----------------------------------------------------------------

    async def clock_outcomes(self, outcomes: list[Any]) -> None:
        """The table's clock played something (a timeout, moves left by a killed terminal)."""
        if await self.table.outcomes(outcomes):
            await self.redraw()

    def _watched(self) -> set[str]:
        return {self.table.rec.id} if self.table.rec is not None else set()

    def _committed(self, rec: Any) -> None:
        """A commit in this process (ours, or the web page's served by this process)."""
        self._committed_elsewhere(rec.id)

    def _committed_elsewhere(self, table_id: str) -> None:
        if self.table.rec is not None and table_id == self.table.rec.id:
            self._spawn(self._follow(table_id))

    async def _follow(self, table_id: str) -> None:
        if await self.table.follow(table_id):
            await self.redraw()
