"""Random mid-game Rummikub positions for measuring and testing the AI (issue 16).

A position is a valid table of melds (some holding jokers) and a rack, all drawn from one 106-tile
set without exceeding its copies (RK-01). The caller passes the `Random`, so this stays pure.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from random import Random

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, tile_set
from rules.rummikub.melds import analyse

StoredMeld = dict


@dataclass(frozen=True)
class Position:
    table: list[StoredMeld]
    rack: list[str]


def _random_meld(rng: Random) -> list[str]:
    if rng.random() < 0.55:
        colour = rng.choice(COLOURS)
        length = rng.choice((3, 3, 4, 4, 5, 6, 7))
        start = rng.randint(1, MAX_NUMBER - length + 1)
        return [f"{colour}{n}" for n in range(start, start + length)]
    number = rng.randint(1, MAX_NUMBER)
    return [f"{c}{number}" for c in rng.sample(COLOURS, rng.choice((3, 3, 4)))]


def random_position(
    rng: Random, melds: tuple[int, int] = (4, 12), rack: tuple[int, int] = (8, 20), joker_rate: float = 0.25
) -> Position:
    """A table of `melds` (lo, hi) valid melds and a rack of `rack` (lo, hi) tiles; each meld takes a
    joker in place of one of its tiles with probability `joker_rate` while the set has one left."""
    left = Counter(tile_set())
    want = rng.randint(*melds)
    table: list[StoredMeld] = []
    tries = 0
    while len(table) < want and tries < 500:
        tries += 1
        tiles = _random_meld(rng)
        if Counter(tiles) - left:
            continue
        if left[JOKER] and rng.random() < joker_rate:
            tiles[rng.randrange(len(tiles))] = JOKER
        info = analyse(tiles)
        table.append({"tiles": list(info.tiles), "prefix": info.prefix})
        left.subtract(tiles)
    pool = sorted(left.elements())
    rng.shuffle(pool)
    return Position(table=table, rack=sorted(pool[: rng.randint(*rack)]))
