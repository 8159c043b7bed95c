"""Whole-table validation of a `play` (RK-46): checks C2..C8 in order, first failure wins.

C1 (well-formed tiles) is the parser's job: a `Play` only ever holds canonical tiles.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import permutations, product

from rules.core.errors import IllegalAction, not_held
from rules.core.tiles import JOKER, sorted_tiles
from rules.rummikub.melds import InvalidMeld, MeldInfo, meld_info

# A meld in state and in a layout: {"tiles": [...], "prefix": "G" | "R" | None}
StoredMeld = dict


@dataclass(frozen=True)
class AcceptedPlay:
    table: list[StoredMeld]  # normalised melds to store (RK-47)
    added: list[str]  # rack tiles that went to the table
    opened_now: bool


def meld_tiles(layout: Sequence[StoredMeld]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for meld in layout:
        counts.update(meld["tiles"])
    return counts


def analyse_layout(layout: Sequence[StoredMeld]) -> list[MeldInfo]:
    """Analyse every meld; `E_INVALID_MELD` names the first invalid one (C5)."""
    infos = []
    for index, meld in enumerate(layout, start=1):
        try:
            infos.append(meld_info(tuple(meld["tiles"]), meld.get("prefix")))
        except InvalidMeld as err:
            raise IllegalAction(
                "E_INVALID_MELD", meld=" ".join(meld["tiles"]), index=index, reason=err.reason
            ) from None
    return infos


def stored(info: MeldInfo) -> StoredMeld:
    return {"tiles": list(info.tiles), "prefix": info.prefix}


def _tiles_removed(t1: Sequence[StoredMeld], r0: Sequence[str], missing: Counter[str]) -> IllegalAction:
    """C2's refusal. When every tile typed is from the rack, the player meant to lay new melds, not to
    rewrite the table: `why` "new_only" and a `suggest`ed `new` command per typed meld say so."""
    params: dict = {"tiles": sorted_tiles(missing.elements())}
    if t1 and not meld_tiles(t1) - Counter(r0):
        params["why"] = "new_only"
        params["suggest"] = ", ".join("new " + " ".join(m["tiles"]) for m in t1)
    return IllegalAction("E_TILE_REMOVED", **params)


def validate_play(
    t0: Sequence[StoredMeld],
    r0: Sequence[str],
    t1: Sequence[StoredMeld],
    opened: bool,
    initial_min: int,
) -> AcceptedPlay:
    """Check `play(T1)` against the turn-start table T0 and rack R0; raise the first failing check."""
    before, after = meld_tiles(t0), meld_tiles(t1)
    missing = before - after
    if missing:  # C2
        raise _tiles_removed(t1, r0, missing)
    added = after - before
    if not added:  # C3
        raise IllegalAction("E_NO_TILE_PLAYED")
    not_on_rack = added - Counter(r0)
    if not_on_rack:  # C4
        raise not_held("E_NOT_ON_RACK", r0, added.elements(), sorted_tiles(not_on_rack.elements()))
    infos_after = analyse_layout(t1)  # C5
    infos_before = [meld_info(tuple(m["tiles"]), m.get("prefix")) for m in t0]
    if not opened:
        new_melds = Counter((i.type, i.tiles) for i in infos_after)
        old_melds = Counter((i.type, i.tiles) for i in infos_before)
        if old_melds - new_melds:  # C6
            raise IllegalAction("E_INITIAL_TOUCHES_TABLE")
        value = sum(i.value for i in infos_after) - sum(i.value for i in infos_before)
        if value < initial_min:  # C7
            raise IllegalAction("E_INITIAL_TOO_LOW", value=value, required=initial_min)
    elif not jokers_accounted_for(infos_before, infos_after):  # C8
        raise IllegalAction("E_JOKER_NOT_REPLACED")
    return AcceptedPlay(
        table=[stored(i) for i in infos_after],
        added=sorted_tiles(added.elements()),
        opened_now=not opened,
    )


def jokers_accounted_for(before: Sequence[MeldInfo], after: Sequence[MeldInfo]) -> bool:
    """RK-52: some pairing of old jokers to new ones keeps or replaces every old joker."""
    old_sets = [s for info in before for s in info.joker_sets]
    if not old_sets:
        return True
    new_sets = [s for info in after for s in info.joker_sets]
    numbered_after = Counter(t for info in after for t in info.tiles if t != JOKER)
    for partners in permutations(range(len(new_sets)), len(old_sets)):
        retrieved = [old for old, p in zip(old_sets, partners, strict=True) if not old & new_sets[p]]
        if _replacements_exist(retrieved, numbered_after):
            return True
    return False


def _replacements_exist(retrieved: Sequence[frozenset[str]], numbered: Counter[str]) -> bool:
    """Each retrieved joker needs its own numbered tile from its old candidate set (copies count)."""
    if not retrieved:
        return True
    return any(not Counter(choice) - numbered for choice in product(*(sorted(s) for s in retrieved)))
