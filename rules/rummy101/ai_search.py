"""The strong Rummy 101 AI: the normal AI's draw and discard checked by a determinized search
(rules/core/search_pimc.py) over the tiles the seat cannot see.

Candidates: on a draw, the stock beside the normal choice (a take or the Joker button); on a
discard, every other tile the hand may throw but a joker (a gift to the next seat). Opening, melds and additions are the normal AI's.
Each candidate is played on the same deals, every seat going on with the normal AI for
`BUDGET.horizon` actions, and judged by the score difference: the round's scores once it is over,
else each seat's penalty as if the round ended there (R101-51: 202 unopened, the hand's value
once opened, twice that for pairs), its jokers left out: held mid-round they are worth having.
"""

from __future__ import annotations

from functools import cache
from random import Random
from typing import Any

from rules.core.engine import Action, State
from rules.core.search_pimc import Budget, SearchGame, choose
from rules.core.tiles import JOKER
from rules.rummy101.actions import Discard, Draw
from rules.rummy101.ai import choose_action
from rules.rummy101.determinize import determinize
from rules.rummy101.scoring import base_penalty
from rules.rummy101.views import seat_view

BUDGET = Budget(rollouts=40, horizon=10, min_samples=1, max_samples=8, margin=4.0, keep=4, z=1.0)


def evaluate(state: State, seat: int) -> float:
    """`seat`'s round score minus the best other seat's (R101-53; before the end, the penalties)."""
    over = state["round_over"]
    if over is not None:
        scores = over["scores"]
    else:
        # A joker held mid-round is an asset, not the 101 it costs if still held at the end.
        scores = [-base_penalty(st, [t for t in h if t != JOKER]) for st, h in zip(state["status"], state["hands"],
                                                                                  strict=True)]
    return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)


@cache
def search_game() -> SearchGame:
    # Imported here: the engine module imports the level table, which imports this module.
    from rules.rummy101.engine import ENGINE

    def ai_view(state: State, seat: int) -> dict[str, Any]:
        view = ENGINE.public_view(state)
        view["you"] = seat
        view.update(seat_view(state, seat, None))  # as `ai_action`: no take hint
        return view

    return SearchGame(engine=ENGINE, determinize=determinize, view=ai_view, rollout=choose_action, evaluate=evaluate)


def alternatives(view: dict[str, Any], default: Action) -> list[Action]:
    """The candidates the search weighs against the normal choice."""
    if view["phase"] == "draw":
        return [Draw()] if view["stock"] else []
    if isinstance(default, Discard):
        return [Discard(tile=t) for t in dict.fromkeys(view["hand"]) if t != JOKER]
    return []


def choose_strong_action(view: dict[str, Any], rng: Random) -> Action:
    default = choose_action(view, rng)
    return choose(search_game(), view, rng, default, alternatives(view, default), BUDGET)
