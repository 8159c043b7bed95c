"""What a play changed on the table, so others can follow it without comparing two tables.

A `play` submits the whole layout (RK-20); the table keeps its order (rules/rummikub/table_order.py),
yet a meld may still carry a new number when a rearrangement leaves fewer melds before it.
`table_changes` matches the tables meld by meld and says, in table numbers (1-based; `was` is the
number before the play):

- `new`: melds made only of rack tiles;
- `extended`: an old meld kept whole, with rack tiles added;
- `rearranged`: the old melds that were broken up (`before`) and the melds they became (`after`),
  with the rack tiles that went into them (`from_rack`);
- `jokers`: a joker won back (RK-52): the tile that took its place, in which old and new meld;
- `renumbered`: whether a meld left as it was now has another number.

Everything is JSON-native: it travels in the `MeldsPlayed` event.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from rules.core.tiles import JOKER, sorted_tiles
from rules.rummikub.melds import InvalidMeld, analyse

StoredMeld = dict


def _entry(n: int, meld: StoredMeld) -> dict[str, Any]:
    return {"n": n, "tiles": list(meld["tiles"]), "prefix": meld.get("prefix")}


def _pair(free: list[int], todo: list[int], test: Any, match: dict[int, int]) -> None:
    """Pairs each new index in `todo` with a free old index passing `test(i, j)`: every pair at the
    same position first (a table in its kept order pairs alike melds in place), then the first free."""
    for same in (True, False):
        for j in todo:
            if j in match:
                continue
            i = (j if j in free and test(j, j) else None) if same else next((i for i in free if test(i, j)), None)
            if i is not None:
                match[j] = i
                free.remove(i)


def match_melds(before: Sequence[StoredMeld], after: Sequence[StoredMeld],
                added: Sequence[str]) -> tuple[dict[int, int], Counter[str]]:
    """Which old meld each new one continues: `{new index: old index}` for a meld left as it was
    (matched first, so an old meld is never taken for the base of an extension by mistake) and for
    an old meld kept whole with rack tiles added; the rack tiles those extensions did not use."""
    old = [Counter(m["tiles"]) for m in before]
    new = [Counter(m["tiles"]) for m in after]
    # Cheap stand-ins for the multiset tests below (a play compares every old meld with every new
    # one): equal multisets are equal sorted tuples, and a sub-multiset has a subset of the tiles.
    old_sorted = [tuple(sorted(m["tiles"])) for m in before]
    new_sorted = [tuple(sorted(m["tiles"])) for m in after]
    old_set = [set(t) for t in old_sorted]
    new_set = [set(t) for t in new_sorted]
    free_old = list(range(len(before)))
    match: dict[int, int] = {}
    _pair(free_old, list(range(len(after))), lambda i, j: old_sorted[i] == new_sorted[j], match)
    rack = Counter(added)

    def extends(i: int, j: int) -> bool:
        """New meld j is old meld i plus tiles from the rack (the rack's tiles not used yet)."""
        return old_set[i] <= new_set[j] and not old[i] - new[j] and not (new[j] - old[i]) - rack

    for j in range(len(after)):
        if j in match:
            continue
        _pair(free_old, [j], extends, match)  # one by one: each extension uses up its rack tiles
        if j in match:
            rack -= new[j] - old[match[j]]
    return match, rack


def table_changes(before: Sequence[StoredMeld], after: Sequence[StoredMeld], added: Sequence[str]) -> dict[str, Any]:
    old = [Counter(m["tiles"]) for m in before]
    new = [Counter(m["tiles"]) for m in after]
    match, rack = match_melds(before, after, added)
    extended = [{**_entry(j + 1, after[j]), "was": i + 1, "added": sorted_tiles((new[j] - old[i]).elements())}
                for j, i in sorted(match.items()) if old[i] != new[j]]
    free_old = [i for i in range(len(before)) if i not in match.values()]
    fresh = []
    for j in range(len(after)):
        if j not in match and not new[j] - rack:
            rack -= new[j]
            match[j] = -1
            fresh.append(_entry(j + 1, after[j]))
    broken = [_entry(i + 1, before[i]) for i in free_old]
    remade = [_entry(j + 1, after[j]) for j in range(len(after)) if j not in match]
    renumbered = any(i != j for j, i in match.items() if i >= 0 and old[i] == new[j])
    return {
        "new": fresh,
        "extended": extended,
        "rearranged": {"before": broken, "after": remade, "from_rack": sorted_tiles(rack.elements())}
        if broken or remade else None,
        "jokers": _jokers_won(broken, remade),
        "renumbered": renumbered,
    }


def _jokers_won(broken: list[dict], remade: list[dict]) -> list[dict[str, Any]]:
    """A broken-up old meld whose joker's tile now stands, as a real tile, among its other tiles."""
    won = []
    for meld in broken:
        if JOKER not in meld["tiles"]:
            continue
        try:
            info = analyse(meld["tiles"], meld.get("prefix"))
        except InvalidMeld:  # a stored meld is valid; this only guards against a hand-made table
            continue
        naturals = Counter(t for t in meld["tiles"] if t != JOKER)
        for stands_for in info.joker_sets:
            home = next(
                (
                    m for m in remade
                    if not naturals - Counter(m["tiles"])
                    and m["tiles"].count(JOKER) < meld["tiles"].count(JOKER)
                    and stands_for & set(m["tiles"])
                ),
                None,
            )
            if home is not None:
                tile = sorted_tiles(stands_for & set(home["tiles"]))[0]
                won.append({"was": meld["n"], "n": home["n"], "tile": tile})
    return won
