"""The Rummy 500 AI at each level (rules/core/levels.py).

- easy: the greedy baseline (`ai.choose_greedy_action`): no market planning (it always takes the
  bank), lays the biggest placement it finds and discards its highest card.
- normal: the AI (`ai.choose_action`), which weighs every market take.
- strong: the AI's take and discard checked by a determinized search over the unseen cards
  (`ai_search`, rules/core/search_pimc.py), the AI playing every seat in the playouts.
"""

from __future__ import annotations

from rules.core.levels import Level, Policy
from rules.rummy500.ai import choose_action, choose_greedy_action
from rules.rummy500.ai_search import choose_strong_action

POLICIES: dict[Level, Policy] = {"easy": choose_greedy_action, "normal": choose_action, "strong": choose_strong_action}
