"""The Tile Canasta AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): never takes the pile, opens as soon as it
  can, melds everything it can (wilds included), discards its most expensive tile and goes out at
  the first chance — whatever that hands the opponents.
- normal: the AI (`ai.choose_action`).
- strong: the AI too: nothing stronger exists yet and it has no search budget to raise.
"""

from __future__ import annotations

from rules.canasta.ai import choose_action, choose_greedy_action
from rules.core.levels import Level, Policy

POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_action}
