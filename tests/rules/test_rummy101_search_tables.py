"""Rummy 101's meld search looks its candidates up by which tiles are present
(rules/rummy101/search.py): the same melds, in the same order, as working them out at each node,
so the search (node budget included) takes the same path. The reference is the computation it
replaced, kept here as the oracle."""

from __future__ import annotations

from itertools import combinations
from random import Random

from rules.core.tiles import COLOURS, MAX_NUMBER
from rules.rummy101 import search as S


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
                    assert S._candidates(i, counts, jokers) == reference_candidates(i, counts, jokers)


def test_dead_tiles_are_the_reference_ones() -> None:
    rng = Random(7)
    for _ in range(2000):
        counts = random_counts(rng)
        jokers = rng.randrange(3)
        mine, ref = list(counts), list(counts)
        S._drop_dead(mine, jokers)
        reference_drop_dead(ref, jokers)
        assert mine == ref
