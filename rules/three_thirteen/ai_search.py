"""The strong Three-Thirteen AI: the normal AI's draw and discard checked by a determinized search
(rules/core/search_pimc.py) over the cards the seat cannot see.

Candidates: on a draw, the stock and the top discard; on a discard, every other loose card the
hand may throw. Each candidate is played on the same deals (the other hands and the stock dealt
from the unseen cards, the cards the record shows in a hand kept there), every seat going on with
`ROLLOUT` for `BUDGET.horizon` actions or to the round's end, and judged by the deadwood
difference (the round's scores once it is over).
"""

from __future__ import annotations

from functools import cache
from random import Random
from typing import Any

from rules.core.engine import Action, State
from rules.core.search_pimc import Budget, SearchGame, choose
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.ai import choose_action, choose_greedy_action
from rules.three_thirteen.ai_basics import discardable
from rules.three_thirteen.deadwood import arrange, is_wild, wild_rank_for_round
from rules.three_thirteen.determinize import determinize
from rules.three_thirteen.views import seat_view

BUDGET = Budget(rollouts=80, horizon=4, min_samples=6, max_samples=16, margin=1.0, z=1.0)
ROLLOUT = choose_greedy_action


def evaluate(state: State, seat: int) -> float:
    """The best other seat's round score minus `seat`'s (lower scores are better): the real scores
    once the round is over, else each hand's deadwood now (the one out scores 0)."""
    over = state["round_over"]
    if over is not None:
        scores = over["scores"]
    else:
        wild, ace_high = wild_rank_for_round(state["round"]), state["options"]["ace_high"]
        scores = [0 if s == state["out"] else arrange(h, wild, ace_high).deadwood for s, h in enumerate(state["hands"])]
    return min(v for s, v in enumerate(scores) if s != seat) - scores[seat]


@cache
def search_game() -> SearchGame:
    # Imported here: the engine module imports the level table, which imports this module.
    from rules.three_thirteen.engine import ENGINE

    def ai_view(state: State, seat: int) -> dict[str, Any]:
        view = ENGINE.public_view(state)
        view["you"] = seat
        view.update(seat_view(state, seat, view, hint=False))
        return view

    return SearchGame(engine=ENGINE, determinize=determinize, view=ai_view, rollout=ROLLOUT, evaluate=evaluate)


def alternatives(view: dict[str, Any]) -> list[Action]:
    """The candidates the search weighs against the normal choice."""
    if view["phase"] == "draw":
        out: list[Action] = [TakeDiscard()] if view["discard_top"] is not None else []
        return out + ([DrawStock()] if view["can_draw_stock"] else [])
    allowed = set(discardable(view))
    loose = [c for c in dict.fromkeys(view["deadwood_cards"]) if c in allowed and not is_wild(c, view["wild_rank"])]
    return [Discard(card=c) for c in loose]


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    default = choose_action(view, rng)
    if view["phase"] == "discard" and not view["deadwood_cards"]:
        return default
    return choose(search_game(), view, rng, default, alternatives(view), BUDGET)
