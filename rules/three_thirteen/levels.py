"""The Three-Thirteen AI at each level (rules/core/levels.py).

- easy: a casual player, weaker than the greedy baseline: it never reads the discard pile (it takes
  the top card only when it is wild) and throws its costliest loose card. The greedy baseline also
  takes a top card that melds at once, and measured too close to the AI to be an easy opponent
  (bench/bench_ai_levels.py, 200 matches on deals from seed 50000: the AI won 56.5% against greedy,
  paired margin +7.5 +/- 3.1 points; against this player 83.5%, +44.1 +/- 4.1).
- normal: the AI (`ai.choose_action`), which discards by the expected deadwood after the next draw.
- strong: the AI too: nothing stronger exists yet and it has no search budget to raise.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.levels import Level, Policy
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.ai import choose_action
from rules.three_thirteen.ai_basics import discardable, fallback, going_out
from rules.three_thirteen.deadwood import card_value, is_wild


def choose_casual_action(view: dict[str, Any], rng: Random) -> Action:
    """Easy: the stock unless the top discard is wild; out when it can; else the costliest loose card."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    if view["phase"] == "draw":
        top = view["discard_top"]
        wanted = top is not None and is_wild(top, wild)
        return TakeDiscard() if wanted or not view["can_draw_stock"] else DrawStock()
    out = going_out(view)
    if out is not None:
        return Discard(card=out)
    allowed = set(discardable(view))
    loose = [c for c in view["deadwood_cards"] if c in allowed and not is_wild(c, wild)]
    if loose:
        return Discard(card=max(loose, key=lambda c: (card_value(c, wild, ace_high), c)))
    return Discard(card=fallback(view, allowed))


POLICIES: dict[Level, Policy] = {"easy": choose_casual_action, "normal": choose_action, "strong": choose_action}
