"""Shared pieces of every game engine: notation, decks, the engine contract, errors."""

from rules.core.engine import Action, Engine, Event, GameOptions, RoundResult, State
from rules.core.errors import IllegalAction, SetupError

__all__ = ["Action", "Engine", "Event", "GameOptions", "IllegalAction", "RoundResult", "SetupError", "State"]
