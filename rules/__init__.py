"""Pure game engines. No I/O, no clock, no global random (ARCHITECTURE.md, "Layers")."""

from __future__ import annotations

from importlib import import_module

from rules.core import Action, Engine, Event, GameOptions, IllegalAction, RoundResult, SetupError, State

# Engines register here by name; each module exposes `ENGINE`. Later games add one line.
_ENGINE_MODULES: dict[str, str] = {
    "rummikub": "rules.rummikub",
}


def engine_names() -> list[str]:
    return list(_ENGINE_MODULES)


def get_engine(name: str) -> Engine:
    """The engine for a game name; `KeyError` naming the known games otherwise."""
    module_name = _ENGINE_MODULES.get(name.strip().lower())
    if module_name is None:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(_ENGINE_MODULES)}")
    return import_module(module_name).ENGINE


__all__ = [
    "Action", "Engine", "Event", "GameOptions", "IllegalAction", "RoundResult", "SetupError", "State",
    "engine_names", "get_engine",
]
