"""The Three-Thirteen AI at each level (rules/core/levels.py).

- easy: a casual player, weaker than the greedy baseline: it never reads the discard pile (it takes
  the top card only when it is wild) and throws its costliest loose card. The greedy baseline also
  takes a top card that melds at once, and measured too close to the AI to be an easy opponent
  (bench/bench_ai_levels.py, 200 matches on deals from seed 50000: the AI won 56.5% against greedy,
  paired margin +7.5 +/- 3.1 points; against this player 83.5%, +44.1 +/- 4.1).
- normal: the AI (`ai.choose_action`), which discards by the expected deadwood after the next draw.
- strong: the AI's draw and discard checked by a determinized search (`ai_search`,
  rules/core/search_pimc.py): the other hands and the stock dealt from the unseen cards (those the
  pile record puts in a hand kept there), a few turns played on by the greedy baseline, the
  normal choice replaced only when another is clearly better on the same deals. The AI reading the
  pile record (`ai_strong`), the strong level before, measured no stronger than normal.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.levels import Level, Policy
from rules.three_thirteen.actions import DrawStock, TakeDiscard
from rules.three_thirteen.ai import choose_action
from rules.three_thirteen.ai_greedy import costliest_discard
from rules.three_thirteen.ai_search import choose_strong_action
from rules.three_thirteen.deadwood import is_wild


def choose_casual_action(view: dict[str, Any], rng: Random) -> Action:
    """Easy: the stock unless the top discard is wild; then the greedy baseline's discard."""
    if view["phase"] == "draw":
        top = view["discard_top"]
        wanted = top is not None and is_wild(top, view["wild_rank"])
        return TakeDiscard() if wanted or not view["can_draw_stock"] else DrawStock()
    return costliest_discard(view)


POLICIES: dict[Level, Policy] = {"easy": choose_casual_action, "normal": choose_action, "strong": choose_strong_action}
