"""The Rummikub hint (issue 16): the exact solver's best play for the rack.

Before the initial meld: the highest-scoring opening from the rack alone (`solve_opening`, RK-41/42),
or why there is none (the best the rack reaches against the minimum). After it: the play that lays
the most rack tiles, then the most points, rearranging the whole table (`solve`, RK-45). Unlike the
AI it does not hold jokers back: a hint shows the most the rack can do. A table too dense for the
solver's budget gets the AI's own choice instead (`reason` says which).
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.hints import Hint
from rules.rummikub.actions import Draw, MeldSpec, Pass, Play
from rules.rummikub.ai import best_opening_value, choose_action
from rules.rummikub.melds import analyse
from rules.rummikub.solver import OverBudget, solve, solve_opening

# Sweep states for one hint: a player asks rarely and waits for the answer, so more than a turn of
# the AI (rules/rummikub/ai.py SOLVER_BUDGET) may be spent.
HINT_BUDGET = 200_000


def _no_play(view: dict[str, Any]) -> Action:
    return Draw() if view["pool"] > 0 else Pass()


def _play(melds: list[dict[str, Any]]) -> Play:
    return Play(melds=tuple(MeldSpec(tiles=tuple(m["tiles"]), prefix=m.get("prefix")) for m in melds))


def _placed(table: list[dict[str, Any]], play: Play) -> int:
    after = Counter(t for m in play.melds for t in m.tiles)
    return sum((after - Counter(t for m in table for t in m["tiles"])).values())


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """The best move for the viewing seat's rack (`options` unused: the view holds the threshold)."""
    rack, table = list(view["rack"]), view["table"]
    if not view["opened"][view["you"]]:
        minimum = view["initial_meld_min"]
        melds = solve_opening(rack, minimum)
        if not melds:
            return Hint(_no_play(view), "no_opening", {"points": best_opening_value(rack), "need": minimum})
        points = sum(analyse(m["tiles"], m.get("prefix")).value for m in melds)
        play = _play([*table, *melds])
        return Hint(play, "open", {"points": points, "tiles": sum(len(m["tiles"]) for m in melds), "need": minimum})
    try:
        found = solve(table, rack, budget=HINT_BUDGET)
    except OverBudget:
        action = choose_action(view, Random(0))  # the AI's choice: deterministic for a view
        if not isinstance(action, Play):
            return Hint(action, "nothing_fits_search", {})
        placed = _placed(table, action)
        return Hint(action, "play_search", {"tiles": placed, "left": len(rack) - placed})
    if found is None:
        return Hint(_no_play(view), "nothing_fits", {})
    left = len(rack) - len(found.placed)
    return Hint(_play(found.melds), "play_out" if left == 0 else "play", {"tiles": len(found.placed), "left": left})


# ---- suggestions (issue 25) ------------------------------------------------------------------------


def suggestions(view: dict[str, Any]) -> list[Hint]:
    """The AI's play for this rack and table (its solver within a turn's budget), one press away:
    a whole layout, the draft staying the way to build one by hand. From the view only."""
    me = view.get("you")
    if me is None or view.get("turn") != me:
        return []
    action = choose_action(view, Random(0))  # deterministic for a view
    if not isinstance(action, Play):
        return []
    placed = _placed(view["table"], action)
    reason = "open" if not view["opened"][me] else "play_out" if placed == len(view["rack"]) else "play"
    return [Hint(action, reason, {"tiles": placed, "left": len(view["rack"]) - placed,
                                  "points": _opening_points(view["table"], action) if reason == "open" else 0})]


def _opening_points(table: list[dict[str, Any]], play: Play) -> int:
    """What the melds an opening play adds to the table count (RK-41)."""
    kept = Counter(tuple(m["tiles"]) for m in table)
    points = 0
    for meld in play.melds:
        if kept[meld.tiles]:
            kept[meld.tiles] -= 1
            continue
        points += analyse(list(meld.tiles), meld.prefix).value
    return points
