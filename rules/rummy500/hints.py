"""The Rummy 500 hint (issue 16): the AI's move for the viewing seat, with its reason.

The AI weighs every market take against the bank (rules/rummy500/ai.py), so the reason says what
the move lays and for how many points; a take names the market card it is for.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.hints import Hint
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeMarket
from rules.rummy500.ai import choose_action
from rules.rummy500.melds import card_value


def _points(cards: tuple[str, ...], view: dict[str, Any]) -> int:
    return sum(card_value(c, view["joker_hand_penalty"]) for c in cards)


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """`options` unused: the view holds what the AI weighs (the bank, the market, the joker's cost)."""
    action = choose_action(view, Random(0))  # deterministic for a view: the same hint when asked again
    if isinstance(action, TakeMarket):
        laid = tuple(c for lay in action.lays for c in lay.cards)
        return Hint(action, "market", {"cards": len(laid), "points": _points(laid, view)})
    if isinstance(action, Lay):
        left = len(view["hand"]) - len(action.cards)
        return Hint(action, "lay_out" if left == 0 else "lay", {"cards": len(action.cards),
                                                                 "points": _points(action.cards, view)})
    if isinstance(action, Discard):
        return Hint(action, "discard", {"points": card_value(action.card, view["joker_hand_penalty"])})
    if isinstance(action, End):
        return Hint(action, "end", {})
    if isinstance(action, Stop):
        return Hint(action, "stop", {})
    return Hint(action, "bank", {})


# ---- suggestions (issue 25) ------------------------------------------------------------------------


def suggestions(view: dict[str, Any]) -> list[Hint]:
    """The seat's market take that pays best or its best lay, one press away (the AI's own weighing
    of every market take against the bank, rules/rummy500/ai.py). From the view only."""
    me = view.get("you")
    if me is None or view.get("turn") != me or view.get("phase") not in ("take", "bank", "market"):
        return []
    action = choose_action(view, Random(0))
    if isinstance(action, TakeMarket):
        laid = tuple(c for lay in action.lays for c in lay.cards)
        target = next((e["target"] for e in view.get("takes") or [] if e["pos"] == action.pos), action.target)
        return [Hint(action, "market", {"pos": action.pos, "target": target, "cards": len(laid),
                                        "points": _points(laid, view)})]
    if isinstance(action, Lay):
        return [hint(view)]
    return []
