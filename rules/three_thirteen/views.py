"""Three-Thirteen views: the public part (T13-05/15) and each seat's own part (its hand, its best
grouping and deadwood, the best discard on its turn), as `MatchEngine.view`/`views` put them together."""

from __future__ import annotations

from typing import Any

from rules.core.cards import sorted_cards
from rules.core.engine import State
from rules.core.state import clone
from rules.three_thirteen.deadwood import arrange, rank_name, wild_rank_for_round
from rules.three_thirteen.hints import best_discard


def hand_size(round_number: int) -> int:
    """T13-11: round r deals r + 2 cards."""
    return round_number + 2


def can_draw_stock(state: State) -> bool:
    """A draw from the stock is possible: the stock holds cards, or the discard pile can rebuild it."""
    return bool(state["stock"]) or len(state["discard"]) > 1



def public_view(state: State, game: str, turn: int | None) -> dict[str, Any]:
    """What everyone sees (T13-05/15): never a hand while a round is in play, never the stock
    order or the seed."""
    opts = state["options"]
    wild = wild_rank_for_round(state["round"])
    over = state["round_over"]
    v: dict[str, Any] = {
        "game": game,
        "round": state["round"],
        "rounds": opts["rounds"],
        "seats": state["seats"],
        "dealer": state["dealer"],
        "turn": turn,
        "phase": state["phase"],
        "hand_size": hand_size(state["round"]),
        "wild_rank": wild,
        "wild": rank_name(wild),
        "ace_high": opts["ace_high"],
        "jokers": opts["jokers"],
        "turn_timer_s": opts["turn_timer_s"],
        "stock": len(state["stock"]),
        "discard_top": state["discard"][-1] if state["discard"] else None,
        "discard_size": len(state["discard"]),
        "can_draw_stock": can_draw_stock(state),
        "taken": state["taken"],
        "hand_sizes": [len(h) for h in state["hands"]],
        "out": state["out"],
        "last_turns_left": state["last_turns"],
        "totals": list(state["totals"]),
        "history": [list(h) for h in state["history"]],
        "round_over": clone(over) if over else None,
        "match_over": state["match_over"],
        "match_winners": list(state["match_winners"]),
        # Every throw and take is public (rules/three_thirteen/pile_record.py); none before it existed.
        "pile_log": [list(e) for e in state.get("pile_log", [])],
    }
    return v


def seat_view(state: State, seat: int, public: dict[str, Any], hint: bool = True) -> dict[str, Any]:
    """`seat`'s hand with its best grouping and deadwood (`arrange` remembers hands by content), and
    on its discard the best discard (a hint shown only when it applies, and only with `hint`: the AI
    never reads it)."""
    hand = state["hands"][seat]
    wild, ace_high = public["wild_rank"], state["options"]["ace_high"]
    arr = arrange(hand, wild, ace_high)
    on_discard = state["turn"] == seat and state["phase"] == "discard"
    return {
        "hand": sorted_cards(hand),
        "melds": [list(m) for m in arr.melds],
        "deadwood_cards": list(arr.deadwood_cards),
        "deadwood": arr.deadwood,
        "drawn": state["drawn"] if state["turn"] == seat else None,
        "best_discard": best_discard(hand, state["taken"], wild, ace_high) if on_discard and hint else None,
    }
