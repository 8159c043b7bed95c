"""The parts of a Rummikub view that take work: the table's melds analysed, the draft checked, and
the best opening a rack holds. Each is a pure function of content, so the caches here are keyed by
that content only (a meld's tiles, one rack) and bounded: two tables with the same meld share its
analysis, and nothing of one seat's rack can reach another seat's view."""

from __future__ import annotations

from typing import Any

from rules.core.engine import State
from rules.core.memo import content_cache
from rules.core.tiles import number_key, sorted_tiles
from rules.rummikub.ai import best_opening_value
from rules.rummikub.melds import InvalidMeld, meld_info

RACK_CACHE = 1 << 14


def meld_view(meld: dict) -> dict[str, Any]:
    info = meld_info(tuple(meld["tiles"]), meld.get("prefix"))
    return {"tiles": list(meld["tiles"]), "prefix": meld.get("prefix"), "type": info.type, "value": info.value}


@content_cache(RACK_CACHE)
def _best_opening(rack: tuple[str, ...]) -> int:
    return best_opening_value(list(rack))


def best_opening(rack: list[str]) -> int:
    """The best initial meld in `rack` (the search behind the hint), once per rack content: a rack
    that did not change since the last outcome (every seat but the mover's) costs a lookup."""
    return _best_opening(tuple(sorted(rack)))


@content_cache(RACK_CACHE)
def _rack_orders(rack: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return tuple(sorted_tiles(rack)), tuple(sorted(rack, key=number_key))


def rack_orders(rack: list[str]) -> tuple[list[str], list[str]]:
    """The rack by colour and by number, as new lists: sorting with a key function costs more than a
    lookup, and every seat but the mover's shows the rack it showed last time."""
    by_colour, by_number = _rack_orders(tuple(sorted(rack)))
    return list(by_colour), list(by_number)


def draft_view(state: State) -> dict[str, Any]:
    """The draft with each meld marked valid or not, and the running initial-meld total (RK-26)."""
    current = state["draft"]
    remaining_t0: dict[tuple[str, tuple[str, ...]], int] = {}
    for m in state["table"]:
        info = meld_info(tuple(m["tiles"]), m.get("prefix"))
        key = (info.type, info.tiles)
        remaining_t0[key] = remaining_t0.get(key, 0) + 1
    melds, new_total = [], 0
    for m in current["table"]:
        entry: dict[str, Any] = {"tiles": list(m["tiles"]), "prefix": m.get("prefix"), "valid": True}
        try:
            info = meld_info(tuple(m["tiles"]), m.get("prefix"))
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
