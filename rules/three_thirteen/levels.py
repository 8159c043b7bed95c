"""The Three-Thirteen AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): takes the pile only for a wild or a card
  that melds at once, and discards its costliest loose card.
- normal: the AI (`ai.choose_action`), which discards by the expected deadwood after the next draw.
- strong: the AI too: nothing stronger exists yet and it has no search budget to raise.
"""

from __future__ import annotations

from rules.core.levels import Level, Policy
from rules.three_thirteen.ai import choose_action, choose_greedy_action

POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_action}
