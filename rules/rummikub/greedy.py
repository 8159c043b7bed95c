"""The Rummikub greedy baseline (the easy level, and what the AI is measured against): the first
melds a hasty player spots on the rack, never touching the table's melds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.ai_plays import is_opened, no_play, play_or_none, untouched


def _greedy_melds(rack: Sequence[str]) -> list[list[str]]:
    """Melds in the order a hasty player spots them: runs by colour, then groups, then joker pairs."""
    left = Counter(rack)
    melds: list[list[str]] = []
    for c in COLOURS:
        n = 1
        while n <= MAX_NUMBER:
            run = []
            while n <= MAX_NUMBER and left[f"{c}{n}"] > 0:
                run.append(f"{c}{n}")
                n += 1
            if len(run) >= 3:
                melds.append(run)
                left.subtract(run)
            n += 1
    for n in range(1, MAX_NUMBER + 1):
        group = [f"{c}{n}" for c in COLOURS if left[f"{c}{n}"] > 0]
        if len(group) >= 3:
            melds.append(group)
            left.subtract(group)
    for c in COLOURS:
        for n in range(1, MAX_NUMBER):
            if left[JOKER] <= 0:
                break
            a, b = f"{c}{n}", f"{c}{n + 1}"
            if left[a] > 0 and left[b] > 0:
                meld = [a, b, JOKER] if n + 1 < MAX_NUMBER else [JOKER, a, b]
                melds.append(meld)
                left.subtract(meld)
    return melds


def choose_greedy_action(view: dict[str, Any], rng: Random) -> Action:
    """Baseline for measuring strength: the first melds found on the rack, never touching table melds."""
    rack = list(view["rack"])
    opened = is_opened(view)
    melds = _greedy_melds(rack)
    if melds:
        layout = untouched(view["table"]) + [{"tiles": m, "prefix": None} for m in melds]
        play = play_or_none(view, layout, opened)
        if play is not None:
            return play
    return no_play(view)
