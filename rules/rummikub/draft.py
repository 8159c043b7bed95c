"""The per-turn draft (RK-26): a private copy of table and rack the player edits step by step.

Nothing is validated until `done`; bad references are `E_BAD_REF`, tiles not left on the draft
rack `E_NOT_ON_RACK`. Functions mutate the draft they are given (the engine hands them a copy).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core.errors import IllegalAction, not_held
from rules.core.tiles import sorted_tiles
from rules.rummikub.melds import looks_like_run, place_in_run

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
    meld: dict = {"tiles": [], "prefix": prefix}
    for t in tiles:
        if meld["tiles"] and looks_like_run([*meld["tiles"], t], prefix):
            meld["tiles"] = place_in_run(meld["tiles"], t)
        else:
            meld["tiles"].append(t)
    draft["table"].append(meld)


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
