"""The table seen from 13 down (rules/rummikub/solver.py): every tile n written 14 - n, runs reversed.

The rules are the same both ways, but the sweep is not as fast both ways: it keeps the most states
where the table is dense and the rack's tiles are still ahead, so it starts from the sparser end
(the rule was chosen on the 200 positions of bench/bench_ai.py: 0.64x the states of always sweeping
up; checked on 200 others: 0.86x, and on racks of 25..40: 0.79x). Mirroring twice gives the table
back.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core.tiles import JOKER, MAX_NUMBER

StoredMeld = dict


def sweep_down(table: Sequence[StoredMeld]) -> bool:
    """Whether the table holds more tiles at 8..13 than at 1..6: then the sweep starts from 13."""
    low = high = 0
    for meld in table:
        for t in meld["tiles"]:
            if t != JOKER:
                n = int(t[1:])
                low += n < 7
                high += n > 7
    return low > high


def mirror_tiles(tiles: Sequence[str]) -> list[str]:
    return [t if t == JOKER else f"{t[0]}{MAX_NUMBER + 1 - int(t[1:])}" for t in tiles]


def mirror_melds(melds: Sequence[StoredMeld]) -> list[StoredMeld]:
    """Each meld mirrored (a run's tiles reversed, so it still ascends), its prefix kept."""
    out = []
    for meld in melds:
        tiles = mirror_tiles(meld["tiles"])
        if not _is_group(meld):
            tiles.reverse()
        out.append({"tiles": tiles, "prefix": meld.get("prefix")})
    return out


def _is_group(meld: StoredMeld) -> bool:
    """A valid meld is a group when it says so or two of its numbered tiles share a number; else a run
    (a lone numbered tile with jokers reads as a run unless marked G, RK-35). Cheaper than `analyse`,
    which the solver would call for every meld twice."""
    if meld.get("prefix") == "G":
        return True
    numbered = [t for t in meld["tiles"] if t != JOKER]
    return len(numbered) >= 2 and numbered[0][1:] == numbered[1][1:]
