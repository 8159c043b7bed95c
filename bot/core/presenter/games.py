"""What adapters may know of the games, without importing rules/: the games there are, their seat
counts and options, whose turn it is, the views and legal moves of a stored table, and the refusal type."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from bot.core.options_text import bad_option
from rules import Event, IllegalAction, SetupError, engine_names, get_engine
from rules.core.moves import MoveTemplate
from storage import TableRecord


def games() -> list[str]:
    return engine_names()


def canonical(game: str) -> str:
    """The game's own name for a name it answers to (`KeyError` naming the games otherwise)."""
    return get_engine(game).name


def max_seats(game: str) -> int:
    return get_engine(game).max_seats


def seat_range(game: str) -> tuple[int, int]:
    engine = get_engine(game)
    return engine.min_seats, engine.max_seats


def options_model(game: str) -> type[BaseModel]:
    """The game's options (pydantic): what the lobby's option screens offer."""
    return get_engine(game).options_model


def read_options(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Every option as the game reads `options` (defaults filled in); a refused one is
    `ServiceError("E_BAD_OPTION")` with what its sentence needs."""
    engine = get_engine(game)
    try:
        return engine.options_model.parse_options(options).model_dump()
    except SetupError as err:
        raise bad_option(err, engine) from None


def dealt_view(game: str, players: int, seed: int = 0) -> dict[str, Any]:
    """The public view of a fresh deal for `players` (what a table of that size starts with)."""
    engine = get_engine(game)
    return engine.view(engine.new_game(players, seed=seed), None)


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


__all__ = ["Event", "IllegalAction", "MoveTemplate", "SetupError", "canonical", "dealt_view", "games", "max_seats", "moves_of",
           "options_model", "read_options", "seat_range", "turn_of", "view_of"]
