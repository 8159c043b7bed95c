"""The Three-Thirteen greedy baseline: it takes the pile only for a wild or an immediate deadwood cut
(the top card in a meld), and discards the highest-value loose card (ties by card name)."""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.ai_basics import discardable, fallback, going_out, with_card
from rules.three_thirteen.deadwood import card_value, is_wild


def choose_greedy_action(view: dict[str, Any], rng: Random) -> Action:
    """The baseline: pile only for a wild or an immediate deadwood cut; discard the costliest loose card."""
    wild = view["wild_rank"]
    if view["phase"] == "draw":
        top = view["discard_top"]
        take = top is not None and (is_wild(top, wild) or _immediate_cut(view))
        return TakeDiscard() if take or not view["can_draw_stock"] else DrawStock()
    return costliest_discard(view)


def costliest_discard(view: dict[str, Any]) -> Action:
    """Out when it can; else the costliest loose card (no wild), or what the rules leave."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    out = going_out(view)
    if out is not None:
        return Discard(card=out)
    allowed = set(discardable(view))
    loose = [c for c in view["deadwood_cards"] if c in allowed and not is_wild(c, wild)]
    if loose:
        return Discard(card=max(loose, key=lambda c: (card_value(c, wild, ace_high), c)))
    return Discard(card=fallback(view, allowed))


def _immediate_cut(view: dict[str, Any]) -> bool:
    """The top card melds in the best arrangement of hand + top, and throwing the costliest loose
    card afterwards leaves less deadwood than now."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    top = view["discard_top"]
    total, loose = with_card(view, top)
    if top in loose:
        return False
    worst = max((card_value(c, wild, ace_high) for c in loose), default=0)
    return total - worst < view["deadwood"]
