"""Rummy 101 views: the public part (what a spectator sees) and each seat's own part (its hand, the
best opening it holds, a ready take command), as `MatchEngine.view`/`views` put them together."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.core.engine import Action, State
from rules.core.state import clone
from rules.core.tiles import number_key, sorted_tiles
from rules.rummy101 import melds as M
from rules.rummy101.actions import format_action
from rules.rummy101.hints import take_hint
from rules.rummy101.search import best_opening

UNOPENED = "unopened"
Apply = Callable[[State, int, Action], Any]


def public_view(state: State, game: str, turn: int | None) -> dict[str, Any]:
    """What everyone sees: never a hand in play, the stock order or the seed."""
    over = state["round_over"]
    opts = state["options"]
    v: dict[str, Any] = {
        "game": game,
        "round": state["round"],
        "match_rounds": opts["match_rounds"],
        "seats": state["seats"],
        "turn": turn,
        "phase": state["phase"],
        "first_turn": state["first_turn"],
        "table": [_meld_view(i, m) for i, m in enumerate(state["table"], start=1)],
        "stock": len(state["stock"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "discard_size": len(state["discard"]),
        "can_take": bool(state["takable"] and state["discard"] and state["phase"] == "draw" and not over),
        "hand_sizes": [len(h) for h in state["hands"]],
        "status": list(state["status"]),
        "thresholds": dict(state["thresholds"]),
        "threshold_mode": opts["threshold_mode"],
        "joker_button": opts["joker_button"],
        "joker_used": list(state["joker_used"]),
        "last_stock": state["last_stock"],
        "totals": list(state["totals"]),
        "round_over": clone(over) if over else None,
        "match_over": state["match_over"],
        "match_winners": list(state["match_winners"]),
    }
    if over:
        v["revealed"] = [sorted_tiles(h) for h in state["hands"]]
    return v


def seat_view(state: State, seat: int, apply: Apply | None) -> dict[str, Any]:
    """`seat`'s hand; before opening, the best opening it holds (cached by hand content); on its
    draw, a ready take command — only when one is legal (tried with `apply`, the engine's), and
    only when `apply` is given (the AI never reads the hint, and trying the takes is most of a
    view's work)."""
    hand = state["hands"][seat]
    on_draw = state["turn"] == seat and state["phase"] == "draw" and not state["round_over"]
    take = take_hint(state, seat, apply) if on_draw and apply is not None else None
    return {
        "hand": sorted_tiles(hand),
        "hand_by_number": sorted(hand, key=number_key),
        "best_opening": best_opening(hand) if state["status"][seat] == UNOPENED else None,
        "take_hint": None if take is None else format_action(take),
    }


def _meld_view(n: int, meld: M.Meld) -> dict[str, Any]:
    # The stored record is public (owner, kind, run colour/start, set number, pair tile); views add
    # what the spec prints: the number, the joker representations and the value.
    return {**meld, "tiles": list(meld["tiles"]), "n": n, "shown": M.shown(meld), "value": M.meld_value(meld)}
