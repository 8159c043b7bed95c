"""Scoring of a finished game (RK-70..74) and the match rules (RK-80..82)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.tiles import JOKER


def rack_value(rack: Sequence[str], joker_penalty: int) -> int:
    """V(p): numbers of the numbered tiles + the joker penalty per joker (RK-71)."""
    return sum(joker_penalty if t == JOKER else int(t[1:]) for t in rack)


def score_going_out(values: Sequence[int], winner: int) -> list[int]:
    """RK-72: the winner collects every other rack's value; the game sums to zero."""
    scores = [-v for v in values]
    scores[winner] = sum(v for i, v in enumerate(values) if i != winner)
    return scores


def score_empty_pool(values: Sequence[int]) -> tuple[list[int], list[int]]:
    """RK-73: lowest racks win and share the losers' differences, floored. Returns (scores, winners)."""
    low = min(values)
    winners = [i for i, v in enumerate(values) if v == low]
    pot = sum(v - low for v in values)
    share = pot // len(winners)
    scores = [share if i in winners else -(v - low) for i, v in enumerate(values)]
    return scores, winners


def match_leaders(totals: Sequence[int]) -> list[int]:
    best = max(totals)
    return [i for i, t in enumerate(totals) if t == best]
