"""The Tile Canasta hint (issue 16): the AI's move for the viewing seat, with its reason.

The AI partners the team (its melds, the partner's, the pile), so the reason says what the move
lays and for how many points (CAN-60 tile values); a pile take names how many tiles it brings in.
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import Add, Discard, JokerButton, Meld, Open, TakePile
from rules.canasta.ai import choose_action, plan_opening, take_option
from rules.core.engine import Action
from rules.core.hints import Hint


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """`options` unused: the view holds the thresholds, the pile and the joker button."""
    return hint_for(choose_action(view, Random(0)), view)  # deterministic for a view: the same hint again


def hint_for(action: Action, view: dict[str, Any]) -> Hint:
    """An action of the AI's with its reason."""
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


# ---- suggestions (issue 25) ------------------------------------------------------------------------

MAX_SUGGESTIONS = 4


def _suggested(action: Action, view: dict[str, Any]) -> Hint:
    if isinstance(action, TakePile):
        tiles = [view["top"], *action.tiles, *(t for meld in action.melds for t in meld)]
        return Hint(action, "take_pile", {"tiles": view["pile_size"], "points": m.count_value(tiles)})
    return hint_for(action, view)


def suggestions(view: dict[str, Any]) -> list[Hint]:
    """The seat's compound moves one press away: the AI's pile take, opening or melds (its own
    search), the pile take this hand can make with the opening it needs, and the richest opening
    that reaches the team's threshold. From the view only."""
    me = view.get("you")
    if me is None or view.get("turn") != me or view.get("phase") not in ("draw", "play"):
        return []
    found: list[Action] = []
    ai = choose_action(view, Random(0))
    if isinstance(ai, (TakePile, Open, Meld)):
        found.append(ai)
    if view["phase"] == "draw":
        take = take_option(view)
        if take is not None:
            found.append(take)
    elif not view["opened"][view["team"]]:
        plan = plan_opening(list(view["hand"]), view["thresholds"][view["team"]])
        if plan is not None and len(view["hand"]) - sum(len(meld) for meld in plan[0]) >= 2:
            found.append(Open(melds=tuple(tuple(meld) for meld in plan[0])))
    return [_suggested(a, view) for a in list(dict.fromkeys(found))[:MAX_SUGGESTIONS]]
