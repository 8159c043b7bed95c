"""The discard hint (T13-21..23): which discard leaves the least deadwood, and whether it goes out.

A hand of r + 3 cards can be all melds (two sets of three) and still not go out, because one card
must go and every one of them breaks a meld; the hint says so instead of "no deadwood".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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
