"""The Tile Canasta hint (issue 16): the AI's move for the viewing seat, with its reason.

The AI partners the team (its melds, the partner's, the pile), so the reason says what the move
lays and for how many points (CAN-60 tile values); a pile take names how many tiles it brings in.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import Add, Discard, JokerButton, Meld, Open, TakePile
from rules.canasta.ai import choose_action
from rules.core.hints import Hint


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """`options` unused: the view holds the thresholds, the pile and the joker button."""
    action = choose_action(view, Random(0))  # deterministic for a view: the same hint when asked again
    if isinstance(action, TakePile):
        return Hint(action, "take_pile", {"tiles": view["pile_size"]})
    if isinstance(action, (Open, Meld)):
        tiles = [t for meld in action.melds for t in meld]
        kind = "open" if isinstance(action, Open) else "meld"
        return Hint(action, kind, {"tiles": len(tiles), "points": m.count_value(tiles)})
    if isinstance(action, Add):
        return Hint(action, "add", {"tiles": len(action.tiles), "points": m.count_value(action.tiles)})
    if isinstance(action, Discard):
        return Hint(action, "discard", {"points": m.value(action.tile)})
    if isinstance(action, JokerButton):
        return Hint(action, "joker_button", {})
    return Hint(action, "draw", {})
