"""The full-screen terminal's table, without the screen: what the panes show and what a key, a click
or a typed line does. The same service calls as the line mode (ConsoleTable, which writes every
line of what happened into the log here) and the same hand controls and presses as the chats
(bot/core/presenter's `hand_controls`; a press decoded by the service, bot/core/presses.py), so a
pick, a move button and a typed command mean exactly what they mean everywhere else. Textual lives in `app.py`; this file is tested without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.console.app import (
    CHAT_ID,
    HELP_WORDS,
    PLATFORM,
    QUIT_WORDS,
    STATS_WORDS,
    YOU,
    ConsoleTable,
    first_word,
)
from bot.console.seats import seat_levels
from bot.console.tui.keys import button_keys
from bot.console.tui.status import Status, status_of
from bot.console.tui.suggestions import Suggestions
from bot.core.codec import mask_of
from bot.core.grammar import hand_items
from bot.core.guides import rules_reply, rules_request
from bot.core.hints import table_hint
from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.presenter import HandPanel
from bot.core.presenter.games import MoveTemplate, moves_of, replayed, view_of
from bot.core.presenter.prompt import typed_moves
from bot.core.presses import Back, ChoosePiece, Command, MoveTo, Pick, Press, StartMove
from bot.core.render import render_error, render_events, render_help
from bot.core.service import TableService
from bot.core.text import clean
from storage import TableRecord

Tell = Callable[[str], None]
_T = TypeVar("_T")


@dataclass(frozen=True)
class Screenful:
    """Everything the panes show for one table version and hand screen."""

    table: TableRecord
    body: str  # the table panel (the presenter's)
    changed: frozenset[int]  # lines of `body` that differ from the table as you last saw it
    hand: HandPanel | None  # your rack or hand and its controls (None: not seated, or no game)
    status: Status
    moves: tuple[str, ...]  # what you can type now (the command line completes from these)
    order: tuple[int, ...]  # the hand items in the order shown (by colour or by number)


@dataclass
class Seen:
    """What the player has seen of the table: the version, the log position, the table's lines."""

    version: int = -1
    log_seq: int = 0
    body: str = ""
    changed: frozenset[int] = field(default_factory=frozenset)


class TuiTable:
    """One player's table at the full screen. Every method that changes something leaves `rec` the
    stored table and writes what happened through `tell` (the log pane)."""

    def __init__(self, service: TableService, tell: Tell, lang: str = "en", user: Player = YOU,
                 replay_url: Callable[[str], str] | None = None) -> None:
        self.service = service
        self.user = user
        self.lang = lang
        self.lines = ConsoleTable(service, self._no_reading, tell, lang, replay_url=replay_url)
        self.lines.welcomed = True  # the screen greets with its own keys
        self.uis = self.lines.uis
        self.presenter = self.lines.presenter
        self.rec: TableRecord | None = None
        self.topic: str | None = None  # the place of the table shown (several games are kept side by side)
        self.seen = Seen()
        self.left: dict[str, Seen] = {}  # what you had seen of the games you switched away from
        self.draw_warned = -1  # the version at which `draw` over a draft was warned about
        # One thing at a time on the table: a move and a change told by another process never
        # interleave (the second one then sees the table the first one left).
        self.busy = asyncio.Lock()
        self.suggestions = Suggestions()
        self._per_version: dict[str, tuple[Any, Any]] = {}

    @staticmethod
    async def _no_reading() -> str | None:
        return None  # the screen reads keys, never lines through ConsoleTable

    def tell(self, text: str) -> None:
        self.lines.write(text)

    def tell_to(self, tell: Tell) -> None:
        """Where every line goes from now on (the log pane), each cleaned of escape sequences first."""
        self.lines.write = lambda text: tell(clean(text, newlines=True))

    def set_lang(self, lang: str) -> None:
        self.lang = self.lines.lang = lang

    # ---- which table ---------------------------------------------------------------------------

    async def unfinished(self) -> TableRecord | None:
        """The terminal's table in play at this place, else the first other one in play (a lobby
        left behind is ended: nobody waits in it)."""
        existing = await self.service.store.active_table_for_chat(PLATFORM, CHAT_ID, self.topic)
        if existing is not None and existing.status != "playing":
            await self.service.end_table(existing.id, self.user, is_admin=True)
            existing = None
        if existing is None:
            existing = next(iter(await self.in_play()), None)
        return existing

    async def in_play(self) -> list[TableRecord]:
        """The terminal's games in play, side by side (each at a place of its own: the chat's topic,
        none for the first), in the order of their places."""
        found = [r for r in await self.service.store.list_tables(["playing"]) if self.lines.is_mine(r)]
        return sorted(found, key=lambda r: _place_number(r.topic_id))

    async def resume(self, rec: TableRecord) -> None:
        await self._enter(await self.lines.resume(rec, self.user))

    async def open_new(self, game: str, ai: int, options: dict[str, Any], levels: Sequence[str],
                       seed: int | None = None) -> None:
        """A new table beside the games in play: they stay as they are (F7 switches between them)."""
        topic = self.topic
        here = await self.service.store.active_table_for_chat(PLATFORM, CHAT_ID, topic)
        if here is not None and here.status != "playing":  # a lobby left behind: nobody waits in it
            await self.service.end_table(here.id, self.user, is_admin=True)
        elif here is not None:
            used = {_place_number(r.topic_id) for r in await self.in_play()}
            topic = _place(next(n for n in range(1, len(used) + 2) if n not in used))
            self.tell(t("tui.kept_beside", self.lang, game=t(f"game.{here.game}", self.lang)))
        self._leave()
        await self._enter(await self.lines.open_new(game, ai, options, seed, self.user, seat_levels(ai, levels),
                                                    topic_id=topic))

    async def rematch(self) -> bool:
        rec = await self.lines.rematch(self.user, topic_id=self.topic)
        if rec is not None:
            await self._enter(rec)
        return rec is not None

    async def switch(self) -> TableRecord | None:
        """The next game in play (F7), exactly where you left it — its picks, staging and sort are
        stored with it — with what happened there meanwhile told. None: no other game in play."""
        games = await self.in_play()
        ids = [r.id for r in games]
        at = ids.index(self.rec.id) if self.rec is not None and self.rec.id in ids else -1
        if not games or (len(games) == 1 and at == 0):
            return None
        target = games[(at + 1) % len(games)]
        async with self.busy:
            self._leave()
            seen = self.left.pop(target.id, None)
            await self._enter(target)
            if seen is not None:
                self.seen = seen
                await self._tell_since(target)
        return target

    def _leave(self) -> None:
        """What you have seen of the table shown, kept for when you come back to it."""
        if self.rec is not None:
            self.left[self.rec.id] = self.seen

    async def _enter(self, rec: TableRecord) -> None:
        self.rec = rec
        self.topic = rec.topic_id
        self.seen = Seen(log_seq=rec.log_seq)
        seat = self.seat
        if seat is not None:
            self.lines.by_number = (await self.uis.get(rec.id, seat)).by_number

    @property
    def seat(self) -> int | None:
        return None if self.rec is None else self.service.seat_of(self.rec, self.user)

    # ---- what the panes show -------------------------------------------------------------------

    def _view(self) -> tuple[dict[str, Any], list[MoveTemplate]] | None:
        return self.view_and_moves()

    def view_and_moves(self) -> tuple[dict[str, Any], list[MoveTemplate]] | None:
        """Your view of the table in play and its legal moves (once per table version)."""
        rec, seat = self.rec, self.seat
        if rec is None or rec.state is None or seat is None or rec.status != "playing":
            return None
        return self._kept("view", lambda: _with_moves(rec, view_of(rec, seat)))

    def _kept(self, what: str, compute: Callable[[], _T]) -> _T:
        """`compute()` once per table version, seat, language and sort order: a pick or a staging
        redraws the hand alone, and a move's redraw builds each part of the screen once."""
        rec = self.rec
        key = (rec.id if rec else None, rec.version if rec else None, self.seat, self.lang, self.lines.by_number)
        found = self._per_version.get(what)
        if found is None or found[0] != key:
            found = self._per_version[what] = (key, compute())
        return found[1]

    async def screen(self) -> Screenful | None:
        rec, seat = self.rec, self.seat
        if rec is None or rec.state is None:
            return None
        panel = self._kept("panel", lambda: self.presenter.table(rec, self.lang, viewer=seat))
        if rec.version != self.seen.version:  # a new table: what changed since you last saw it is marked
            old = self.seen.body.splitlines()
            new = panel.body.splitlines()
            changed = frozenset(i for i, line in enumerate(new) if self.seen.body and (i >= len(old) or old[i] != line))
            self.seen = Seen(rec.version, rec.log_seq, panel.body, changed)
        hand: HandPanel | None = None
        moves: tuple[str, ...] = ()
        order: tuple[int, ...] = ()
        found = self._view()
        if found is not None and seat is not None:
            view, templates = found
            hand = self.suggestions.added(
                await self.presenter.hand(rec, seat, self.lang, view, templates=templates, suggest=False))
            moves = self._kept("moves", lambda: tuple(typed_moves(rec.game, view, seat, templates, self.lang,
                                                                  hints=bool(rec.options.get("hints")))))
            order = self._kept("order", lambda: shown_order(view, self.lines.by_number))
        status = self._kept("status", lambda: status_of(rec, view_of(rec, seat), seat, self.lang))
        return Screenful(rec, panel.body, self.seen.changed, hand, status, moves, order)

    # ---- presses (the hand pane's keys and clicks) --------------------------------------------------

    async def pick(self, index: int) -> None:
        """Pick or unpick hand item `index` (the whole selection is kept in pick order)."""
        async with self.busy:
            seat = self.seat
            if self.rec is None or seat is None or self._view() is None:
                return
            ui = await self.uis.get(self.rec.id, seat)
            chosen = [i for i in ui.picks if i != index] if index in ui.picks else [*ui.picks, index]
            await self._press(Pick(tuple(chosen)))  # an item that is no longer there: nothing changes

    async def clear(self) -> None:
        """Esc: the picks dropped, a table-item move in progress abandoned."""
        async with self.busy:
            if self._view() is not None:  # a table in play, seated: outside it there is no screen to clear
                await self._press(Back(unpick=True))

    async def action(self, number: int) -> None:
        """Move button `number` (0-based, as shown) of the hand controls."""
        hand = await self._hand()
        if hand is None or self.rec is None:
            return
        controls = hand.controls
        pressed: Press | None = None
        verb = ""
        if controls.moving is not None and controls.move_index is not None:
            if 0 <= number < len(controls.targets):
                pressed = MoveTo(controls.move_index, controls.moving, controls.targets[number].option)
        elif controls.choosing:
            if 0 <= number < len(controls.pieces):
                pressed = ChoosePiece(controls.pieces[number].option)
        elif number == len(controls.actions) and controls.move_index is not None and not controls.picks:
            pressed = StartMove()
        elif 0 <= number < len(controls.actions):
            a = controls.actions[number]
            pressed = Command(a.index, mask_of(list(controls.picks)) if a.with_items else "0", a.option)
            found = self._view()
            verb = found[1][a.index].verb if found is not None and a.index < len(found[1]) else ""
        if pressed is not None:
            async with self.busy:
                if not self._warned_of_draft(verb):
                    await self._press(pressed)

    async def press(self, pressed: Press) -> None:
        """A hand press of the staging and suggestion rows (`Stage`, `Unstage`, `Clear`, `Suggest`):
        decoded by the service like every other press; outside a seated table in play, nothing."""
        async with self.busy:
            if self._view() is not None:
                await self._press(pressed)

    async def _press(self, pressed: Press) -> None:
        """A press decoded and applied by the service (`ConsoleTable.press`); `rec` is then the stored table."""
        if self.rec is not None:
            self.rec = (await self.lines.press(self.rec, self.user, pressed)).table

    async def _hand(self) -> HandPanel | None:
        found, seat = self._view(), self.seat
        if found is None or self.rec is None or seat is None:
            return None
        return await self.presenter.hand(self.rec, seat, self.lang, found[0], templates=found[1], suggest=False)

    # ---- the command line ----------------------------------------------------------------------

    async def command(self, line: str) -> str | None:
        """A typed line. Returns what the screen must do beyond redrawing: "quit", "rules", "help",
        "menu" (the match ended) or None."""
        text = line.strip()
        word = first_word(text)
        rec = self.rec
        if not text:
            return None
        if word in QUIT_WORDS and len(text.split()) == 1:
            return "quit"
        if (request := rules_request(text)) is not None:
            shown, problem = rules_reply(request, rec.game if rec else None, self.lang)
            if shown is None:
                self.tell(problem)
                return None
            return f"rules:{shown}"
        if word in HELP_WORDS:
            return "help"
        if rec is None:
            return None
        if word in STATS_WORDS and word != "rematch":
            await self.lines.stats_command(text, self.user, game=rec.game)
            return None
        if word == "rematch":
            if rec.status == "playing":
                self.tell(t("console.rematch_in_play", self.lang))
                return None
            return "menu" if not await self.rematch() else None
        if rec.status != "playing":
            self.tell(t("tui.match_over", self.lang))
            return "menu"
        if word == "sort":
            if (refused := await self.lines.sort(rec, self.user, text)) is not None:
                self.tell(refused)
            return None
        if text.lower() in ("table", "hand", "rack"):
            return None  # the panes always show them
        if text.lower() == "hint":
            await self.hint(rec)
            return None
        await self.send(text)
        return "menu" if self.rec is not None and self.rec.status != "playing" else None

    async def send(self, command: str) -> None:
        """A move (typed or pressed) through the service; `draw` over a Rummikub draft is said first:
        the same `draw` again sends it (the draft is then dropped, as the rules say)."""
        async with self.busy:
            rec = self.rec
            if rec is None:
                return
            if self._warned_of_draft(first_word(command)):
                return
            applied = await self.lines.apply(rec, self.user, command)
            self.rec = applied.table
            seat = self.seat
            if applied.outcome is not None and seat is not None:
                await self.uis.moved(rec.id, seat)

    def _warned_of_draft(self, verb: str) -> bool:
        """`draw` over a Rummikub draft is said first (True: said now, nothing sent)."""
        found, rec = self._view(), self.rec
        placed = _draft_tiles(found[0]) if found is not None else None
        if rec is None or placed is None or verb != "draw" or self.draw_warned == rec.version:
            return False
        self.draw_warned = rec.version
        self.tell(t("tui.draft_dropped", self.lang, n=placed))
        return True

    async def hint(self, rec: TableRecord) -> None:
        """The hint (bot/core/hints.py) and, when the hand pane's buttons make its move, their keys."""
        try:
            found = await table_hint(self.service, rec.id, self.user)
        except ServiceError as err:
            self.tell(render_error(err, self.lang, rec.game))
            return
        self.tell(found.render(self.lang))
        hand, view = self.suggestions.added(await self._hand()), self._view()  # a suggestion's key when it is one
        if hand is not None and view is not None:
            keys = button_keys(hand, shown_order(view[0], self.lines.by_number), view[1], found.command, self.lang)
            if keys:
                self.tell(t("tui.hint_keys", self.lang, keys=" ".join(keys)))

    def help_text(self) -> str:
        game = self.rec.game if self.rec is not None else None
        parts = [render_help(game, self.lang)] if game else []
        parts += [t("tui.help", self.lang), t("tui.help_games", self.lang), t("stats.console_help", self.lang)]
        return "\n\n".join(parts)

    # ---- what others did -----------------------------------------------------------------------

    async def outcomes(self, outcomes: Sequence[Any]) -> bool:
        """The table's clock moved (a turn timer ran out, moves a killed terminal left): told in the
        log as a move is. True when the table shown changed."""
        async with self.busy:
            moved = False
            for outcome in outcomes:
                rec = outcome.table
                if self.rec is None or rec.id != self.rec.id or rec.version <= self.rec.version:
                    continue
                await self.lines.show_events(outcome, self.user)
                self.rec, moved = rec, True
                self.seen.log_seq = rec.log_seq
            return moved

    async def follow(self, table_id: str) -> bool:
        """Another process (the web page, a second terminal) or this process's web server committed
        to `table_id`: when it is ours and newer than shown, the moves made meanwhile are told in the
        log from the stored log (replayed from seed and options, as the replay page does). True when
        the table shown changed."""
        async with self.busy:
            if self.rec is None or table_id != self.rec.id:
                return False
            rec = await self.service.store.get_table(table_id)
            if rec is None or rec.version <= self.rec.version:
                return False
            self.uis.forget(rec.id)  # the page may have changed the picks or the sort
            self.rec = rec
            await self._tell_since(rec)
            return True

    async def _tell_since(self, rec: TableRecord) -> None:
        """The moves of `rec` after the last one you saw, told from the stored log (replayed from
        seed and options, as the replay page does); `rec` is then the table you have seen."""
        log = await self.service.store.log(rec.id)
        moves = [e for e in log if e.kind != "start"]
        steps = replayed(rec, log)[1:]
        events = [e for entry, step in zip(moves, steps, strict=False) if entry.seq > self.seen.log_seq
                  for e in step.events]
        for line in render_events(rec, events, self.seat, self.lang):
            self.tell(line)
        self.seen.log_seq = rec.log_seq
        seat = self.seat
        if seat is not None:
            self.lines.by_number = (await self.uis.get(rec.id, seat)).by_number


def _place_number(topic: str | None) -> int:
    """A place's number: the first place has no topic (as the line mode's one table), then "2", "3"…"""
    return int(topic) if topic and topic.isdigit() else 1


def _place(number: int) -> str | None:
    return None if number == 1 else str(number)


def _with_moves(rec: TableRecord, view: dict[str, Any]) -> tuple[dict[str, Any], list[MoveTemplate]]:
    return view, moves_of(rec, view)


def _draft_tiles(view: dict[str, Any]) -> int | None:
    """A Rummikub draft in progress: how many tiles of your rack it lays (None: no draft)."""
    draft = view.get("draft")
    if not isinstance(draft, dict) or not isinstance(draft.get("rack"), list):
        return None
    return len(view.get("rack") or []) - len(draft["rack"])


def shown_order(view: dict[str, Any], by_number: bool) -> tuple[int, ...]:
    """The hand items' indices in the order the rack is shown: the view's own order, or its order by
    number (`rack_by_number`, `hand_by_number`) when the player sorted so."""
    items = hand_items(view)
    sorted_items = next((view[k] for k in ("rack_by_number", "hand_by_number") if isinstance(view.get(k), list)), None)
    if not by_number or view.get("draft") or not isinstance(sorted_items, list) or sorted(sorted_items) != sorted(items):
        return tuple(range(len(items)))
    free = list(range(len(items)))
    order = []
    for code in sorted_items:
        i = next(k for k in free if items[k] == code)
        free.remove(i)
        order.append(i)
    return tuple(order)
