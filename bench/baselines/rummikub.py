"""A competent Rummikub player written from the rules (shared rules rummikub.md), for the ladder.

A per-turn tile maximiser, from the seat's view only:
- before opening: the rack's highest-value set of new groups and runs (RK-41), played when it
  reaches the initial-meld minimum, else a draw;
- after opening: the table rearranged freely (RK-45) to lay as many rack tiles as possible (then
  the most points): an exact search over every arrangement of the table's tiles plus any rack
  tiles into groups and runs, every table tile kept on the table (RK-46 C2). Melds holding a table
  joker stay as they are (no retrieval, so RK-52's obligations never arise). A search that runs
  past its node budget falls back on the table as it is plus new melds from the rack;
- nothing to lay: draw (pass when the pool is empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.rummikub.actions import Draw, MeldSpec, Pass, Play

JOKER = "j"
COLOURS = "rbky"
TYPES = [f"{c}{n}" for n in range(1, 14) for c in COLOURS]  # by number, then colour
INDEX = {t: i for i, t in enumerate(TYPES)}
MAX_RUN = 5  # a longer run splits into runs of 3+, so the search needs none longer
NODE_BUDGET = 60_000

# A candidate meld: (natural type indices, jokers, tiles as written, value, prefix)
Cand = tuple[tuple[int, ...], int, tuple[str, ...], int, str | None]


@lru_cache(maxsize=1)
def _candidates() -> dict[int, list[Cand]]:
    """Every group and run of up to MAX_RUN tiles with at most two jokers, by its lowest natural type."""
    out: dict[int, list[Cand]] = {}
    for colour in COLOURS:
        for lo in range(1, 12):
            for hi in range(lo + 2, min(13, lo + MAX_RUN - 1) + 1):
                span = list(range(lo, hi + 1))
                for mask in range(1 << len(span)):
                    jokers = bin(mask).count("1")
                    if jokers > 2 or jokers == len(span):
                        continue
                    tiles = tuple(JOKER if mask >> k & 1 else f"{colour}{n}" for k, n in enumerate(span))
                    naturals = tuple(INDEX[t] for t in tiles if t != JOKER)
                    prefix = "R" if len(naturals) == 1 else None
                    out.setdefault(naturals[0], []).append((naturals, jokers, tiles, sum(span), prefix))
    for n in range(1, 14):
        for size in (3, 4):
            for mask in range(1, 16):
                colours = [c for k, c in enumerate(COLOURS) if mask >> k & 1]
                jokers = size - len(colours)
                if not 0 <= jokers <= 2:
                    continue
                tiles = tuple(f"{c}{n}" for c in colours) + (JOKER,) * jokers
                naturals = tuple(INDEX[t] for t in tiles if t != JOKER)
                prefix = "G" if len(naturals) == 1 else None
                out.setdefault(naturals[0], []).append((naturals, jokers, tiles, n * size, prefix))
    return out


class _Search:
    """The most rack tiles (then points) that fit with every `must` tile into groups and runs."""

    def __init__(self, must: Counter[str], rack: Counter[str], jokers: int, tile_weight: int = 100) -> None:
        self.tile_weight = tile_weight  # 0: points only (the initial meld's measure)
        self.must = [must[t] for t in TYPES]
        self.rack = [rack[t] for t in TYPES]
        self.jokers = jokers
        self.memo: dict[tuple[int, tuple[int, ...], int], tuple[int, tuple[Cand, ...]] | None] = {}
        self.nodes = 0
        self.exhausted = False

    def run(self) -> tuple[int, list[Cand]] | None:
        counts = tuple(m + r for m, r in zip(self.must, self.rack, strict=True))
        found = self._search(0, counts, self.jokers)
        if found is None or self.exhausted:
            return None
        return found[0], list(found[1])

    def _search(self, i: int, counts: tuple[int, ...], jokers: int) -> tuple[int, tuple[Cand, ...]] | None:
        while i < len(TYPES) and counts[i] == 0:
            i += 1
        if i == len(TYPES):
            return (0, ())
        key = (i, counts[i:], jokers)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.nodes > NODE_BUDGET:
            self.exhausted = True
            return None
        best: tuple[int, tuple[Cand, ...]] | None = None
        if counts[i] <= self.rack[i]:  # every table copy of this tile is placed already: the rest may stay
            rest = list(counts)
            rest[i] = 0
            best = self._search(i + 1, tuple(rest), jokers)
        for cand in _candidates().get(i, []):
            naturals, need_j, _tiles, value, _prefix = cand
            if need_j > jokers:
                continue
            after = list(counts)
            ok = True
            for t in naturals:
                after[t] -= 1
                if after[t] < 0:
                    ok = False
                    break
            if not ok:
                continue
            sub = self._search(i, tuple(after), jokers - need_j)
            if sub is None:
                continue
            score = sub[0] + self.tile_weight * (len(naturals) + need_j) + value
            if best is None or score > best[0]:
                best = (score, (cand, *sub[1]))
        self.memo[key] = best
        return best


def _spec(cand: Cand) -> MeldSpec:
    return MeldSpec(tiles=cand[2], prefix=cand[4])


def _kept(meld: dict[str, Any]) -> MeldSpec:
    return MeldSpec(tiles=tuple(meld["tiles"]), prefix=meld.get("prefix"))


def _rack_only(rack: Sequence[str]) -> tuple[int, list[Cand]]:
    counts = Counter(t for t in rack if t != JOKER)
    found = _Search(Counter(), counts, rack.count(JOKER)).run()
    return found if found is not None else (0, [])


def _no_move(view: dict[str, Any]) -> Action:
    return Draw() if view["pool"] else Pass()


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    rack: list[str] = list(view["rack"])
    table: list[dict[str, Any]] = view["table"]
    opened = view["opened"][view["you"]]
    if not opened:
        # RK-41: new melds from the rack only; the table stays exactly as it is.
        counts = Counter(t for t in rack if t != JOKER)
        opening = _Search(Counter(), counts, rack.count(JOKER), tile_weight=0).run()
        if opening is None or not opening[1] or opening[0] < view["initial_meld_min"]:
            return _no_move(view)
        return Play(melds=tuple([*(_kept(m) for m in table), *(_spec(c) for c in opening[1])]))
    frozen = [m for m in table if JOKER in m["tiles"]]
    free = [m for m in table if JOKER not in m["tiles"]]
    must = Counter(t for m in free for t in m["tiles"])
    rack_counts = Counter(t for t in rack if t != JOKER)
    found = _Search(must, rack_counts, rack.count(JOKER)).run()
    if found is not None:
        melds = found[1]
        placed = sum(len(c[2]) for c in melds) - sum(must.values())
        if placed > 0:
            return Play(melds=tuple([*(_kept(m) for m in frozen), *(_spec(c) for c in melds)]))
        return _no_move(view)
    _, extra = _rack_only(rack)
    if extra:
        return Play(melds=tuple([*(_kept(m) for m in table), *(_spec(c) for c in extra)]))
    return _no_move(view)

