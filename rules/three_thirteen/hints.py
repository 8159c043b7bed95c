"""The discard hint (T13-21..23): which discard leaves the least deadwood, and whether it goes out.

A hand of r + 3 cards can be all melds (two sets of three) and still not go out, because one card
must go and every one of them breaks a meld; the hint says so instead of "no deadwood".
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.hints import Hint
from rules.three_thirteen.actions import Discard, TakeDiscard
from rules.three_thirteen.ai import choose_action
from rules.three_thirteen.deadwood import deadwood


def best_discard(hand: Sequence[str], taken: str | None, wild_rank: int, ace_high: bool) -> dict[str, Any] | None:
    """`{"card", "deadwood", "out"}` for the discard leaving the least deadwood (ties: the card
    sorted first, so the hint is stable), or None when no card may be discarded."""
    allowed = sorted({c for c in hand if c != taken or list(hand).count(c) > 1})
    best: tuple[int, str] | None = None
    for card in allowed:
        rest = list(hand)
        rest.remove(card)
        left = deadwood(rest, wild_rank, ace_high)
        if best is None or left < best[0]:
            best = (left, card)
    if best is None:
        return None
    return {"card": best[1], "deadwood": best[0], "out": best[0] == 0}


# ---- the player's hint (issue 16) --------------------------------------------------------------------


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """The AI's move for the viewing seat with the deadwood it leaves (`options` unused: the view
    holds the wild rank and whether aces are high)."""
    action = choose_action(view, Random(0))  # deterministic for a view: the same hint when asked again
    wild, ace_high, hand = view["wild_rank"], view["ace_high"], list(view["hand"])
    if isinstance(action, Discard):
        rest = list(hand)
        rest.remove(action.card)
        left = deadwood(rest, wild, ace_high)
        return Hint(action, "go_out" if left == 0 else "discard", {"deadwood": left})
    if isinstance(action, TakeDiscard):
        top = view["discard_top"]
        after = best_discard([*hand, top], top, wild, ace_high)
        return Hint(action, "take", {"card": top, "deadwood": after["deadwood"] if after else None})
    return Hint(action, "draw", {})
