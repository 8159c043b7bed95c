"""Rummy 101 melds (spec R101-20..27, 40..43): runs, sets and pairs, with declared or default jokers.

A meld as written is a tuple of tokens: a tile (`r5`), a bare joker (`j`) or a joker naming what it
stands for (`j=r11`, or `j=8` in a set). A meld as stored on the table is a JSON-native record:

- run:  {"kind": "run", "colour": "r", "lo": 10, "tiles": ["r10", "j", "r12"]}  (tiles in number order)
- set:  {"kind": "set", "number": 8, "tiles": ["r8", "b8", "j"]}               (numbered tiles by colour, jokers last)
- pair: {"kind": "pair", "tile": "r8", "tiles": ["r8", "j"]}

The record alone says what every joker represents (a run joker by its position, a set joker only by the
number, R101-24), so swaps and additions need no other memory.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, MIN_NUMBER, parse_tile

Meld = dict[str, Any]
MAX_SET = 4


class InvalidMeld(Exception):
    """Why a group of tiles is no run, set or pair; `reason` is a stable key for the catalogs."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class DoesNotFit(Exception):
    """An addition or swap that the target meld cannot take (R101-40/41/43)."""


# ---- tokens -----------------------------------------------------------------------------------


def parse_token(token: str) -> str:
    """Canonical token: a tile, `j`, `j=r11` or `j=8`; `E_PARSE` otherwise."""
    raw = token.strip().lower()
    if "=" in raw:
        head, _, decl = raw.partition("=")
        if parse_tile(head) != JOKER:
            raise IllegalAction("E_PARSE", token=token, expected="joker_declaration")
        if decl.isascii() and decl.isdigit() and MIN_NUMBER <= int(decl) <= MAX_NUMBER:
            return f"{JOKER}={int(decl)}"
        rep = parse_tile(decl) if decl else ""
        if rep in ("", JOKER):
            raise IllegalAction("E_PARSE", token=token, expected="joker_declaration")
        return f"{JOKER}={rep}"
    return parse_tile(raw)


def physical(token: str) -> str:
    """The tile a token takes from the hand: `j=r11` is a joker."""
    return JOKER if token.startswith(JOKER) else token


def _declared(token: str) -> tuple[str | None, int | None]:
    """(colour or None, number or None) a joker token declares; (None, None) for a bare joker."""
    if "=" not in token:
        return None, None
    decl = token.split("=", 1)[1]
    if decl.isdigit():
        return None, int(decl)
    return decl[0], int(decl[1:])


# ---- laying a meld ------------------------------------------------------------------------------


def analyse(tokens: Sequence[str]) -> Meld:
    """The stored record for a new meld, or `InvalidMeld` (R101-20..27)."""
    tokens = list(tokens)
    numbered = [t for t in tokens if not t.startswith(JOKER)]
    jokers = [t for t in tokens if t.startswith(JOKER)]
    if not numbered:
        raise InvalidMeld("only_jokers")
    if len(tokens) < 2:
        raise InvalidMeld("too_short")
    if len(tokens) == 2:
        return _pair(numbered, jokers)
    number_only = any(_declared(j)[0] is None and _declared(j)[1] is not None for j in jokers)
    tile_decl = any(_declared(j)[0] is not None for j in jokers)
    same_number = len({int(t[1:]) for t in numbered}) == 1
    if number_only and tile_decl and not same_number:
        raise InvalidMeld("mixed_declarations")
    # R101-27: one numbered tile plus jokers is a run unless a joker is declared `j=N`.
    if number_only or (same_number and len(numbered) >= 2):
        return _set(numbered, jokers)
    return _run(numbered, jokers)


def _pair(numbered: list[str], jokers: list[str]) -> Meld:
    tile = numbered[0]
    if len(numbered) == 2 and numbered[1] != tile:
        raise InvalidMeld("pair_mismatch")
    if jokers:
        colour, num = _declared(jokers[0])
        if num is not None and (colour is None or f"{colour}{num}" != tile):
            raise InvalidMeld("pair_mismatch")
    return {"kind": "pair", "tile": tile, "tiles": [tile, *([JOKER] * len(jokers)), *numbered[1:]][:2]}


def _set(numbered: list[str], jokers: list[str]) -> Meld:
    num = int(numbered[0][1:])
    if any(int(t[1:]) != num for t in numbered):
        raise InvalidMeld("mixed_numbers")
    colours = [t[0] for t in numbered]
    if len(set(colours)) != len(colours):
        raise InvalidMeld("colour_repeated")
    if len(numbered) + len(jokers) > MAX_SET:
        raise InvalidMeld("set_too_big")
    for j in jokers:
        colour, jnum = _declared(j)
        if jnum is not None and (jnum != num or colour in colours):
            raise InvalidMeld("joker_mismatch")
    return {"kind": "set", "number": num, "tiles": _set_tiles(numbered, len(jokers))}


def _set_tiles(numbered: list[str], jokers: int) -> list[str]:
    return sorted(numbered, key=lambda t: COLOURS.index(t[0])) + [JOKER] * jokers


def _run(numbered: list[str], jokers: list[str]) -> Meld:
    colour = numbered[0][0]
    if any(t[0] != colour for t in numbered):
        raise InvalidMeld("mixed_colours")
    fixed: dict[int, str] = {}
    for t in numbered:
        n = int(t[1:])
        if n in fixed:
            raise InvalidMeld("not_consecutive")
        fixed[n] = t
    free = 0
    for j in jokers:
        jc, jn = _declared(j)
        if jn is None:
            free += 1
            continue
        if jc != colour or jn in fixed:
            raise InvalidMeld("joker_mismatch")
        fixed[jn] = JOKER
    lo, hi = min(fixed), max(fixed)
    gaps = (hi - lo + 1) - len(fixed)
    if gaps > free:
        raise InvalidMeld("not_consecutive")
    lo, hi = _extend(lo, hi, free - gaps)
    return {"kind": "run", "colour": colour, "lo": lo, "tiles": [fixed.get(n, JOKER) for n in range(lo, hi + 1)]}


def _extend(lo: int, hi: int, extra: int) -> tuple[int, int]:
    """Default placement of surplus jokers: upward until 13, then downward (R101-24)."""
    up = min(extra, MAX_NUMBER - hi)
    down = extra - up
    if lo - down < MIN_NUMBER:
        raise InvalidMeld("run_too_long")
    return lo - down, hi + up


# ---- reading a stored meld ------------------------------------------------------------------------


def represented(meld: Meld) -> list[str]:
    """What each tile stands for, in order: `r11` for a run joker, `8` for a set joker."""
    kind = meld["kind"]
    if kind == "run":
        return [f"{meld['colour']}{meld['lo'] + i}" for i in range(len(meld["tiles"]))]
    if kind == "set":
        return [t if t != JOKER else str(meld["number"]) for t in meld["tiles"]]
    return [meld["tile"]] * len(meld["tiles"])


def shown(meld: Meld) -> list[str]:
    """Tokens as the spec writes a table meld: `r10 j=r11 r12`, `r8 b8 j=8`, `r8 j=r8`."""
    return [t if t != JOKER else f"{JOKER}={rep}" for t, rep in zip(meld["tiles"], represented(meld), strict=True)]


def meld_value(meld: Meld) -> int:
    """R101-25: the sum of the represented tiles."""
    kind = meld["kind"]
    if kind == "run":
        lo, size = meld["lo"], len(meld["tiles"])
        return size * lo + size * (size - 1) // 2
    if kind == "set":
        return meld["number"] * len(meld["tiles"])
    return 2 * int(meld["tile"][1:])


def is_series(meld: Meld) -> bool:
    return meld["kind"] != "pair"


# ---- additions and swaps ------------------------------------------------------------------------------


def add_to(meld: Meld, tokens: Sequence[str]) -> Meld:
    """The meld with `tokens` added at its ends (run) or as missing colours (set), or `DoesNotFit`."""
    kind = meld["kind"]
    if kind == "run":
        return _add_run(meld, tokens)
    if kind == "set":
        return _add_set(meld, tokens)
    raise DoesNotFit("pair")


def _add_run(meld: Meld, tokens: Sequence[str]) -> Meld:
    colour, lo = meld["colour"], meld["lo"]
    hi = lo + len(meld["tiles"]) - 1
    fixed: dict[int, str] = {}
    free = 0
    for tok in tokens:
        if tok.startswith(JOKER):
            jc, jn = _declared(tok)
            if jn is None:
                free += 1
                continue
            if jc != colour:
                raise DoesNotFit(tok)
            n, tile = jn, JOKER
        else:
            if tok[0] != colour:
                raise DoesNotFit(tok)
            n, tile = int(tok[1:]), tok
        if lo <= n <= hi or n in fixed:
            raise DoesNotFit(tok)
        fixed[n] = tile
    new_lo = min([lo, *fixed])
    new_hi = max([hi, *fixed])
    gaps = (new_hi - new_lo + 1) - (hi - lo + 1) - len(fixed)
    if gaps > free:
        raise DoesNotFit("gap")
    try:
        new_lo, new_hi = _extend(new_lo, new_hi, free - gaps)
    except InvalidMeld as err:
        raise DoesNotFit("range") from err
    old = dict(zip(range(lo, hi + 1), meld["tiles"], strict=True))
    tiles = [old.get(n) or fixed.get(n, JOKER) for n in range(new_lo, new_hi + 1)]
    return {**meld, "lo": new_lo, "tiles": tiles}


def _add_set(meld: Meld, tokens: Sequence[str]) -> Meld:
    num = meld["number"]
    numbered = [t for t in meld["tiles"] if t != JOKER]
    jokers = len(meld["tiles"]) - len(numbered)
    for tok in tokens:
        if tok.startswith(JOKER):
            _, jn = _declared(tok)
            if jn is not None and jn != num:
                raise DoesNotFit(tok)
            jokers += 1
            continue
        if int(tok[1:]) != num or tok[0] in {t[0] for t in numbered}:
            raise DoesNotFit(tok)
        numbered.append(tok)
    if len(numbered) + jokers > MAX_SET:
        raise DoesNotFit("full")
    return {**meld, "tiles": _set_tiles(numbered, jokers)}


def swap_in(meld: Meld, tile: str) -> Meld:
    """The meld with one joker replaced by `tile`, exactly what it represents (R101-41), or `DoesNotFit`."""
    if tile.startswith(JOKER) or JOKER not in meld["tiles"]:
        raise DoesNotFit(tile)  # a joker never replaces a joker
    tiles = list(meld["tiles"])
    kind = meld["kind"]
    if kind == "run":
        idx = int(tile[1:]) - meld["lo"]
        if tile[0] != meld["colour"] or not 0 <= idx < len(tiles) or tiles[idx] != JOKER:
            raise DoesNotFit(tile)
        tiles[idx] = tile
        return {**meld, "tiles": tiles}
    if kind == "set":
        numbered = [t for t in tiles if t != JOKER]
        if int(tile[1:]) != meld["number"] or tile[0] in {t[0] for t in numbered}:
            raise DoesNotFit(tile)
        return {**meld, "tiles": _set_tiles([*numbered, tile], len(tiles) - len(numbered) - 1)}
    if tile != meld["tile"]:
        raise DoesNotFit(tile)
    return {**meld, "tiles": [tile, tile]}
