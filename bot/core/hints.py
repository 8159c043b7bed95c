"""The hint a player on turn may ask for (issue 16): the one entry point every adapter routes `hint`
to (the terminal at its prompt; Telegram and Discord through their adapters).

It refuses, with a sentence (`render_error`), when the table is not in play, the asker has no seat,
the table's `hints` option is off, or it is not the asker's turn. Otherwise the game's pure hint
(`rules.<game>.hints.hint`) reads the asker's view only, and the suggestion is given as a command of
the game's own grammar (what `engine.parse` reads back) with its reason worded per language.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Protocol

from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.presenter.games import turn_of
from rules import Engine
from rules.core.hints import Hint
from storage import TableRecord


class _Tables(Protocol):
    """What the hint needs of the table service (`TableService` has it)."""

    async def get(self, table_id: str) -> TableRecord: ...
    def seat_of(self, rec: TableRecord, user: Player) -> int | None: ...
    def engine_for(self, rec: TableRecord) -> Engine: ...


@dataclass(frozen=True)
class TableHint:
    game: str
    seat: int
    command: str  # in the game's grammar: typing it makes the hinted move
    hint: Hint

    def render(self, lang: str = "en", quote: Callable[[str], str] = str) -> str:
        """The hint as a sentence; `quote` marks the command up the platform's way (a code span)."""
        reason = t(f"hint.{self.game}.{self.hint.reason}", lang, **self.hint.params)
        return t("hint.line", lang, command=quote(self.command), reason=reason)


async def table_hint(service: _Tables, table_id: str, user: Player) -> TableHint:
    """The best move for `user`'s hand at the table, or `ServiceError` saying why there is none."""
    rec = await service.get(table_id)
    if rec.status != "playing" or rec.state is None:
        raise ServiceError("E_NOT_PLAYING")
    seat = service.seat_of(rec, user)
    if seat is None:
        raise ServiceError("E_NOT_SEATED")
    if not rec.options.get("hints"):  # tables stored before the option existed have it off
        raise ServiceError("E_HINTS_OFF")
    engine = service.engine_for(rec)
    if engine.current_seat(rec.state) != seat:
        raise ServiceError("E_NOT_YOUR_TURN")
    options = engine.options_model.parse_options(rec.options)
    hint: Hint = import_module(f"rules.{rec.game}.hints").hint(engine.view(rec.state, seat), options)
    return TableHint(rec.game, seat, engine.format(hint.action), hint)


def offers_hint(rec: TableRecord, seat: int) -> bool:
    """A hand shows a Hint button only when a press would get a hint: the option on, the seat on turn."""
    return bool(rec.options.get("hints")) and turn_of(rec) == seat
