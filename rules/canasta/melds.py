"""Tile categories, values and team melds (CAN-03/04, CAN-20..33).

Melds are stored as plain tile lists keyed by their number; these pure helpers judge them. A wild
keeps its own value in any meld (D-21): a two is worth 20 and a joker 50 wherever it sits.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from rules.core.tiles import COLOURS, JOKER

BONUS_THREES = ("r3", "y3")
BLOCK_THREES = ("b3", "k3")
TWOS_MELD = 2
CANASTA_SIZE = 7
MAXWILD_TILES = 3
MAX_TWOS_MELD_JOKERS = 2
BLOCK_THREE_PENALTY = 100
BONUS_THREE_VALUE = 100
GOING_OUT_BONUS = 100
CANASTA_BONUS = {"clean": 500, "dirty": 300, "clean_twos": 1000, "dirty_twos": 700}
_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}


def _all_tiles() -> list[str]:
    return [f"{c}{n}" for c in COLOURS for n in range(1, 14)] + [JOKER]


def num(tile: str) -> int:
    """The tile's number; a joker is 0."""
    return 0 if tile == JOKER else int(tile[1:])


def is_bonus_three(tile: str) -> bool:
    return tile in BONUS_THREES


def is_block_three(tile: str) -> bool:
    return tile in BLOCK_THREES


def is_two(tile: str) -> bool:
    return tile != JOKER and tile[1:] == "2"


def is_wild(tile: str) -> bool:
    return tile == JOKER or is_two(tile)


def is_natural(tile: str) -> bool:
    """1 and 4..13 (CAN-03): what natural melds are built from and what a pile take needs."""
    return tile != JOKER and num(tile) not in (2, 3)


def value(tile: str) -> int:
    """CAN-04; threes have no face value (their ±100 is scored by CAN-45/46)."""
    if tile == JOKER:
        return 50
    n = num(tile)
    if n == 1:
        return 25
    if n == 2:
        return 20
    if n == 3:
        return 0
    return 5 if n <= 9 else 10


def hand_penalty(tiles: Iterable[str]) -> int:
    """What tiles left in a hand cost at round end (CAN-60/61): face value, block threes 100."""
    return sum(BLOCK_THREE_PENALTY if is_block_three(t) else value(t) for t in tiles)


def sort_key(tile: str) -> tuple[int, int]:
    """Number then colour (CAN-05), jokers last: a hand reads as its future melds."""
    if tile == JOKER:
        return (99, 0)
    return (num(tile), _COLOUR_INDEX[tile[0]])


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=_SORT_KEYS.__getitem__)


def meld_number(tiles: Sequence[str]) -> int | None:
    """The number a written meld belongs to: its naturals' number, 2 for twos and jokers only,
    None when no single number fits (mixed naturals, a three, jokers alone)."""
    numbers = {num(t) for t in tiles if is_natural(t)}
    if any(num(t) == 3 for t in tiles if t != JOKER):
        return None
    if len(numbers) == 1:
        return numbers.pop()
    if not numbers and any(is_two(t) for t in tiles):
        return TWOS_MELD
    return None


def meld_problem(number: int, tiles: Sequence[str], new: bool = True) -> str | None:
    """Why `tiles` is not a valid meld of `number` (CAN-20..23), or None when it is valid."""
    if new and len(tiles) < 3:
        return "too_short"
    if number == TWOS_MELD:
        twos = sum(1 for t in tiles if is_two(t))
        jokers = sum(1 for t in tiles if t == JOKER)
        if twos + jokers != len(tiles):
            return "canasta_wrong_number"
        if jokers > MAX_TWOS_MELD_JOKERS or jokers >= twos:
            return "canasta_twos_jokers"
        return None
    if number == 3 or not 1 <= number <= 13:
        return "canasta_threes"
    naturals = sum(1 for t in tiles if t != JOKER and num(t) == number)
    wilds = sum(1 for t in tiles if is_wild(t))
    if naturals + wilds != len(tiles):
        return "canasta_threes" if any(t != JOKER and num(t) == 3 for t in tiles) else "canasta_wrong_number"
    if wilds > MAXWILD_TILES:
        return "canasta_too_many_wilds"
    if naturals <= wilds:
        return "canasta_too_few_naturals"
    return None


def canasta_kind(number: int, tiles: Sequence[str]) -> str | None:
    """CAN-30/31: the canasta type from the meld's content now, or None below 7 tiles."""
    if len(tiles) < CANASTA_SIZE:
        return None
    if number == TWOS_MELD:
        return "dirty_twos" if JOKER in tiles else "clean_twos"
    return "dirty" if any(t in WILD_TILES for t in tiles) else "clean"


def meld_score(number: int, tiles: Sequence[str]) -> int:
    """Tile values plus the canasta bonus (CAN-30..32, CAN-60)."""
    kind = canasta_kind(number, tiles)
    return tiles_value(tiles) + (CANASTA_BONUS[kind] if kind else 0)


def count_value(tiles: Iterable[str]) -> int:
    """The opening count (CAN-36): face values, wilds included, no bonuses."""
    return tiles_value(tiles)


def multiset_missing(have: Iterable[str], want: Iterable[str]) -> list[str]:
    """Tiles of `want` that `have` lacks, copies counted."""
    return sorted((Counter(want) - Counter(have)).elements(), key=sort_key)


# Hot paths (views and the AI judge melds thousands of times a game) read these tables instead of
# re-deriving a tile's value and sort key from its text each time.
_VALUES = {t: value(t) for t in _all_tiles()}
_SORT_KEYS = {t: sort_key(t) for t in _all_tiles()}
WILD_TILES = frozenset(t for t in _all_tiles() if is_wild(t))
# Display order inside a natural meld: its naturals, then twos, then jokers.
_MELD_KEYS = {t: (t in WILD_TILES, _SORT_KEYS[t]) for t in _all_tiles()}


def fast_value(tile: str) -> int:
    return _VALUES[tile]


def meld_display_key(tile: str) -> tuple[bool, tuple[int, int]]:
    return _MELD_KEYS[tile]


def tiles_value(tiles: Iterable[str]) -> int:
    return sum(_VALUES[t] for t in tiles)
