"""The presenter: a service outcome (or a stored table) turned into platform-neutral updates — the
group's table message, each changed hand, the announcements that stay in the group, and the turn
notice — from the views the service already built (each built once per outcome). Adapters only lay
these out and send them, following the delivery policy written on `Updates`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection
from dataclasses import dataclass
from typing import Any

from bot.core.grammar import hand_items
from bot.core.i18n import t
from bot.core.models import Outcome
from bot.core.presenter.controls import HandControls, hand_controls
from bot.core.presenter.games import view_of
from bot.core.presenter.hand_ui import HandUI, HandUIs
from bot.core.render import render_events, render_hand, render_table, renderer
from bot.core.render.common import names
from rules.core.moves import MoveTemplate
from storage import TableRecord

# Events whose lines are announced in the group as messages of their own (they stay there after the
# match); every other public event is a line in the table message.
ANNOUNCED = frozenset({"RoundScored", "MatchEnded", "TieBreakNeeded", "RoundEnded", "MatchOver"})
TABLE_LINES = 6  # the newest public event lines the table message shows
HAND_LINES = 4  # the newest private event lines a hand shows

LangOf = Callable[[int | None], Awaitable[str]]  # a seat's language; None: the group's


@dataclass(frozen=True)
class TablePanel:
    """The group's one table message. `body` names whose turn it is but holds no countdown: the
    adapter shows `deadline` (epoch seconds) as something that moves by itself or as a clock time,
    so no edit is ever needed only because time passed. (The terminal, which prints a snapshot and
    never edits it, asks for the seconds left in the body instead.)"""

    table: TableRecord
    lang: str
    title: str
    body: str
    lines: tuple[str, ...] = ()
    turn: int | None = None
    deadline: float | None = None
    restored: bool = False
    note: str | None = None  # why the table closed, when it did
    view: dict[str, Any] | None = None  # the public view it was rendered from (pictures draw the same)

    @property
    def playing(self) -> bool:
        return self.table.status == "playing"


@dataclass(frozen=True)
class HandPanel:
    table: TableRecord
    seat: int
    user_id: str
    lang: str
    title: str
    body: str
    picked: tuple[str, ...]
    controls: HandControls
    ui: HandUI
    events: tuple[str, ...] = ()
    note: str | None = None
    view: dict[str, Any] | None = None  # the seat's own view it was rendered from (pictures draw the same)


@dataclass(frozen=True)
class TurnNotice:
    """The player whose turn starts. Policy: it reaches them privately and replaces their previous
    notice; the group gets a turn message only for a player who cannot be reached privately. A
    notice already stale when its turn comes to be sent is dropped (`table.version` guards it)."""

    table: TableRecord
    seat: int
    user_id: str
    name: str
    deadline: float | None


@dataclass(frozen=True)
class Updates:
    """Policy: at most one edit of the table message per outcome (adapters coalesce newer ones over
    older ones still waiting); announcements are new group messages that stay; when `finished`, every
    temporary message of the table (turn notices) is deleted, leaving the table message and results."""

    table: TablePanel | None
    hands: tuple[HandPanel, ...] = ()
    announcements: tuple[str, ...] = ()
    notice: TurnNotice | None = None
    finished: bool = False
    log: tuple[str, ...] = ()  # for a `viewer` (the terminal): every line they may see, in order, uncut


def public_lines(rec: TableRecord, outcome: Outcome, lang: str) -> list[tuple[str, str]]:
    """(event type, line) for each public event of the outcome that says something."""
    mod = renderer(rec.game)
    shown = names(rec, None, lang)
    out = []
    for event in outcome.events:
        if event.seat is None and (line := mod.render_event(event, shown, None, lang)):
            out.append((event.type, line))
    return out


@dataclass
class Presenter:
    uis: HandUIs

    def table(self, rec: TableRecord, lang: str, view: dict[str, Any] | None = None, lines: list[str] | None = None,
              restored: bool = False, note: str | None = None, viewer: int | None = None,
              now: float | None = None) -> TablePanel:
        """`viewer`: the table as that seat reads it ("You"); `now`: the seconds left in the body."""
        title = t(f"game.{rec.game}", lang)
        if rec.state is None:
            return TablePanel(rec, lang, title, note or "", note=note)
        view = view if view is not None else view_of(rec, None)
        body = render_table(rec, view, lang, now=now, viewer=viewer)
        turn = view.get("turn") if rec.status == "playing" else None
        deadline = rec.deadline if turn is not None else None
        return TablePanel(rec, lang, title, body, tuple((lines or [])[-TABLE_LINES:]), turn, deadline, restored, note,
                          view)

    async def hand(self, rec: TableRecord, seat: int, lang: str, view: dict[str, Any] | None = None,
                   events: list[str] | None = None, note: str | None = None,
                   templates: list[MoveTemplate] | None = None, suggest: bool = True) -> HandPanel | None:
        """The seat's hand; `view` is its view when the caller has it (an outcome's), `templates` its
        legal moves when the caller needs them too (the terminal's prompt). None for a seat that is
        not a human's or a table without a game. `suggest` False: a caller that builds its own
        controls (the web page) skips the engine's suggestion search here."""
        s = rec.seats[seat]
        if s.kind != "human" or s.user_id is None or rec.state is None:
            return None
        view = view if view is not None else view_of(rec, seat)
        ui = await self.uis.get(rec.id, seat)
        items = hand_items(view)
        controls = hand_controls(rec.game, view, seat, ui, lang, rec.status == "playing", templates, suggest)
        if note is None and rec.status == "finished":
            note = t("tg.match_over", lang)
        return HandPanel(rec, seat, s.user_id, lang, t(f"game.{rec.game}", lang),
                         render_hand(rec, view, lang, ui.by_number),
                         tuple(items[i] for i in controls.picks), controls, ui,
                         tuple((events or [])[-HAND_LINES:]), note, view)

    async def outcome(self, outcome: Outcome, lang_of: LangOf, prev_turn: int | None = None,
                      restored: bool = False, seats: Collection[int] | None = None, viewer: int | None = None,
                      now: float | None = None) -> Updates:
        """`seats`: the hands the adapter will show (None: every human's); the others are not built.
        `viewer` (and `now`): the one player of the terminal, who reads the table as theirs and every
        line of the outcome in `log`; a chat group's table is nobody's (see `table`)."""
        rec = outcome.table
        if rec.state is None:
            return await self.record(rec, lang_of)
        outcome.viewed(seats)  # views a restart left for later: those shown here, now
        group = await lang_of(None)
        public = public_lines(rec, outcome, group)
        panel = self.table(rec, group, outcome.public_view, [line for e, line in public if e not in ANNOUNCED],
                           restored, viewer=viewer, now=now)
        hands = []
        for seat, s in enumerate(rec.seats):
            if s.kind != "human" or s.user_id is None or (seats is not None and seat not in seats):
                continue
            lang = await lang_of(seat)
            private = render_events(rec, [e for e in outcome.events if e.seat == seat], seat, lang)
            hand = await self.hand(rec, seat, lang, outcome.private_views.get(seat), private)
            if hand is not None:
                hands.append(hand)
        log = tuple(render_events(rec, outcome.events, viewer, group)) if viewer is not None else ()
        return Updates(panel, tuple(hands), tuple(line for e, line in public if e in ANNOUNCED),
                       None if restored else self._notice(outcome, prev_turn), rec.status == "finished", log)

    async def record(self, rec: TableRecord, lang_of: LangOf, restored: bool = False) -> Updates:
        """Everything of a stored table, e.g. after a restart or a change outside play (no events)."""
        panel = self.table(rec, await lang_of(None), restored=restored)
        hands = []
        if rec.state is not None:
            for seat in range(len(rec.seats)):
                hand = await self.hand(rec, seat, await lang_of(seat))
                if hand is not None:
                    hands.append(hand)
        return Updates(panel, tuple(hands), finished=rec.status == "finished")

    @staticmethod
    def _notice(outcome: Outcome, prev_turn: int | None) -> TurnNotice | None:
        """A notice when the turn comes to a human who is here: it changed hands, or others moved in
        between (a whole round of AI turns back to the same player)."""
        rec = outcome.table
        turn = (outcome.public_view or {}).get("turn")
        if rec.status != "playing" or turn is None:
            return None
        others_moved = any(e.data.get("seat") not in (None, turn) for e in outcome.events)
        if turn == prev_turn and not others_moved:
            return None
        return turn_notice(rec, turn)


def turn_notice(rec: TableRecord, turn: int | None) -> TurnNotice | None:
    """The notice for seat `turn` of a table in play: None for an AI, an away seat or no turn. For a
    change outside an outcome (away, back) that moved the turn on."""
    if rec.status != "playing" or turn is None:
        return None
    s = rec.seats[turn]
    if s.kind != "human" or s.away or s.user_id is None:
        return None
    return TurnNotice(rec, turn, s.user_id, s.name, rec.deadline)
