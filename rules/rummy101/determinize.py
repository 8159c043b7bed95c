"""A full Rummy 101 state from one seat's view, its hidden zones dealt at random
(rules/core/search_pimc.py).

The seat sees its hand, the table and the top of the discard pile; the other hands, the stock and
the pile below its top (the view keeps no record of it) are dealt from the rest of the tiles, in
the sizes the view shows. The set holds two jokers plus one per Joker button pressed (R101-19).
Whether anyone had opened when this turn began (a one-turn finish's ×2, R101-46) is read from
the statuses: exact on a draw, and on a play unless the seat opened during this very turn (then a
sample misses the ×2 of finishing in the same turn).
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import State
from rules.core.search_pimc import deal_hidden, unseen
from rules.core.tiles import JOKER, tile_set
from rules.rummy101.options import Rummy101Options

UNOPENED = "unopened"
_VIEW_ONLY = ("n", "shown", "value")


def determinize(view: dict[str, Any], rng: Random) -> State:
    """A state `view`'s seat could be in: what it sees as it is, every tile it cannot see dealt at
    random to the other hands, the stock and the pile under its top tile."""
    me, seats = view["you"], view["seats"]
    table = [{k: v for k, v in m.items() if k not in _VIEW_ONLY} for m in view["table"]]
    top = view["discard_top"]
    seen = [*view["hand"], *(t for m in table for t in m["tiles"]), *([top] if top is not None else [])]
    full = tile_set(jokers=2) + [JOKER] * sum(view["joker_used"])
    pool = unseen(full, seen)
    others = [s for s in range(seats) if s != me]
    under = max(view["discard_size"] - 1, 0)
    zones = deal_hidden(pool, [view["hand_sizes"][s] for s in others] + [view["stock"], under], None, rng)
    hands: list[list[str]] = [[] for _ in range(seats)]
    hands[me] = list(view["hand"])
    for s, zone in zip(others, zones, strict=False):
        hands[s] = zone
    options = Rummy101Options(threshold_mode=view["threshold_mode"], joker_button=view["joker_button"],
                              match_rounds=view["match_rounds"], allow_draw=False)
    status = list(view["status"])
    return {
        "game": "rummy101",
        "options": options.model_dump(),
        "seed": 0,
        "deck": None,
        "seats": seats,
        "round": view["round"],
        "starter": 0,
        "totals": list(view["totals"]),
        "history": [],
        "match_over": view["match_over"],
        "match_winners": list(view["match_winners"]),
        "turn": view["turn"],
        "phase": view["phase"],
        "first_turn": view["first_turn"],
        "hands": hands,
        "stock": zones[-2],
        "discard": zones[-1] + ([top] if top is not None else []),
        "takable": view["can_take"],
        "table": table,
        "status": status,
        "thresholds": dict(view["thresholds"]),
        "joker_used": list(view["joker_used"]),
        "opened_before_turn": any(st != UNOPENED for st in status),
        "last_stock": view["last_stock"],
        "round_over": None,
    }
