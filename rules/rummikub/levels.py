"""The Rummikub AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): runs by colour, then groups, then a joker
  pair, as a hasty player spots them on the rack; it never rearranges or extends the table.
- normal: the AI (`ai.choose_action`): the exact solver within `ai.SOLVER_BUDGET` states, the
  heuristic plans past it.
- strong: nothing stronger than the AI exists yet, so it is the AI with ten times the solver's
  budget: fewer dense tables fall back on the heuristic plans.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.levels import Level, Policy
from rules.rummikub.ai import SOLVER_BUDGET, choose_action, choose_greedy_action

STRONG_SOLVER_BUDGET = 10 * SOLVER_BUDGET


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    return choose_action(view, rng, solver_budget=STRONG_SOLVER_BUDGET)


POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_strong_action}
