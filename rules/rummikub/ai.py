"""Rummikub AI (spec shared/rules/rummikub.md): picks a legal action from one seat's view only.

Design:
- The rack-only search is exact (rules/rummikub/rack_search.py).
- Before opening: the highest initial meld with the fewest jokers that still reaches the minimum;
  the table is written back untouched (RK-41, C6).
- After opening: the exact solver (rules/rummikub/solver.py, issue 16) within a state budget; past
  the budget, the heuristic plans (rules/rummikub/table_plans.py). The best plan by (goes out, tiles
  played, jokers kept, value) that `validate_play` accepts is played; otherwise draw (or pass when
  the pool is empty).
- The greedy baseline, the easy level: rules/rummikub/greedy.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.tiles import JOKER
from rules.rummikub.ai_plays import is_opened, no_play, play_or_none, untouched
from rules.rummikub.greedy import choose_greedy_action
from rules.rummikub.rack_search import KEEP_JOKERS, Weights, best_opening_value, opening_melds
from rules.rummikub.solver import OverBudget, Solution, solve
from rules.rummikub.table_plans import opened_plans, plan_layout

# DP states the exact solver may create on one turn before the AI falls back on the table plans
# (a dense table with two jokers can need far more; the fallback keeps every turn bounded). The sweep
# counts its cheaper states unpruned within a number since issue 16's speed-up: 30 000 falls back on
# 1 of the 200 bench positions (20 000 did on 6) and stays under 70 ms CPU where 20 000 took 224 ms before.
SOLVER_BUDGET = 30_000


def _solved(table: Sequence[dict[str, Any]], rack: Sequence[str], pool: int,
            budget: int = SOLVER_BUDGET) -> Solution | None:
    """Issue 16: the exact solver's table, the most rack tiles then the most points. A joker is kept
    back as before (`KEEP_JOKERS`) unless the tiles it frees are worth it, laying it empties the rack,
    or the pool is empty (a joker left on the rack costs 30, RK-71)."""
    best = solve(table, rack, budget=budget)
    jokers = 0 if best is None else best.placed.count(JOKER)
    if best is None or not jokers or pool == 0 or len(best.placed) == len(rack):
        return best
    kept = solve(table, rack, rack_jokers=0, budget=budget)
    numbered = len(best.placed) - jokers
    with_jokers = KEEP_JOKERS.numbered * numbered + KEEP_JOKERS.joker * jokers
    if kept is None:
        return best if with_jokers > 0 else None
    return best if with_jokers > KEEP_JOKERS.numbered * len(kept.placed) else kept


def choose_action(view: dict[str, Any], rng: Random, solver_budget: int = SOLVER_BUDGET) -> Action:
    """The AI's action for the seat whose view this is (its own rack and the public table only).

    Deterministic for a given view; `rng` is accepted for the engine contract (tie-breaks may use it).
    `solver_budget`: the exact solver's states before the heuristic plans take over (the strong
    level gives it more, rules/rummikub/levels.py).
    """
    rack = list(view["rack"])
    table = view["table"]
    if not is_opened(view):
        melds = opening_melds(rack, view["initial_meld_min"])
        if melds:
            layout = untouched(table) + [{"tiles": list(m.tiles), "prefix": m.prefix} for m in melds]
            play = play_or_none(view, layout, opened=False)
            if play is not None:
                return play
        return no_play(view)
    try:
        found = _solved(table, rack, view["pool"], solver_budget)
    except OverBudget:
        found = None
    else:
        if found is None:
            return no_play(view)  # exact: nothing worth laying (or no rack tile fits at all)
        play = play_or_none(view, [{"tiles": m["tiles"], "prefix": m["prefix"]} for m in found.melds], True)
        if play is not None:
            return play
    for plan in opened_plans(table, rack, view["pool"]):
        play = play_or_none(view, plan_layout(plan, table), opened=True)
        if play is not None:
            return play
    return no_play(view)


# The AI's public face, wherever its parts live (levels, hints and views import it from here).
__all__ = ["SOLVER_BUDGET", "Weights", "best_opening_value", "choose_action", "choose_greedy_action", "opening_melds"]
