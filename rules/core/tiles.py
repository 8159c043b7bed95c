"""Rummikub-style tiles in the shared notation: colour letter + number (`r5`, `k13`), joker `j`.

Tiles are canonical lowercase strings everywhere in state, so they are JSON-native and readable in
logs; the two copies of a tile are interchangeable (rules compare multisets).
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.core.errors import IllegalAction

COLOURS = "rbky"  # sort order r < b < k < y (RK-04)
JOKER = "j"
MIN_NUMBER, MAX_NUMBER = 1, 13

_COLOUR_INDEX = {c: i for i, c in enumerate(COLOURS)}
# Every valid spelling (lower-cased) -> canonical tile; built once, so parsing is one dict lookup.
_CANONICAL: dict[str, str] = {JOKER: JOKER, "jk": JOKER, "joker": JOKER}
for _c in COLOURS:
    for _n in range(MIN_NUMBER, MAX_NUMBER + 1):
        _CANONICAL[f"{_c}{_n}"] = f"{_c}{_n}"
        _CANONICAL[f"{_c}{_n:02d}"] = f"{_c}{_n}"
# "o" for orange, as the Rummikub tiles are printed (RK-01).
for _n in range(MIN_NUMBER, MAX_NUMBER + 1):
    _CANONICAL[f"o{_n}"] = f"y{_n}"


def parse_tile(token: str) -> str:
    """Canonical tile for a token (case-insensitive), or `IllegalAction('E_PARSE')` naming it."""
    tile = _CANONICAL.get(token.strip().lower())
    if tile is None:
        raise IllegalAction("E_PARSE", token=token, expected="tile")
    return tile


def is_tile(token: str) -> bool:
    return token.strip().lower() in _CANONICAL


def is_joker(tile: str) -> bool:
    return tile == JOKER


def colour(tile: str) -> str:
    return tile[0]


def number(tile: str) -> int:
    return int(tile[1:])


def make_tile(colour_letter: str, num: int) -> str:
    return f"{colour_letter}{num}"


def tile_set(jokers: int = 2, copies: int = 2) -> list[str]:
    """The full set in canonical order: `copies` of every colour/number, then the jokers."""
    tiles = [f"{c}{n}" for c in COLOURS for n in range(MIN_NUMBER, MAX_NUMBER + 1) for _ in range(copies)]
    return tiles + [JOKER] * jokers


def sort_key(tile: str) -> tuple[int, int]:
    """Colour order then number; jokers last."""
    if tile == JOKER:
        return (len(COLOURS), 0)
    return (_COLOUR_INDEX[tile[0]], int(tile[1:]))


def number_key(tile: str) -> tuple[int, int]:
    """Number then colour; jokers last. Used to show a rack grouped by sets."""
    if tile == JOKER:
        return (MAX_NUMBER + 1, 0)
    return (int(tile[1:]), _COLOUR_INDEX[tile[0]])


def sorted_tiles(tiles: Iterable[str]) -> list[str]:
    return sorted(tiles, key=sort_key)
