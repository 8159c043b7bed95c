"""The strong Rummy 500 AI: the normal AI's take and discard checked by a determinized search
(rules/core/search_pimc.py) over the cards the seat cannot see.

Candidates: on a take, the bank (or `stop`) and the best placement of every market position the
view offers besides the normal choice; on a discard, every other card the hand may throw. Lays are
the normal AI's. Each candidate is played on the same deals, every seat going on with the normal
AI for `BUDGET.horizon` actions, and judged by the score difference at that point (laid minus hand
value, as if the round ended there; the real round score when it did).
"""

from __future__ import annotations

from functools import cache
from random import Random
from typing import Any

from rules.core.cards import JOKER
from rules.core.engine import Action, State
from rules.core.search_pimc import Budget, SearchGame, choose
from rules.rummy500 import melds
from rules.rummy500.actions import Discard, Lay, Stop, TakeBank, TakeMarket
from rules.rummy500.ai import choose_action
from rules.rummy500.determinize import determinize

BUDGET = Budget(rollouts=48, horizon=16, min_samples=4, max_samples=12, margin=1.0)


def evaluate(state: State, seat: int) -> float:
    """`seat`'s round score minus the best other seat's: the real one once the round is over, else
    laid points minus hand value as if it ended now."""
    over = state["round_over"]
    if over is not None:
        scores = over["scores"]
    else:
        laid = melds.laid_points(state["table"], state["seats"])
        jk = state["options"]["joker_hand_penalty"]
        scores = [laid[s] - melds.hand_value(h, jk) for s, h in enumerate(state["hands"])]
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


@cache
def search_game() -> SearchGame:
    # Imported here: the engine module imports the level table, which imports this module.
    from rules.rummy500.engine import ENGINE

    return SearchGame(engine=ENGINE, determinize=determinize, view=ENGINE.view, rollout=choose_action,
                      evaluate=evaluate)


def alternatives(view: dict[str, Any], default: Action) -> list[Action]:
    """The other candidates the search weighs against `default`."""
    if view["phase"] == "take":
        out: list[Action] = [TakeBank() if view["bank"] else Stop()]
        for entry in view["takes"] or []:
            best = entry["best"]
            if best is not None:
                lay = Lay(cards=tuple(best["cards"]), on=best["on"])
                out.append(TakeMarket(pos=entry["pos"], leave=best["leave"], lays=(lay,)))
        return out
    if view["phase"] == "bank" and isinstance(default, Discard):
        return [Discard(card=c) for c in dict.fromkeys(view["hand"]) if c != JOKER]
    return []


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    default = choose_action(view, rng)
    return choose(search_game(), view, rng, default, alternatives(view, default), BUDGET)
