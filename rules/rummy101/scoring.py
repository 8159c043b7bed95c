"""Rummy 101 round scoring (R101-50..53) and the match leaders (R101-61)."""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.tiles import JOKER

JOKER_IN_HAND = 101
UNOPENED_PENALTY = 202
WIN_POINTS = 101


def hand_value(hand: Sequence[str]) -> int:
    """R101-50: face values plus 101 per joker."""
    return sum(JOKER_IN_HAND if t == JOKER else int(t[1:]) for t in hand)


def base_penalty(status: str, hand: Sequence[str]) -> int:
    """R101-51: flat 202 unopened (hand ignored, D-15); H for series; 2H for pairs."""
    if status == "unopened":
        return UNOPENED_PENALTY
    return hand_value(hand) * (2 if status == "pairs" else 1)


def multiplier(joker_finish: bool, one_turn: bool) -> int:
    """R101-52: ×2 for a joker finish, ×2 for a one-turn finish."""
    return (2 if joker_finish else 1) * (2 if one_turn else 1)


def round_scores(
    statuses: Sequence[str], hands: Sequence[Sequence[str]], winner: int | None, m: int
) -> tuple[list[int], list[int], list[int]]:
    """(scores, H per seat, B per seat): winner +101·m, each other seat −B·m (R101-53)."""
    values = [hand_value(h) for h in hands]
    bases = [0 if seat == winner else base_penalty(s, h) for seat, (s, h) in enumerate(zip(statuses, hands, strict=True))]
    scores = [WIN_POINTS * m if seat == winner else -b * m for seat, b in enumerate(bases)]
    return scores, values, bases


def match_leaders(totals: Sequence[int]) -> list[int]:
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
