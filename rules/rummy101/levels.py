"""The Rummy 101 AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): always draws from the stock, opens with the
  first melds it finds, lays and adds what it sees and discards its highest tile.
- normal: the AI (`ai.choose_action`).
- strong: the AI too: its meld search is already exact and has no budget to raise, and nothing
  stronger exists yet.
"""

from __future__ import annotations

from rules.core.levels import Level, Policy
from rules.rummy101.ai import choose_action, choose_greedy_action

POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_action}
