"""The Rummikub AI's rack search (rules/rummikub/ai.py): the best set of disjoint melds from a rack.

An exact depth-first branch and bound over the rack multiset, memoised by (multiset left, jokers
left). It takes the lowest remaining tile and either leaves it on the rack or puts it in one of the
runs (3..5 tiles; longer runs split into those without loss) or groups that can hold it, jokers
filling the gaps. Melds are scored with weights (value for the initial meld; tiles played, jokers
held back once opened). A node budget turns the search greedy on huge racks (30+ tiles), so the
worst case stays bounded. It also gives the initial meld (RK-41/42).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.actions import MeldSpec
from rules.rummikub.melds import MAX_JOKERS_PER_MELD

_N = MAX_NUMBER  # numbers per colour
_NAMES = [f"{c}{n}" for c in COLOURS for n in range(1, _N + 1)]
_INDEX = {name: i for i, name in enumerate(_NAMES)}
_N_TILES = len(_NAMES)
_NEG = -(1 << 60)
_POW3 = [3**k for k in range(len(_NAMES))]
MAX_SHORT_RUN = 5  # every longer run is two or more runs of 3..5 with the same tiles
# For each tile, the tiles its candidate melds may use: the next numbers of its colour (runs) and
# the same number in later colours (groups).
_NEIGHBOURS = [
    tuple(range(i + 1, (i // MAX_NUMBER) * MAX_NUMBER + min(MAX_NUMBER, i % MAX_NUMBER + MAX_SHORT_RUN)))
    + tuple(range(i + MAX_NUMBER, len(_NAMES), MAX_NUMBER))
    for i in range(len(_NAMES))
]
# Search nodes per rack before the rack search turns greedy. A 14-tile rack needs a few hundred;
# 30+ tiles with two jokers can need many thousands.
NODE_BUDGET = 5000


@dataclass(frozen=True)
class Weights:
    """Score of a meld laid from the rack: per numbered tile, per joker, per point of value."""

    numbered: int
    joker: int
    value: int


OPENING = Weights(0, 0, 1)  # the initial meld counts points only (RK-41/42)
# Once opened: tiles off the rack first; a joker is worth keeping unless it frees two or more tiles.
TILE = 4000
KEEP_JOKERS = Weights(TILE, -3 * TILE // 4, 1)
DUMP_JOKERS = Weights(TILE, TILE, 1)  # empty pool: a joker left on the rack costs 30 (RK-71)


# A candidate meld from the rack:
# (score, written tiles, prefix, tile indices used, jokers used, value, base-3 code of the tiles used,
#  upper bound of the tiles used)
_Cand = tuple[int, tuple[str, ...], str | None, tuple[int, ...], int, int, int, int]


class RackSearch:
    """Best set of disjoint melds from a rack, memoised by (remaining multiset, jokers left)."""

    def __init__(self, weights: Weights, budget: int = NODE_BUDGET) -> None:
        self.w = weights
        self.budget = budget
        self.memo: dict[tuple[int, int], tuple[int, Any, bool]] = {}
        # Upper bounds: a numbered tile laid at best adds its weight and value; a joker at most a 13.
        self.tile_ub = [weights.numbered + weights.value * (k % MAX_NUMBER + 1) for k in range(_N_TILES)]
        self.joker_ub = max(0, weights.joker + weights.value * MAX_NUMBER)
        self.rest = 0
        self.counts = [0] * _N_TILES
        self.code = 0  # the multiset left, base 3 (0..2 copies of each tile)
        self.cand_cache: dict[tuple[int, int, int], list[_Cand]] = {}

    def best(self, numbered: Iterable[str], jokers: int) -> tuple[int, list[_Cand]]:
        counts = [0] * _N_TILES
        for t in numbered:
            counts[_INDEX[t]] += 1
        self.counts = counts
        self.code = sum(c * _POW3[k] for k, c in enumerate(counts))
        self.rest = sum(c * self.tile_ub[k] for k, c in enumerate(counts))
        score, node, _ = self._solve(0, jokers, _NEG)
        melds: list[_Cand] = []
        while node is not None:
            cand, node = node
            melds.append(cand)
        return score, melds

    def _solve(self, start: int, jokers: int, alpha: int) -> tuple[int, Any, bool]:
        """Best (score, melds, True) of the multiset left when it beats `alpha`; else (bound, None, False)
        with bound >= the best and <= alpha (branch and bound with a fail-soft memo)."""
        counts = self.counts
        i = start
        while i < _N_TILES and counts[i] == 0:
            i += 1
        if i == _N_TILES:
            return 0, None, True
        key = (self.code, jokers)  # lower indices are all zero, so the code names the multiset
        hit = self.memo.get(key)
        if hit is not None and (hit[2] or hit[0] <= alpha):
            return hit
        bound = self.rest + self.joker_ub * jokers  # every tile left laid at its best
        if bound <= alpha:
            return bound, None, False
        self.budget -= 1
        # The melds for tile i depend only on which of a few neighbours are left: cache them.
        pattern = 0
        for bit, idx in enumerate(_NEIGHBOURS[i]):
            if counts[idx]:
                pattern |= 1 << bit
        ckey = (i, min(jokers, MAX_JOKERS_PER_MELD), pattern)
        cands = self.cand_cache.get(ckey)
        if cands is None:
            cands = self._candidates(i, jokers)
            cands.sort(key=lambda c: c[0], reverse=True)  # promising melds first: they raise the floor
            self.cand_cache[ckey] = cands
        greedy = self.budget <= 0
        if greedy:
            # Out of budget: follow the best-scoring meld only (a linear chain, no branching).
            cands = cands[:1] if cands and cands[0][0] > 0 else []
            alpha = _NEG
        best_score, best_node, failed = _NEG, None, _NEG
        for cand in cands:
            if self.budget <= 0 and best_node is not None:
                greedy = True  # the budget ran out below: keep what was found
                break
            floor = max(alpha, best_score)
            used = cand[3]
            for u in used:
                counts[u] -= 1
            self.code -= cand[6]
            self.rest -= cand[7]
            sub_score, sub_node, exact = self._solve(i, jokers - cand[4], floor - cand[0])
            self.rest += cand[7]
            self.code += cand[6]
            for u in used:
                counts[u] += 1
            total = cand[0] + sub_score
            if not exact:
                failed = max(failed, total)
            elif total > best_score:
                best_score, best_node = total, (cand, sub_node)
        if not cands or not (greedy or (self.budget <= 0 and best_node is not None)):
            floor = max(alpha, best_score)
            counts[i] -= 1  # this copy stays on the rack
            self.code -= _POW3[i]
            self.rest -= self.tile_ub[i]
            sub_score, sub_node, exact = self._solve(i, jokers, floor)
            self.rest += self.tile_ub[i]
            self.code += _POW3[i]
            counts[i] += 1
            if not exact:
                failed = max(failed, sub_score)
            elif sub_score > best_score:
                best_score, best_node = sub_score, sub_node
        result = (
            (best_score, best_node, True) if greedy or best_score > alpha else (max(best_score, failed), None, False)
        )
        self.memo[key] = result
        return result

    def _candidates(self, i: int, jokers: int) -> list[_Cand]:
        """Melds holding tile i in which i is the lowest tile left (all lower indices are used up)."""
        counts = self.counts
        w = self.w
        colour_index, n0 = divmod(i, _N)
        n = n0 + 1
        base = colour_index * _N
        max_j = min(jokers, MAX_JOKERS_PER_MELD)
        out: list[_Cand] = []
        # Runs of i's colour: lower numbers of that colour are gone, so they can only be jokers.
        for start in range(max(1, n - max_j), n + 1):
            lead = n - start
            written = [JOKER] * lead + [_NAMES[i]]
            used = [i]
            needed = lead
            num = n
            while True:
                if len(written) >= 3:
                    value = sum(range(start, num + 1))
                    score = w.numbered * len(used) + w.joker * needed + w.value * value
                    code = sum(_POW3[u] for u in used)
                    ub = sum(self.tile_ub[u] for u in used)
                    out.append((score, tuple(written), None, tuple(used), needed, value, code, ub))
                num += 1
                if num > _N or len(written) >= MAX_SHORT_RUN:
                    break
                idx = base + num - 1
                if counts[idx] > 0:
                    written.append(_NAMES[idx])
                    used.append(idx)
                else:
                    written.append(JOKER)
                    needed += 1
                    if needed > max_j:
                        break
        # Groups of number n: colours before i's are gone, so they can only be jokers.
        others = [c * _N + n0 for c in range(colour_index + 1, len(COLOURS)) if counts[c * _N + n0] > 0]
        for mask in range(1 << len(others)):
            members = [i] + [others[b] for b in range(len(others)) if mask >> b & 1]
            for nj in range(max_j + 1):
                size = len(members) + nj
                if not 3 <= size <= 4:
                    continue
                value = n * size
                group = tuple(_NAMES[m] for m in members) + (JOKER,) * nj
                prefix = "G" if len(members) == 1 else None
                score = w.numbered * len(members) + w.joker * nj + w.value * value
                code = sum(_POW3[m] for m in members)
                ub = sum(self.tile_ub[m] for m in members)
                out.append((score, group, prefix, tuple(members), nj, value, code, ub))
        return out


def rack_melds(
    rack: Iterable[str], weights: Weights, jokers: int | None = None, search: RackSearch | None = None
) -> tuple[int, list[_Cand]]:
    rack = list(rack)
    numbered = [t for t in rack if t != JOKER]
    available = rack.count(JOKER) if jokers is None else min(jokers, rack.count(JOKER))
    return (search or RackSearch(weights)).best(numbered, available)


def best_opening_value(rack: list[str], jokers_allowed: bool = True) -> int:
    """The highest initial-meld value (RK-41/42) that disjoint melds from `rack` reach."""
    score, _ = rack_melds(rack, OPENING, None if jokers_allowed else 0)
    return score


def opening_melds(rack: Sequence[str], minimum: int) -> list[MeldSpec] | None:
    """The highest-value initial meld using the fewest jokers that still reaches `minimum`."""
    search = RackSearch(OPENING)  # the memo is exact per (multiset, jokers left): shared by all levels
    for allowed in range(rack.count(JOKER) + 1):
        value, cands = rack_melds(rack, OPENING, allowed, search)
        if cands and value >= minimum:
            return [MeldSpec(tiles=c[1], prefix=c[2]) for c in cands]
    return None
