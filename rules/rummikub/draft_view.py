"""What a player sees of their draft (RK-26): each meld marked valid or not, the opening total so far,
and, after each draft command, just what that command changed."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.core.tiles import sorted_tiles
from rules.rummikub.melds import InvalidMeld, analyse


def draft_view(state: State) -> dict[str, Any]:
    """The draft with each meld marked valid or not, and the running initial-meld total (RK-26)."""
    current = state["draft"]
    t0 = [analyse(m["tiles"], m.get("prefix")) for m in state["table"]]
    remaining_t0 = {}
    for info in t0:
        key = (info.type, info.tiles)
        remaining_t0[key] = remaining_t0.get(key, 0) + 1
    melds, new_total = [], 0
    for m in current["table"]:
        entry: dict[str, Any] = {"tiles": list(m["tiles"]), "prefix": m.get("prefix"), "valid": True}
        try:
            info = analyse(m["tiles"], m.get("prefix"))
        except InvalidMeld as err:
            entry.update(valid=False, reason=err.reason, value=0)
        else:
            entry.update(type=info.type, value=info.value)
            key = (info.type, info.tiles)
            if remaining_t0.get(key, 0) > 0:
                remaining_t0[key] -= 1  # unchanged from the turn-start table: not new
            else:
                new_total += info.value
        melds.append(entry)
    return {"melds": melds, "rack": sorted_tiles(current["rack"]), "new_value": new_total}


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
