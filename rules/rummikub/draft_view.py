"""After each draft command, just what that command changed (the draft itself, each meld marked valid
or not with the opening total so far, is `views.draft_view`)."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.core.tiles import sorted_tiles
from rules.rummikub.views import draft_view


def draft_step(state: State, seat: int, before: list[list[str]]) -> dict[str, Any]:
    """What one draft command changed, for the player's note: the melds whose number now holds other
    tiles (or is new), the rack, and the opening total; `reset` says so instead."""
    opened, required = state["opened"][seat], state["options"]["initial_meld_min"]
    if state["draft"] is None:
        rack = sorted_tiles(state["racks"][seat])
        return {"reset": True, "changed": [], "removed": [], "rack": rack, "opened": opened, "required": required}
    view = draft_view(state)
    changed = [
        {"n": n, **meld}
        for n, meld in enumerate(view["melds"], start=1)
        if n > len(before) or meld["tiles"] != before[n - 1]
    ]
    return {
        "reset": False,
        "changed": changed,
        # Numbers past the end that no longer hold a meld (a move emptied one and the rest moved up).
        "removed": list(range(len(view["melds"]) + 1, len(before) + 1)),
        "rack": view["rack"],
        "new_value": view["new_value"],
        "opened": opened,
        "required": required,
    }
