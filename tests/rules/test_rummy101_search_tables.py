"""Rummy 101's meld search packs the hand into one int and looks each node's candidate melds up by
which tiles are present (rules/rummy101/search.py). It must take the very path of the search it
replaced — the same melds in the same order at every node, the same memo, the same node count —
so that past the node budget it turns greedy at the same node and gives the same answer. The
replaced search is kept here as the oracle, and the two are compared on random hands, with the
real budget and with budgets small enough to run out."""

from __future__ import annotations

from itertools import combinations
from random import Random

import pytest

from rules.core.tiles import COLOURS, MAX_NUMBER
from rules.rummy101 import search as S
from rules.rummy101.ai import _opened_score


def reference_candidates(i: int, counts: list[int], jokers: int) -> list[tuple]:
    out: list[tuple] = []
    jmax = min(jokers, S.MAX_JOKERS_PER_MELD)
    colour, n0 = divmod(i, MAX_NUMBER)
    for below, lo, hi, span in S.RUN_WINDOWS[i]:
        if below > jmax:
            break
        used = tuple(idx for idx in span if counts[idx])
        need = below + len(span) - len(used)
        if need <= jmax:
            out.append((used, need, (lo + hi) * (hi - lo + 1) // 2, ("run", colour, lo, hi, used)))
    others = [c2 * MAX_NUMBER + n0 for c2 in range(colour + 1, len(COLOURS)) if counts[c2 * MAX_NUMBER + n0]]
    num = n0 + 1
    for size in range(max(1, 3 - jmax), min(4, len(others) + 1) + 1):
        for combo in combinations(others, size - 1):
            s_used = (i, *combo)
            for j in range(max(0, 3 - size), min(jmax, 4 - size) + 1):
                out.append((s_used, j, num * (size + j), ("set", num, s_used, j)))
    return out


def reference_drop_dead(counts: list[int], jokers: int) -> None:
    jmax = min(jokers, S.MAX_JOKERS_PER_MELD)
    present = [c > 0 for c in counts]
    for i in range(S.N_TILES):
        if not present[i]:
            continue
        colour, n0 = divmod(i, MAX_NUMBER)
        num = n0 + 1
        if sum(present[c2 * MAX_NUMBER + n0] for c2 in range(len(COLOURS))) + jmax >= 3:
            continue
        live = any(sum(not present[colour * MAX_NUMBER + n - 1] for n in range(lo, lo + 3)) <= jmax
                   for lo in range(max(1, num - 2), min(num, MAX_NUMBER - 2) + 1))
        if not live:
            counts[i] = 0


def reference_search(hand: list[str], scorer: S.Scorer, budget: int) -> tuple[float, list[list[str]]]:
    counts, jokers = S.counts_of(hand)
    reference_drop_dead(counts, jokers)
    memo: dict[tuple, tuple[float, tuple]] = {}
    nodes = [0]

    def go(i: int, jokers_left: int) -> tuple[float, tuple]:
        while i < S.N_TILES and counts[i] == 0:
            i += 1
        if i >= S.N_TILES:
            return 0.0, ()
        key = (i, bytes(counts[i:]), jokers_left)
        hit = memo.get(key)
        if hit is not None:
            return hit
        nodes[0] += 1
        saved = counts[i]
        counts[i] = 0
        best = go(i + 1, jokers_left)
        counts[i] = saved
        cands = reference_candidates(i, counts, jokers_left)
        if nodes[0] > budget and cands:
            cands = [max(cands, key=lambda m: scorer(m[0], m[1], m[2]))]
        for used, jused, value, found in cands:
            for u in used:
                counts[u] -= 1
            sub_score, sub_melds = go(i, jokers_left - jused)
            for u in used:
                counts[u] += 1
            score = sub_score + scorer(used, jused, value)
            if score > best[0]:
                best = (score, (found, *sub_melds))
        memo[key] = best
        return best

    score, found = go(0, jokers)
    return score, [S.tokens_of(f) for f in found]


def random_hand(rng: Random) -> list[str]:
    tiles = [t for t in S.NAMES for _ in range(2)] + ["j", "j"]
    return rng.sample(tiles, rng.choice([8, 14, 21, 22, 26]))


def random_counts(rng: Random) -> list[int]:
    density = rng.choice([0.1, 0.3, 0.6, 0.9])
    return [rng.choice([1, 2]) if rng.random() < density else 0 for _ in range(S.N_TILES)]


def test_candidates_match_the_reference_for_every_tile() -> None:
    rng = Random(101)
    for _ in range(400):
        counts = random_counts(rng)
        for jokers in range(3):
            for i in range(S.N_TILES):
                if counts[i]:
                    key = sum(1 << b for b, idx in enumerate(S._RUN_BITS[i]) if counts[idx])
                    key |= sum(1 << b for b, idx in enumerate(S._SET_BITS[i], start=S._RUN_REACH) if counts[idx])
                    assert S._candidates_for(i, key, min(jokers, 2)) == reference_candidates(i, counts, jokers)


@pytest.mark.parametrize("budget", [S.NODE_BUDGET, 40, 5, 0])
@pytest.mark.parametrize("scorer", [S.value_score, _opened_score], ids=["opening", "opened"])
def test_search_takes_the_reference_path(budget: int, scorer: S.Scorer) -> None:
    rng = Random(budget)
    for _ in range(150):
        hand = random_hand(rng)
        assert S.search(hand, scorer, budget) == reference_search(hand, scorer, budget), hand


def test_dead_tiles_are_the_reference_ones() -> None:
    rng = Random(7)
    for _ in range(2000):
        counts = random_counts(rng)
        jokers = rng.randrange(3)
        mine, ref = list(counts), list(counts)
        S._drop_dead(mine, jokers)
        reference_drop_dead(ref, jokers)
        assert mine == ref
