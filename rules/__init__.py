"""Pure game engines. No I/O, no clock, no global random (ARCHITECTURE.md, "Layers")."""

from __future__ import annotations

from functools import cache
from importlib import import_module
from importlib.util import find_spec

from rules.core import Action, Engine, Event, GameOptions, IllegalAction, RoundResult, SetupError, State

# Every game the project knows, in menu order. A game is playable once its package `rules.<name>`
# exists and exposes `ENGINE`; adding a game needs no change here or in any adapter.
KNOWN_GAMES = ("rummikub", "rummy101", "rummy500", "canasta", "three_thirteen")


@cache
def _present() -> tuple[str, ...]:
    # Looked up once per process: `find_spec` walks the import path (~70 µs for the five games), and
    # the service asks for an engine several times per action.
    return tuple(name for name in KNOWN_GAMES if find_spec(f"rules.{name}") is not None)


def engine_names() -> list[str]:
    """The games whose engines are present, in menu order."""
    return list(_present())


def get_engine(name: str) -> Engine:
    """The engine for a game name; `KeyError` naming the available games otherwise."""
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in _present():
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(engine_names())}")
    return import_module(f"rules.{key}").ENGINE


__all__ = [
    "Action", "Engine", "Event", "GameOptions", "IllegalAction", "RoundResult", "SetupError", "State",
    "engine_names", "get_engine",
]
