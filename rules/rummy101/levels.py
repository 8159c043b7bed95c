"""The Rummy 101 AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): always draws from the stock, opens with the
  first melds it finds, lays and adds what it sees and discards its highest tile.
- normal: the AI (`ai.choose_action`).
- strong: the AI's draw and discard checked by a determinized search over the unseen tiles
  (`ai_search`, rules/core/search_pimc.py), the AI playing every seat in the playouts.
"""

from __future__ import annotations

from rules.core.levels import Level, Policy
from rules.rummy101.ai import choose_action, choose_greedy_action
from rules.rummy101.ai_search import choose_strong_action

POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_strong_action}
