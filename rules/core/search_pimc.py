"""Determinized search over the hidden information (perfect-information Monte Carlo).

A seat cannot see the other hands or the stock order, so the search deals the unseen items anew
(`unseen` and `deal_hidden` below; the game's own `determinize` builds a full state from the seat's
view and such a deal), plays each candidate action on that state, lets every seat continue with a
cheap policy for a number of actions (or to the round's end) and judges the position reached with
the game's `evaluate`. Each candidate is played on the same deals with the same random stream
(common random numbers: the difference between candidates is what the search measures, not the
luck of the deal). The candidate with the best mean wins; the game's normal choice is listed first
and keeps its place unless another beats it by `margin`.

The budget counts rollouts, never wall-clock time: the same view and the same `Random` give the
same action on any machine, as the AI worker's reproducibility needs. Only the view is read: the
true hidden state never reaches this module.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any, Protocol

from rules.core.engine import Action, Event, State
from rules.core.errors import IllegalAction
from rules.core.levels import Policy

View = dict[str, Any]


class Playable(Protocol):
    """The part of an engine a playout uses."""

    def current_seat(self, state: State) -> int | None: ...

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...


@dataclass(frozen=True)
class Budget:
    """How much one decision may search.

    `rollouts`: the total playouts, shared evenly among the candidates (at least `min_samples`
    deals each, at most `max_samples`); `horizon`: the actions a playout makes after the candidate
    before it is judged (0: to the round's end); `margin`: how much better in `evaluate`'s points
    another candidate must be than the normal choice to replace it. With `keep`, many candidates
    (more than `keep`) are first played on `min_samples` deals each, and only the normal choice and
    the `keep - 1` best go on to the rest of the rollouts. With `z`, a candidate must also beat the
    normal choice by `z` standard errors of the paired difference: with noisy playouts the best of
    many means is mostly the luckiest.
    """

    rollouts: int
    horizon: int
    min_samples: int = 2
    max_samples: int = 16
    margin: float = 0.0
    keep: int = 0
    z: float = 0.0

    def samples(self, candidates: int) -> int:
        return max(self.min_samples, min(self.max_samples, self.rollouts // max(candidates, 1)))


@dataclass(frozen=True)
class SearchGame:
    """What the search needs from one game.

    - `determinize(view, rng)`: a full state consistent with the view, its hidden zones dealt at
      random from what the seat cannot see;
    - `view(state, seat)`: the view the rollout policy reads (the AI's view, without hints);
    - `rollout`: the policy every seat plays after the candidate;
    - `evaluate(state, seat)`: how good the state is for `seat`, in points (higher is better):
      the round's score difference once it is over, an estimate of it before.
    """

    engine: Playable
    determinize: Callable[[View, Random], State]
    view: Callable[[State, int], View]
    rollout: Policy
    evaluate: Callable[[State, int], float]


def unseen(full_set: Iterable[str], seen: Iterable[str]) -> list[str]:
    """The items of `full_set` left after removing every item in `seen` (copies counted), in a
    canonical order. `ValueError` when `seen` holds an item more often than the set does: the view
    and the set disagree, and no deal can be consistent with them."""
    left = Counter(full_set)
    for item in seen:
        if left[item] <= 0:
            raise ValueError(f"{item!r} is seen more often than the set holds it")
        left[item] -= 1
    return sorted(left.elements())


def deal_hidden(pool: Sequence[str], sizes: Sequence[int], known: Sequence[Counter[str]] | None,
                rng: Random) -> list[list[str]]:
    """`pool` shuffled and cut into zones of `sizes` (which must add up to its length). `known[z]`
    lists items zone z is known to hold (from the public record): they go there first, the rest is
    dealt at random."""
    if sum(sizes) != len(pool):
        raise ValueError(f"zones of {sum(sizes)} items for {len(pool)} unseen")
    rest = Counter(pool)
    zones: list[list[str]] = []
    for z, size in enumerate(sizes):
        fixed = list((known[z] if known else Counter()).elements())[:size]
        for item in fixed:
            if rest[item] <= 0:
                raise ValueError(f"{item!r} is known to be held but is not unseen")
            rest[item] -= 1
        zones.append(fixed)
    free = sorted(rest.elements())
    rng.shuffle(free)
    pos = 0
    for z, size in enumerate(sizes):
        need = size - len(zones[z])
        zones[z].extend(free[pos : pos + need])
        pos += need
    return zones


def playout(game: SearchGame, state: State, horizon: int, rng: Random) -> State:
    """`state` played on by the rollout policy for `horizon` actions (0: until the round ends)."""
    engine = game.engine
    steps = 0
    while horizon == 0 or steps < horizon:
        seat = engine.current_seat(state)
        if seat is None:
            break
        action = game.rollout(game.view(state, seat), rng)
        state, _ = engine.apply(state, seat, action)
        steps += 1
    return state


def outcomes(game: SearchGame, view: View, candidates: Sequence[Action], budget: Budget,
             rng: Random) -> list[list[float] | None]:
    """Each candidate's evaluation on each deal it was played on, in deal order; None for one the
    engine refused on some deal (it cannot be legal then: legality only reads the seat's view) or
    that the budget's first cut dropped. The candidates left were all played on the same deals."""
    seat = view["you"]
    n = len(candidates)
    values: list[list[float] | None] = [[] for _ in range(n)]

    def play(indices: Sequence[int], deals: int) -> None:
        for _ in range(deals):
            deal_seed = rng.getrandbits(64)
            state = game.determinize(view, Random(deal_seed))
            for i in indices:
                got = values[i]
                if got is None:
                    continue
                try:
                    after, _ = game.engine.apply(state, seat, candidates[i])
                except IllegalAction:
                    values[i] = None
                    continue
                end = playout(game, after, budget.horizon, Random(deal_seed ^ 0x5EED))
                got.append(game.evaluate(end, seat))

    if not budget.keep or n <= budget.keep:
        play(range(n), budget.samples(n))
    else:
        play(range(n), budget.min_samples)
        ranked = sorted((i for i in range(1, n) if values[i] is not None), key=lambda i: -sum(values[i] or ()))
        alive = [0, *ranked[: budget.keep - 1]]
        for i in range(n):
            if i not in alive:
                values[i] = None
        extra = min(budget.max_samples - budget.min_samples, (budget.rollouts - n * budget.min_samples) // len(alive))
        play(alive, max(extra, 0))
    return values


def scores(game: SearchGame, view: View, candidates: Sequence[Action], budget: Budget,
           rng: Random) -> list[float | None]:
    """The mean of each candidate's `outcomes` (None where those are None)."""
    return [None if v is None else sum(v) / max(len(v), 1) for v in outcomes(game, view, candidates, budget, rng)]


def gain(base: Sequence[float], other: Sequence[float], z: float) -> float:
    """How much `other` beats `base` on the same deals: the mean paired difference, less `z`
    standard errors of it (0 with one deal and z > 0: one deal proves nothing)."""
    diffs = [o - b for o, b in zip(other, base, strict=True)]
    mean = sum(diffs) / len(diffs)
    if z <= 0:
        return mean
    if len(diffs) < 2:
        return -math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)
    return mean - z * math.sqrt(var / len(diffs))


def choose(game: SearchGame, view: View, rng: Random, default: Action, others: Iterable[Action],
           budget: Budget) -> Action:
    """`default` (the normal AI's choice) or the candidate among `others` that beats it on the
    same deals by more than the budget's margin (and, with `budget.z`, by more than z standard
    errors); of those the best mean, the first on ties."""
    candidates = [default, *(a for a in dict.fromkeys(others) if a != default)]
    if len(candidates) == 1:
        return default
    values = outcomes(game, view, candidates, budget, rng)
    base = values[0]
    best, best_mean = default, -math.inf
    for action, got in zip(candidates[1:], values[1:], strict=True):
        if got is None or not got:
            continue
        mean = sum(got) / len(got)
        if base is None or not base:
            beats = True
        else:
            beats = mean - sum(base) / len(base) > budget.margin and gain(base, got, budget.z) > 0
        if beats and mean > best_mean:
            best, best_mean = action, mean
    return best
