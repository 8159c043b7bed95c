"""The per-turn draft (RK-26): a private copy of table and rack the player edits step by step.

Nothing is validated until `done`; bad references are `E_BAD_REF`, tiles not left on the draft
rack `E_NOT_ON_RACK`. Functions mutate the draft they are given (the engine hands them a copy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core.errors import IllegalAction, not_held
from rules.core.tiles import JOKER, sorted_tiles
from rules.rummikub.melds import is_valid, looks_like_run, place_in_run

Draft = dict[str, Any]  # {"table": [StoredMeld...], "rack": [tiles]}


def start(table: Sequence[dict], rack: Sequence[str]) -> Draft:
    return {"table": [{"tiles": list(m["tiles"]), "prefix": m.get("prefix")} for m in table], "rack": list(rack)}


def _take_from_rack(draft: Draft, tiles: Sequence[str]) -> None:
    missing = Counter(tiles) - Counter(draft["rack"])
    if missing:
        raise not_held("E_NOT_ON_RACK", draft["rack"], tiles, sorted_tiles(missing.elements()))
    for t in tiles:
        draft["rack"].remove(t)


def _meld(draft: Draft, number: int) -> dict:
    if not 1 <= number <= len(draft["table"]):
        raise IllegalAction("E_BAD_REF", meld=number)
    return draft["table"][number - 1]


def _insert(meld: dict, tile: str) -> None:
    if looks_like_run(meld["tiles"], meld.get("prefix")):
        meld["tiles"] = place_in_run(meld["tiles"], tile)
    else:
        meld["tiles"].append(tile)


def new_meld(draft: Draft, tiles: Sequence[str], prefix: str | None) -> None:
    _take_from_rack(draft, tiles)
    draft["table"].append({"tiles": arrange_new(tiles, prefix), "prefix": prefix})


def arrange_new(tiles: Sequence[str], prefix: str | None) -> list[str]:
    """A new draft meld's order: the player's own when it reads as a meld (a joker stays where it
    was put, `b6 b7 j b9`); else, for one colour's distinct numbers, the run with the jokers in its
    gaps (`b6 b7 b9 j`, as picked from a sorted rack); else tile by tile by number (RK-26)."""
    if is_valid(tiles, prefix):
        return list(tiles)
    if looks_like_run(tiles, prefix):
        fitted = _run_with_jokers(tiles)
        if fitted is not None and is_valid(fitted, prefix):
            return fitted
    placed: list[str] = []
    for t in tiles:
        placed = place_in_run(placed, t) if placed and looks_like_run([*placed, t], prefix) else [*placed, t]
    return placed


def _run_with_jokers(tiles: Sequence[str]) -> list[str] | None:
    """One colour's numbered tiles in order with the jokers filling the gaps, spare jokers after the
    highest (before the lowest at 13); None when the tiles cannot be one run."""
    numbered = sorted((t for t in tiles if t != JOKER), key=lambda t: int(t[1:]))
    jokers = len(tiles) - len(numbered)
    numbers = [int(t[1:]) for t in numbered]
    if not numbered or len({t[0] for t in numbered}) != 1 or len(set(numbers)) != len(numbers):
        return None
    out = [numbered[0]]
    for prev, tile in zip(numbered, numbered[1:], strict=False):
        gap = int(tile[1:]) - int(prev[1:]) - 1
        if gap > jokers:
            return None
        out += [JOKER] * gap + [tile]
        jokers -= gap
    for _ in range(jokers):
        out = place_in_run(out, JOKER)
    return out


def add_tiles(draft: Draft, number: int, tiles: Sequence[str]) -> None:
    meld = _meld(draft, number)
    _take_from_rack(draft, tiles)
    for t in tiles:
        _insert(meld, t)


def move_tile(draft: Draft, tile: str, src: int, dst: int | None) -> None:
    source = _meld(draft, src)
    target = None if dst is None else _meld(draft, dst)
    if tile not in source["tiles"]:
        raise IllegalAction("E_BAD_REF", meld=src, tile=tile)
    if target is source:
        raise IllegalAction("E_BAD_REF", meld=dst, tile=tile)
    source["tiles"].remove(tile)
    if target is None:
        draft["table"].append({"tiles": [tile], "prefix": None})
    else:
        _insert(target, tile)
    if not source["tiles"]:
        # By identity: another meld may be equal as a value.
        draft["table"] = [m for m in draft["table"] if m is not source]


def to_rack(draft: Draft, tile: str, src: int, rack0: Sequence[str]) -> None:
    """Take back a tile placed this turn. Only as many copies as came from the turn-start rack
    `rack0` may go back: a tile that was on the table stays there (C2, RK-46)."""
    source = _meld(draft, src)
    if tile not in source["tiles"]:
        raise IllegalAction("E_BAD_REF", meld=src, tile=tile)
    if draft["rack"].count(tile) >= list(rack0).count(tile):
        raise IllegalAction("E_TILE_REMOVED", tiles=[tile], why="to_rack")
    source["tiles"].remove(tile)
    draft["rack"].append(tile)
    if not source["tiles"]:
        draft["table"] = [m for m in draft["table"] if m is not source]


def split(draft: Draft, number: int, pos: int) -> None:
    meld = _meld(draft, number)
    if not 1 <= pos <= len(meld["tiles"]) - 1:
        raise IllegalAction("E_BAD_REF", meld=number, pos=pos)
    head, tail = meld["tiles"][:pos], meld["tiles"][pos:]
    meld["tiles"] = head
    draft["table"].append({"tiles": tail, "prefix": None})
