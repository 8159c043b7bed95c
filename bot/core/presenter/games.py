"""What adapters may know of the games, without importing rules/: the games there are, their seat
counts, whose turn it is, the views and legal moves of a stored table, and the refusal type."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rules import IllegalAction, SetupError, engine_names, get_engine
from rules.core.moves import MoveTemplate
from storage import TableRecord


def games() -> list[str]:
    return engine_names()


def max_seats(game: str) -> int:
    return get_engine(game).max_seats


def seat_range(game: str) -> tuple[int, int]:
    engine = get_engine(game)
    return engine.min_seats, engine.max_seats


def options_model(game: str) -> type[BaseModel]:
    """The game's options (pydantic): what the lobby's option screens offer."""
    return get_engine(game).options_model


def turn_of(rec: TableRecord) -> int | None:
    """Whose turn it is in a stored table (None outside play)."""
    if rec.state is None or rec.status != "playing":
        return None
    return get_engine(rec.game).current_seat(rec.state)


def view_of(rec: TableRecord, seat: int | None) -> dict[str, Any]:
    """A seat's view of a stored table (None: the public's); {} before the deal."""
    return get_engine(rec.game).view(rec.state, seat) if rec.state is not None else {}


def moves_of(rec: TableRecord, view: dict[str, Any]) -> list[MoveTemplate]:
    return get_engine(rec.game).moves(view)


__all__ = ["IllegalAction", "SetupError", "games", "max_seats", "moves_of", "options_model", "seat_range", "turn_of", "view_of"]
