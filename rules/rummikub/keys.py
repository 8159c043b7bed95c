"""The sweep's states packed into one int (rules/rummikub/sweep.py): hashing an int and rebuilding
the next state with a mask and an OR is several times cheaper than slicing nested tuples, and the
sweep makes hundreds of thousands of them on a big rack.

Layout: bits 0..35 the open runs of the four colours, one `LINE_BITS` field each holding the index
of the colour's line (its sorted run lengths, see sweep.py) in `LINES`; then `USED_BITS` for the
jokers used so far; above them the index of the rest of the key within one number (open groups,
replacements supplied, kept jokers pending), interned by `rest_id`.
"""

from __future__ import annotations

from itertools import combinations_with_replacement

# A colour has at most 2 tiles and the set's 2 jokers at one number, so at most 4 open runs; lines of
# up to 6 runs are listed so that no reachable line is missing. The order is fixed, so ids never
# depend on what was solved before.
LINES: list[tuple[int, ...]] = [line for n in range(7) for line in combinations_with_replacement(range(1, 6), n)]
LINE_ID: dict[tuple[int, ...], int] = {line: i for i, line in enumerate(LINES)}
LINE_BITS = 9
LINE_MASK = (1 << LINE_BITS) - 1
USED_SHIFT = 4 * LINE_BITS
RUNS_MASK = (1 << USED_SHIFT) - 1
USED_BITS = 3
USED_MASK = (1 << USED_BITS) - 1
REST_SHIFT = USED_SHIFT + USED_BITS
BOUNDARY_MASK = (1 << REST_SHIFT) - 1  # runs and jokers used: the whole key between two numbers
CLOSED = [all(x == 3 for x in line) for line in LINES]  # every run of the line may end here


def lines_of(key: int) -> tuple[int, int, int, int]:
    """The four colours' line ids of a key."""
    return key & LINE_MASK, key >> LINE_BITS & LINE_MASK, key >> 2 * LINE_BITS & LINE_MASK, key >> 3 * LINE_BITS & LINE_MASK


# The rests met so far, interned once for every sweep (a memo like functools.cache: a rest's id only
# names it, nothing the sweep decides depends on its value).
_REST_IDS: dict[tuple, int] = {}
REST_ITEMS: list[tuple] = []


def rest_id(rest: tuple) -> int:
    """The id of an intra-number rest of a key, (open groups, replacements supplied, kept jokers pending)."""
    found = _REST_IDS.get(rest)
    if found is None:
        found = _REST_IDS[rest] = len(REST_ITEMS)
        REST_ITEMS.append(rest)
    return found
