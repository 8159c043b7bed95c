"""AI difficulty levels (issue 16): the same three names in every game, chosen per AI seat.

- easy: a casual player. Each game's greedy baseline: it lays what it spots on its own hand, never
  plans (no table rearrangement in Rummikub, no market in Rummy 500) and throws its costliest loose
  card. In Three-Thirteen, where greedy plays nearly as well as the AI, a weaker casual player that
  never takes from the pile but a wild (rules/three_thirteen/levels.py).
- normal: the game's AI as it has always played.
- strong: the best the game has. Where the AI searches within a budget (Rummikub's exact solver) it
  is the normal AI with a larger budget; where nothing stronger exists yet it is the normal AI.
  Each game's `levels.py` says which.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from random import Random
from typing import Any, Literal, get_args

from rules.core.engine import Action
from rules.core.errors import SetupError

Level = Literal["easy", "normal", "strong"]
LEVELS: tuple[Level, ...] = get_args(Level)
DEFAULT_LEVEL: Level = "normal"

Policy = Callable[[dict[str, Any], Random], Action]


def check_level(level: object) -> Level:
    """`level` as a Level ("Strong" and " easy " too); `SetupError` naming the levels otherwise."""
    text = level.strip().casefold() if isinstance(level, str) else level
    for known in LEVELS:
        if text == known:
            return known
    raise SetupError(f"AI level must be one of {', '.join(LEVELS)}, not {level!r}", "E_BAD_LEVEL",
                     got=str(level), levels=list(LEVELS))


def policy_for(policies: Mapping[Level, Policy], level: str) -> Policy:
    """The game's policy for `level` (checked: a typo is an error, never a silent normal AI)."""
    return policies[check_level(level)]
