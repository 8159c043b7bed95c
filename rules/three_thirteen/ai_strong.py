"""The strong Three-Thirteen AI: the normal AI (`ai`) reading the public record of the pile.

- Its draw expectations leave out the cards known not to be in the stock: the pile below the top
  and what the opponents took from it and still hold (`ai_feeding.out_of_stock`).
- Its discard weighs, beside its own expected deadwood, how likely the next seat is to take the
  card (`ai_feeding.take_chances`), at FEED_COST points per certain take.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.three_thirteen import ai_previous
from rules.three_thirteen.actions import Discard
from rules.three_thirteen.ai import plan_discard
from rules.three_thirteen.ai_basics import discardable, fallback, going_out
from rules.three_thirteen.ai_expect import unseen
from rules.three_thirteen.ai_feeding import out_of_stock, take_chances

FEED_COST = 3.0  # points a discard the next seat surely takes is charged (bench: 3 and 6 alike, 15 worse)


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    """The strong AI's move for the seat whose view this is."""
    pool = unseen(view, out_of_stock(view))
    if view["phase"] == "draw":
        return ai_previous.draw_choice(view, pool)
    out = going_out(view)
    if out is not None:
        return Discard(card=out)

    def charge(cards: list[str]) -> dict[str, float]:
        if view["out"] is not None:  # a last turn (T13-25): nobody takes the card any more
            return dict.fromkeys(cards, 0.0)
        return {c: FEED_COST * p for c, p in take_chances(view, cards, rng).items()}

    pick = plan_discard(view, pool, charge)
    if pick is not None:
        return Discard(card=pick)
    return Discard(card=fallback(view, set(discardable(view))))
