"""The Rummikub AI's table plans after opening (rules/rummikub/ai.py), used past the exact solver's
budget: several pipelines (rack melds first or table extensions first, and one per joker that a rack
tile can win back) then a hill climb of table moves: extend runs and groups, split a run to insert a
duplicate (RK-48), take a run end / middle or a group's 4th tile to complete a rack pair. The plans
come best first by (goes out, tiles played, jokers kept, value); the caller plays the first that
`validate_play` accepts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, sort_key
from rules.rummikub.melds import GROUP, MAX_JOKERS_PER_MELD, RUN, InvalidMeld, analyse
from rules.rummikub.rack_search import DUMP_JOKERS, KEEP_JOKERS, MAX_SHORT_RUN, TILE, RackSearch, Weights


class _Meld:
    """A meld of the plan. `orig` is its index in the turn-start table while it is left untouched."""

    __slots__ = ("tiles", "kind", "prefix", "orig")

    def __init__(self, tiles: list[str], kind: str, prefix: str | None, orig: int | None = None) -> None:
        self.tiles = tiles
        self.kind = kind
        self.prefix = prefix
        self.orig = orig


def _make(tiles: list[str], kind: str) -> _Meld | None:
    """A changed meld, or None when the tiles do not make a valid meld of that kind."""
    numbered = sum(1 for t in tiles if t != JOKER)
    prefix = "G" if kind == GROUP and numbered == 1 else None
    try:
        info = analyse(tiles, prefix)
    except InvalidMeld:
        return None
    if info.type != kind:
        return None
    return _Meld(list(tiles), kind, prefix)


def _run_shape(tiles: Sequence[str]) -> tuple[str, int]:
    for i, t in enumerate(tiles):
        if t != JOKER:
            return t[0], int(t[1:]) - i
    raise ValueError("a run needs a numbered tile")


def _group_number(tiles: Sequence[str]) -> int:
    return next(int(t[1:]) for t in tiles if t != JOKER)


def _with_tile(meld: _Meld, tile: str) -> _Meld | None:
    """The meld with one more tile at an end (run) or in a free colour (group), if that is valid."""
    tiles = meld.tiles
    if len(tiles) >= (MAX_NUMBER if meld.kind == RUN else 4):
        return None
    if tile == JOKER:
        if tiles.count(JOKER) >= MAX_JOKERS_PER_MELD:
            return None
        if meld.kind == GROUP:
            return _make([*tiles, JOKER], GROUP)
        colour, start = _run_shape(tiles)
        if start + len(tiles) - 1 < MAX_NUMBER:
            return _make([*tiles, JOKER], RUN)
        return _make([JOKER, *tiles], RUN) if start > 1 else None
    c, n = tile[0], int(tile[1:])
    if meld.kind == RUN:
        colour, start = _run_shape(tiles)
        if c != colour:
            return None
        if n == start + len(tiles):
            return _make([*tiles, tile], RUN)
        if n == start - 1:
            return _make([tile, *tiles], RUN)
        return None
    if n != _group_number(tiles) or any(t[0] == c for t in tiles if t != JOKER):
        return None
    numbered = sorted([t for t in tiles if t != JOKER] + [tile], key=sort_key)
    return _make(numbered + [JOKER] * tiles.count(JOKER), GROUP)


class _Plan:
    """A candidate end-of-turn table and the rack it leaves."""

    def __init__(self, table: list[_Meld], rack: Counter[str]) -> None:
        self.table = table
        self.rack = rack

    def copy(self) -> _Plan:
        return _Plan([_Meld(list(m.tiles), m.kind, m.prefix, m.orig) for m in self.table], Counter(self.rack))

    def take(self, tiles: Iterable[str]) -> None:
        self.rack.subtract(tiles)
        self.rack = +self.rack

    def numbered_on_rack(self) -> list[str]:
        return sorted((t for t in self.rack.elements() if t != JOKER), key=sort_key)


def _extend(plan: _Plan, jokers: int = 0) -> bool:
    """Add single rack tiles to runs (either end) and groups (a free colour) until none fits.
    Up to `jokers` jokers are placed too (dumped: going out, empty pool, or a won-back joker)."""
    changed = False
    progress = True
    while progress:
        progress = False
        for tile in dict.fromkeys(plan.numbered_on_rack()):
            for k, meld in enumerate(plan.table):
                grown = _with_tile(meld, tile)
                if grown is not None:
                    plan.table[k] = grown
                    plan.take([tile])
                    progress = changed = True
                    break
    while jokers > 0 and plan.rack[JOKER] > 0:
        for k, meld in enumerate(plan.table):
            grown = _with_tile(meld, JOKER)
            if grown is not None:
                plan.table[k] = grown
                plan.take([JOKER])
                jokers -= 1
                changed = True
                break
        else:
            break
    return changed


def _split_insert(plan: _Plan) -> bool:
    """RK-48: a rack tile equal to a middle tile of a run splits it, `[r3..r7] + r5 -> [r3 r4 r5] [r5 r6 r7]`."""
    for tile in dict.fromkeys(plan.numbered_on_rack()):
        c, n = tile[0], int(tile[1:])
        for k, meld in enumerate(plan.table):
            if meld.kind != RUN:
                continue
            colour, start = _run_shape(meld.tiles)
            i = n - start
            if colour != c or i < 2 or len(meld.tiles) - 1 - i < 2:
                continue
            left = _make(meld.tiles[: i + 1], RUN)
            right = _make([tile, *meld.tiles[i + 1 :]], RUN)
            if left is None or right is None:
                continue
            plan.table[k : k + 1] = [left, right]
            plan.take([tile])
            return True
    return False


# A tile that can leave a table meld which stays valid: (tile, meld index, what the meld becomes).
_Steal = tuple[str, int, list[_Meld]]


def _stealables(table: Sequence[_Meld]) -> dict[str, list[_Steal]]:
    out: dict[str, list[_Steal]] = {}

    def add(tile: str, k: int, parts: list[list[str]], kind: str) -> None:
        made = [m for m in (_make(p, kind) for p in parts) if m is not None]
        if len(made) == len(parts):
            out.setdefault(tile, []).append((tile, k, made))

    for k, meld in enumerate(table):
        tiles = meld.tiles
        size = len(tiles)
        if meld.kind == RUN:
            if size >= 4:
                if tiles[0] != JOKER:
                    add(tiles[0], k, [tiles[1:]], RUN)
                if tiles[-1] != JOKER:
                    add(tiles[-1], k, [tiles[:-1]], RUN)
            for i in range(3, size - 3):  # a middle tile of a long run: both sides stay runs
                if tiles[i] != JOKER:
                    add(tiles[i], k, [tiles[:i], tiles[i + 1 :]], RUN)
        elif size == 4:
            for i, t in enumerate(tiles):
                if t != JOKER:
                    add(t, k, [tiles[:i] + tiles[i + 1 :]], GROUP)
    return out


def _steal(plan: _Plan) -> bool:
    """Complete rack tiles into a new meld with tiles taken from table melds that stay valid."""
    steals = _stealables(plan.table)
    if not steals:
        return False
    rack = plan.rack
    best: tuple[tuple[int, int], list[str], list[_Steal], list[str], str] | None = None

    def consider(slots: list[str], kind: str) -> None:
        nonlocal best
        from_rack: list[str] = []
        taken: list[_Steal] = []
        used_melds: set[int] = set()
        for tile in slots:
            if rack[tile] > 0:
                from_rack.append(tile)
                continue
            pick = next((s for s in steals.get(tile, ()) if s[1] not in used_melds), None)
            if pick is None:
                return
            taken.append(pick)
            used_melds.add(pick[1])
        if not taken or not from_rack:
            return
        key = (len(from_rack), -len(taken))
        if best is None or key > best[0]:
            best = (key, from_rack, taken, slots, kind)

    for tile in dict.fromkeys(plan.numbered_on_rack()):
        c, n = tile[0], int(tile[1:])
        # Groups of n holding this tile; every other colour from the rack, the table or absent.
        others = [f"{o}{n}" for o in COLOURS if o != c]
        for mask in range(1 << len(others)):
            members = [tile] + [others[b] for b in range(len(others)) if mask >> b & 1]
            if len(members) >= 3:
                consider(sorted(members, key=sort_key), GROUP)
        # Runs of this colour through n, 3..5 long.
        for start in range(max(1, n - MAX_SHORT_RUN + 1), n + 1):
            for end in range(max(n, start + 2), min(MAX_NUMBER, start + MAX_SHORT_RUN - 1) + 1):
                consider([f"{c}{x}" for x in range(start, end + 1)], RUN)
    if best is None:
        return False
    _, from_rack, taken, slots, kind = best
    new = _make(slots, kind)
    if new is None:
        return False
    replaced = {s[1]: s[2] for s in taken}
    table: list[_Meld] = []
    for k, meld in enumerate(plan.table):
        table.extend(replaced.get(k, [meld]))
    table.append(new)
    plan.table = table
    plan.take(from_rack)
    return True


def _lay_rack_melds(plan: _Plan, search: RackSearch) -> None:
    _, cands = search.best(plan.numbered_on_rack(), plan.rack[JOKER])
    for cand in cands:
        kind = GROUP if cand[2] == "G" or _is_group(cand[1]) else RUN
        meld = _make(list(cand[1]), kind)
        if meld is None:  # cannot happen for a search result; keep the plan valid regardless
            continue
        plan.table.append(meld)
        plan.take(cand[1])


def _is_group(tiles: Sequence[str]) -> bool:
    numbered = {t[1:] for t in tiles if t != JOKER}
    return len(numbered) == 1 and sum(1 for t in tiles if t != JOKER) >= 2


def _improve(plan: _Plan) -> None:
    """Hill climb: extensions, then one rearrangement at a time, until nothing fits."""
    while True:
        _extend(plan)
        if _split_insert(plan) or _steal(plan):
            continue
        return


def _joker_wins(plan: _Plan) -> list[_Plan]:
    """RK-52: plans where a rack tile takes a table joker's place; the joker must be laid again."""
    out: list[_Plan] = []
    for k, meld in enumerate(plan.table):
        if JOKER not in meld.tiles:
            continue
        options: list[tuple[str, list[str]]] = []
        if meld.kind == RUN:
            colour, start = _run_shape(meld.tiles)
            for i, t in enumerate(meld.tiles):
                if t == JOKER:
                    tile = f"{colour}{start + i}"
                    options.append((tile, [*meld.tiles[:i], tile, *meld.tiles[i + 1 :]]))
        else:
            n = _group_number(meld.tiles)
            present = {t[0] for t in meld.tiles if t != JOKER}
            numbered = [t for t in meld.tiles if t != JOKER]
            rest = [JOKER] * (meld.tiles.count(JOKER) - 1)
            for c in COLOURS:
                if c not in present:
                    tile = f"{c}{n}"
                    options.append((tile, sorted([*numbered, tile], key=sort_key) + rest))
        for tile, tiles in options:
            if plan.rack[tile] <= 0:
                continue
            won = _make(tiles, meld.kind)
            if won is None:
                continue
            variant = plan.copy()
            variant.table[k] = won
            variant.take([tile])
            variant.rack[JOKER] += 1
            out.append(variant)
    return out


def _score(plan: _Plan, rack: Counter[str], joker_weight: int) -> tuple[int, int]:
    played = rack - plan.rack
    if plan.rack[JOKER] > rack[JOKER]:
        return (-1, 0)  # a won-back joker left on the rack: the table lost a tile
    numbered = sum(c for t, c in played.items() if t != JOKER)
    value = sum(int(t[1:]) * c for t, c in played.items() if t != JOKER)
    jokers = played[JOKER]
    if numbered + jokers == 0:
        return (-1, 0)
    goes_out = 1 if sum(plan.rack.values()) == 0 else 0
    return (goes_out, TILE * numbered + joker_weight * jokers + value)


def _kind(meld: dict[str, Any]) -> str:
    kind = meld.get("type")
    return kind if kind in (RUN, GROUP) else analyse(meld["tiles"], meld.get("prefix")).type


def plan_layout(plan: _Plan, table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for meld in plan.table:
        if meld.orig is not None:
            src = table[meld.orig]
            out.append({"tiles": list(src["tiles"]), "prefix": src.get("prefix")})
        else:
            out.append({"tiles": list(meld.tiles), "prefix": meld.prefix})
    return out


def opened_plans(table: Sequence[dict[str, Any]], rack: Sequence[str], pool: int) -> list[_Plan]:
    """Candidate end-of-turn tables for an opened player, best first."""
    start = _Plan(
        [_Meld(list(m["tiles"]), _kind(m), m.get("prefix"), orig=k) for k, m in enumerate(table)],
        Counter(rack),
    )
    weights = DUMP_JOKERS if pool == 0 else KEEP_JOKERS
    search = RackSearch(weights)
    candidates: list[_Plan] = []

    own_jokers = Counter(rack)[JOKER]

    def finish(plan: _Plan) -> _Plan:
        _improve(plan)
        won_back = max(0, plan.rack[JOKER] - own_jokers)  # must go back on the table (C2)
        if won_back:
            _extend(plan, jokers=won_back)
        if plan.rack[JOKER] and pool == 0:
            _extend(plan, jokers=plan.rack[JOKER])  # a joker left on the rack costs 30 (RK-71)
        elif plan.rack[JOKER] and not plan.numbered_on_rack():
            out = plan.copy()  # only jokers left: lay them if that empties the rack
            _extend(out, jokers=out.rack[JOKER])
            if not out.rack:
                return out
        return plan

    # A: melds from the rack first, then the table moves.
    plan_a = start.copy()
    _lay_rack_melds(plan_a, search)
    rack_only = plan_a.copy()
    candidates.append(finish(plan_a))
    # B: extend the table first, then rack melds from what is left.
    plan_b = start.copy()
    _extend(plan_b)
    extend_only = plan_b.copy()
    _lay_rack_melds(plan_b, search)
    candidates.append(finish(plan_b))
    # C: win a joker back with a rack tile, then lay it again (RK-52).
    won_search = RackSearch(Weights(TILE, 0, 1), budget=max(search.budget, 0))  # the won-back joker is free
    for variant in _joker_wins(start):
        _lay_rack_melds(variant, won_search)
        candidates.append(finish(variant))
    # Simple fallbacks, should a richer plan fail validation.
    candidates += [rack_only, extend_only]
    before = Counter(rack)
    scored = [(_score(p, before, weights.joker), p) for p in candidates]
    scored.sort(key=lambda sp: sp[0], reverse=True)  # stable: ties keep the order above
    return [p for key, p in scored if key[0] >= 0]
