"""The moves one Three-Thirteen seat can make now (spec §13), from that seat's view only."""

from __future__ import annotations

from typing import Any

from rules.core.moves import MoveTemplate, items

KEY = "move.three_thirteen."


def moves(view: dict[str, Any]) -> list[MoveTemplate]:
    seat = view.get("you")
    on_turn = seat is not None and view.get("turn") == seat
    phase = view.get("phase") if on_turn else None
    hand: list[str] = list(view.get("hand") or [])
    taken = view.get("taken")
    # T13-22 / D-02: the card just taken from the discard may not go straight back (unless held twice).
    fits = [c for c in hand if c != taken or hand.count(c) > 1]
    return [
        MoveTemplate(verb="draw", label_key=KEY + "draw", available=phase == "draw" and bool(view.get("can_draw_stock"))),
        MoveTemplate(verb="take", label_key=KEY + "take", available=phase == "draw" and view.get("discard_top") is not None),
        MoveTemplate(verb="discard", slots=(items(1, 1, fits),), label_key=KEY + "discard",
                     available=phase == "discard" and bool(fits)),
    ]
