"""An independent exact reference for the Rummikub solver: an integer program solved by HiGHS.

It shares nothing with rules/rummikub/sweep.py but the meld analysis of the spec. Every candidate
meld is listed with its jokers at explicit places (runs of 3..5 tiles: a longer run is two shorter
ones with the same tiles and the same joker tiles, so nothing is lost); x_m counts how often meld m
is laid. Tiles: the table's all (C2), the rack's up to their count. C8 (RK-52) for the jokers of T0:
k_i = 1 when joker i is kept, which needs its own joker slot whose new S meets S0_i (Hall's condition
over the subsets of the at most two T0 jokers); each retrieved joker needs its own numbered tile of
S0_i on the new table (Hall's condition again). Objective: the most rack tiles laid.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import highspy

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.melds import analyse


def _candidates(have: Counter[str], jokers: int) -> list[tuple[list[str], str]]:
    """Every run of 3..5 and group of 3..4 whose numbered tiles are there, jokers at every place."""
    out: list[tuple[list[str], str]] = []
    for c in COLOURS:
        for start in range(1, MAX_NUMBER - 1):
            for length in range(3, 6):
                if start + length - 1 > MAX_NUMBER:
                    break
                cells = [f"{c}{n}" for n in range(start, start + length)]
                for nj in range(min(jokers, 2) + 1):
                    for spots in combinations(range(length), nj):
                        meld = [JOKER if i in spots else t for i, t in enumerate(cells)]
                        if all(have[t] for t in meld if t != JOKER) and any(t != JOKER for t in meld):
                            out.append((meld, "R"))
    for n in range(1, MAX_NUMBER + 1):
        present = [c for c in COLOURS if have[f"{c}{n}"]]
        for size in range(1, 5):
            for cols in combinations(present, size):
                for nj in range(min(jokers, 2) + 1):
                    if 3 <= size + nj <= 4:
                        out.append(([f"{c}{n}" for c in cols] + [JOKER] * nj, "G"))
    return out


def max_tiles(table: Sequence[dict], rack: Sequence[str]) -> int:
    """The most rack tiles an opened player can lay on `table` (0 when none)."""
    t0 = Counter(t for m in table for t in m["tiles"])
    r0 = Counter(rack)
    have = t0 + r0
    jokers_total = have[JOKER]
    old_sets = [s for m in table for s in analyse(m["tiles"], m.get("prefix")).joker_sets]
    melds = _candidates(have, jokers_total)
    h = highspy.Highs()
    h.silent()
    # Presolve only reduces the model before the exact branch and bound; on these small programs it
    # costs more than it saves (the same optima, about twice as fast).
    h.setOptionValue("presolve", "off")
    x = [h.addVariable(0, 2, type=highspy.HighsVarType.kInteger) for _ in melds]
    tiles = sorted(t for t in have if t != JOKER)
    y = {t: h.addVariable(0, r0[t], type=highspy.HighsVarType.kInteger) for t in tiles}
    yj = h.addVariable(0, r0[JOKER], type=highspy.HighsVarType.kInteger)
    uses: dict[str, list[tuple[int, int]]] = {}  # tile -> (meld, copies in it)
    for i, (m, _) in enumerate(melds):
        for t, n in Counter(m).items():
            uses.setdefault(t, []).append((i, n))
    for t in tiles:
        h.addConstr(sum(x[i] * n for i, n in uses.get(t, ())) - y[t] == t0[t])
    h.addConstr(sum(x[i] * n for i, n in uses.get(JOKER, ())) - yj == t0[JOKER])
    if old_sets:
        sets_of = [analyse(m, kind).joker_sets for m, kind in melds]
        keep = [h.addVariable(0, 1, type=highspy.HighsVarType.kInteger) for _ in old_sets]
        for size in range(1, len(old_sets) + 1):
            for sub in combinations(range(len(old_sets)), size):
                # Kept jokers, each with its own slot whose new S meets its S0.
                slots = []
                for i, sets in enumerate(sets_of):
                    n = sum(1 for s in sets if any(s & old_sets[o] for o in sub))
                    if n:
                        slots.append(x[i] * n)
                h.addConstr(sum(slots) - sum(keep[o] for o in sub) >= 0)
                # Retrieved jokers, each with its own replacement tile on the new table.
                union = set().union(*(old_sets[o] for o in sub))
                supply = sum(t0[t] for t in union) + sum(y[t] for t in union if t in y)
                h.addConstr(supply + sum(keep[o] for o in sub) >= size)
    h.maximize(sum(y.values()) + yj)
    return round(h.getInfo().objective_function_value)
