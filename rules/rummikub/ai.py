"""Rummikub AI (spec shared/rules/rummikub.md): picks a legal action from one seat's view only.

Design:
- The rack-only search is exact: a depth-first branch and bound over the rack multiset, memoised by
  (multiset left, jokers left). It takes the lowest remaining tile and either leaves it on the rack
  or puts it in one of the runs (3..5 tiles; longer runs split into those without loss) or groups
  that can hold it, jokers filling the gaps. Melds are scored with weights (value for the initial
  meld; tiles played, jokers held back once opened). A node budget turns the search greedy on huge
  racks (30+ tiles), so the worst case stays bounded.
- Before opening: the highest initial meld with the fewest jokers that still reaches the minimum;
  the table is written back untouched (RK-41, C6).
- After opening: the exact solver (rules/rummikub/solver.py, issue 16) within a state budget; past
  the budget, the heuristic plans: several pipelines (rack melds first or table extensions first,
  and one per joker that a rack tile can win back) then a hill climb of table moves: extend runs and groups, split a
  run to insert a duplicate (RK-48), take a run end / middle or a group's 4th tile to complete a rack
  pair. The best plan by (goes out, tiles played, jokers kept, value) that `validate_play` accepts is
  played; otherwise draw (or pass when the pool is empty).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.errors import IllegalAction
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, sort_key
from rules.rummikub.actions import Draw, MeldSpec, Pass, Play
from rules.rummikub.melds import GROUP, MAX_JOKERS_PER_MELD, RUN, InvalidMeld, analyse
from rules.rummikub.solver import OverBudget, Solution, solve
from rules.rummikub.validate import validate_play

_N = MAX_NUMBER  # numbers per colour
_NAMES = [f"{c}{n}" for c in COLOURS for n in range(1, _N + 1)]
_INDEX = {name: i for i, name in enumerate(_NAMES)}
_N_TILES = len(_NAMES)
_NEG = -(1 << 60)
_POW3 = [3**k for k in range(len(_NAMES))]
_MAX_SHORT_RUN = 5  # every longer run is two or more runs of 3..5 with the same tiles
# For each tile, the tiles its candidate melds may use: the next numbers of its colour (runs) and
# the same number in later colours (groups).
_NEIGHBOURS = [
    tuple(range(i + 1, (i // MAX_NUMBER) * MAX_NUMBER + min(MAX_NUMBER, i % MAX_NUMBER + _MAX_SHORT_RUN)))
    + tuple(range(i + MAX_NUMBER, len(_NAMES), MAX_NUMBER))
    for i in range(len(_NAMES))
]
# DP states the exact solver may create on one turn before the AI falls back on the plans below
# (a dense table with two jokers can need far more; the fallback keeps every turn bounded). The sweep
# counts its cheaper states unpruned within a number since issue 16's speed-up: 30 000 falls back on
# 1 of the 200 bench positions (20 000 did on 6) and stays under 70 ms CPU where 20 000 took 224 ms before.
SOLVER_BUDGET = 30_000
# Search nodes per rack before the rack search turns greedy. A 14-tile rack needs a few hundred;
# 30+ tiles with two jokers can need many thousands.
NODE_BUDGET = 5000


@dataclass(frozen=True)
class Weights:
    """Score of a meld laid from the rack: per numbered tile, per joker, per point of value."""

    numbered: int
    joker: int
    value: int


OPENING = Weights(0, 0, 1)  # the initial meld counts points only (RK-41/42)
# Once opened: tiles off the rack first; a joker is worth keeping unless it frees two or more tiles.
TILE = 4000
KEEP_JOKERS = Weights(TILE, -3 * TILE // 4, 1)
DUMP_JOKERS = Weights(TILE, TILE, 1)  # empty pool: a joker left on the rack costs 30 (RK-71)


# A candidate meld from the rack:
# (score, written tiles, prefix, tile indices used, jokers used, value, base-3 code of the tiles used,
#  upper bound of the tiles used)
_Cand = tuple[int, tuple[str, ...], str | None, tuple[int, ...], int, int, int, int]


class _RackSearch:
    """Best set of disjoint melds from a rack, memoised by (remaining multiset, jokers left)."""

    def __init__(self, weights: Weights, budget: int = NODE_BUDGET) -> None:
        self.w = weights
        self.budget = budget
        self.memo: dict[tuple[int, int], tuple[int, Any, bool]] = {}
        # Upper bounds: a numbered tile laid at best adds its weight and value; a joker at most a 13.
        self.tile_ub = [weights.numbered + weights.value * (k % MAX_NUMBER + 1) for k in range(_N_TILES)]
        self.joker_ub = max(0, weights.joker + weights.value * MAX_NUMBER)
        self.rest = 0
        self.counts = [0] * _N_TILES
        self.code = 0  # the multiset left, base 3 (0..2 copies of each tile)
        self.cand_cache: dict[tuple[int, int, int], list[_Cand]] = {}

    def best(self, numbered: Iterable[str], jokers: int) -> tuple[int, list[_Cand]]:
        counts = [0] * _N_TILES
        for t in numbered:
            counts[_INDEX[t]] += 1
        self.counts = counts
        self.code = sum(c * _POW3[k] for k, c in enumerate(counts))
        self.rest = sum(c * self.tile_ub[k] for k, c in enumerate(counts))
        score, node, _ = self._solve(0, jokers, _NEG)
        melds: list[_Cand] = []
        while node is not None:
            cand, node = node
            melds.append(cand)
        return score, melds

    def _solve(self, start: int, jokers: int, alpha: int) -> tuple[int, Any, bool]:
        """Best (score, melds, True) of the multiset left when it beats `alpha`; else (bound, None, False)
        with bound >= the best and <= alpha (branch and bound with a fail-soft memo)."""
        counts = self.counts
        i = start
        while i < _N_TILES and counts[i] == 0:
            i += 1
        if i == _N_TILES:
            return 0, None, True
        key = (self.code, jokers)  # lower indices are all zero, so the code names the multiset
        hit = self.memo.get(key)
        if hit is not None and (hit[2] or hit[0] <= alpha):
            return hit
        bound = self.rest + self.joker_ub * jokers  # every tile left laid at its best
        if bound <= alpha:
            return bound, None, False
        self.budget -= 1
        # The melds for tile i depend only on which of a few neighbours are left: cache them.
        pattern = 0
        for bit, idx in enumerate(_NEIGHBOURS[i]):
            if counts[idx]:
                pattern |= 1 << bit
        ckey = (i, min(jokers, MAX_JOKERS_PER_MELD), pattern)
        cands = self.cand_cache.get(ckey)
        if cands is None:
            cands = self._candidates(i, jokers)
            cands.sort(key=lambda c: c[0], reverse=True)  # promising melds first: they raise the floor
            self.cand_cache[ckey] = cands
        greedy = self.budget <= 0
        if greedy:
            # Out of budget: follow the best-scoring meld only (a linear chain, no branching).
            cands = cands[:1] if cands and cands[0][0] > 0 else []
            alpha = _NEG
        best_score, best_node, failed = _NEG, None, _NEG
        for cand in cands:
            if self.budget <= 0 and best_node is not None:
                greedy = True  # the budget ran out below: keep what was found
                break
            floor = max(alpha, best_score)
            used = cand[3]
            for u in used:
                counts[u] -= 1
            self.code -= cand[6]
            self.rest -= cand[7]
            sub_score, sub_node, exact = self._solve(i, jokers - cand[4], floor - cand[0])
            self.rest += cand[7]
            self.code += cand[6]
            for u in used:
                counts[u] += 1
            total = cand[0] + sub_score
            if not exact:
                failed = max(failed, total)
            elif total > best_score:
                best_score, best_node = total, (cand, sub_node)
        if not cands or not (greedy or (self.budget <= 0 and best_node is not None)):
            floor = max(alpha, best_score)
            counts[i] -= 1  # this copy stays on the rack
            self.code -= _POW3[i]
            self.rest -= self.tile_ub[i]
            sub_score, sub_node, exact = self._solve(i, jokers, floor)
            self.rest += self.tile_ub[i]
            self.code += _POW3[i]
            counts[i] += 1
            if not exact:
                failed = max(failed, sub_score)
            elif sub_score > best_score:
                best_score, best_node = sub_score, sub_node
        result = (
            (best_score, best_node, True) if greedy or best_score > alpha else (max(best_score, failed), None, False)
        )
        self.memo[key] = result
        return result

    def _candidates(self, i: int, jokers: int) -> list[_Cand]:
        """Melds holding tile i in which i is the lowest tile left (all lower indices are used up)."""
        counts = self.counts
        w = self.w
        colour_index, n0 = divmod(i, _N)
        n = n0 + 1
        base = colour_index * _N
        max_j = min(jokers, MAX_JOKERS_PER_MELD)
        out: list[_Cand] = []
        # Runs of i's colour: lower numbers of that colour are gone, so they can only be jokers.
        for start in range(max(1, n - max_j), n + 1):
            lead = n - start
            written = [JOKER] * lead + [_NAMES[i]]
            used = [i]
            needed = lead
            num = n
            while True:
                if len(written) >= 3:
                    value = sum(range(start, num + 1))
                    score = w.numbered * len(used) + w.joker * needed + w.value * value
                    code = sum(_POW3[u] for u in used)
                    ub = sum(self.tile_ub[u] for u in used)
                    out.append((score, tuple(written), None, tuple(used), needed, value, code, ub))
                num += 1
                if num > _N or len(written) >= _MAX_SHORT_RUN:
                    break
                idx = base + num - 1
                if counts[idx] > 0:
                    written.append(_NAMES[idx])
                    used.append(idx)
                else:
                    written.append(JOKER)
                    needed += 1
                    if needed > max_j:
                        break
        # Groups of number n: colours before i's are gone, so they can only be jokers.
        others = [c * _N + n0 for c in range(colour_index + 1, len(COLOURS)) if counts[c * _N + n0] > 0]
        for mask in range(1 << len(others)):
            members = [i] + [others[b] for b in range(len(others)) if mask >> b & 1]
            for nj in range(max_j + 1):
                size = len(members) + nj
                if not 3 <= size <= 4:
                    continue
                value = n * size
                written = tuple(_NAMES[m] for m in members) + (JOKER,) * nj
                prefix = "G" if len(members) == 1 else None
                score = w.numbered * len(members) + w.joker * nj + w.value * value
                code = sum(_POW3[m] for m in members)
                ub = sum(self.tile_ub[m] for m in members)
                out.append((score, written, prefix, tuple(members), nj, value, code, ub))
        return out


def _rack_melds(
    rack: Iterable[str], weights: Weights, jokers: int | None = None, search: _RackSearch | None = None
) -> tuple[int, list[_Cand]]:
    rack = list(rack)
    numbered = [t for t in rack if t != JOKER]
    available = rack.count(JOKER) if jokers is None else min(jokers, rack.count(JOKER))
    return (search or _RackSearch(weights)).best(numbered, available)


def best_opening_value(rack: list[str], jokers_allowed: bool = True) -> int:
    """The highest initial-meld value (RK-41/42) that disjoint melds from `rack` reach."""
    score, _ = _rack_melds(rack, OPENING, None if jokers_allowed else 0)
    return score


def opening_melds(rack: Sequence[str], minimum: int) -> list[MeldSpec] | None:
    """The highest-value initial meld using the fewest jokers that still reaches `minimum`."""
    search = _RackSearch(OPENING)  # the memo is exact per (multiset, jokers left): shared by all levels
    for allowed in range(rack.count(JOKER) + 1):
        value, cands = _rack_melds(rack, OPENING, allowed, search)
        if cands and value >= minimum:
            return [MeldSpec(tiles=c[1], prefix=c[2]) for c in cands]
    return None


# ---- the table after opening -------------------------------------------------------------------------


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
        for start in range(max(1, n - _MAX_SHORT_RUN + 1), n + 1):
            for end in range(max(n, start + 2), min(MAX_NUMBER, start + _MAX_SHORT_RUN - 1) + 1):
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


def _lay_rack_melds(plan: _Plan, search: _RackSearch) -> None:
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


def _layout(plan: _Plan, table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    out = []
    for meld in plan.table:
        if meld.orig is not None:
            src = table[meld.orig]
            out.append({"tiles": list(src["tiles"]), "prefix": src.get("prefix")})
        else:
            out.append({"tiles": list(meld.tiles), "prefix": meld.prefix})
    return out


def _opened_plans(table: Sequence[dict[str, Any]], rack: Sequence[str], pool: int) -> list[_Plan]:
    """Candidate end-of-turn tables for an opened player, best first."""
    start = _Plan(
        [_Meld(list(m["tiles"]), _kind(m), m.get("prefix"), orig=k) for k, m in enumerate(table)],
        Counter(rack),
    )
    weights = DUMP_JOKERS if pool == 0 else KEEP_JOKERS
    search = _RackSearch(weights)
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
    won_search = _RackSearch(Weights(TILE, 0, 1), budget=max(search.budget, 0))  # the won-back joker is free
    for variant in _joker_wins(start):
        _lay_rack_melds(variant, won_search)
        candidates.append(finish(variant))
    # Simple fallbacks, should a richer plan fail validation.
    candidates += [rack_only, extend_only]
    before = Counter(rack)
    scored = [(_score(p, before, weights.joker), p) for p in candidates]
    scored.sort(key=lambda sp: sp[0], reverse=True)  # stable: ties keep the order above
    return [p for key, p in scored if key[0] >= 0]


def _solved(table: Sequence[dict[str, Any]], rack: Sequence[str], pool: int,
            budget: int = SOLVER_BUDGET) -> Solution | None:
    """Issue 16: the exact solver's table, the most rack tiles then the most points. A joker is kept
    back as before (`KEEP_JOKERS`) unless the tiles it frees are worth it, laying it empties the rack,
    or the pool is empty (a joker left on the rack costs 30, RK-71)."""
    best = solve(table, rack, budget=budget)
    jokers = 0 if best is None else best.placed.count(JOKER)
    if best is None or not jokers or pool == 0 or len(best.placed) == len(rack):
        return best
    kept = solve(table, rack, rack_jokers=0, budget=budget)
    numbered = len(best.placed) - jokers
    with_jokers = KEEP_JOKERS.numbered * numbered + KEEP_JOKERS.joker * jokers
    if kept is None:
        return best if with_jokers > 0 else None
    return best if with_jokers > KEEP_JOKERS.numbered * len(kept.placed) else kept


def _play_or_none(view: dict[str, Any], layout: list[dict[str, Any]], opened: bool) -> Play | None:
    try:
        validate_play(view["table"], view["rack"], layout, opened, view["initial_meld_min"])
    except IllegalAction:
        return None
    return Play(melds=tuple(MeldSpec(tiles=tuple(m["tiles"]), prefix=m["prefix"]) for m in layout))


def _untouched(table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"tiles": list(m["tiles"]), "prefix": m.get("prefix")} for m in table]


def _no_play(view: dict[str, Any]) -> Action:
    return Draw() if view["pool"] > 0 else Pass()


def _is_opened(view: dict[str, Any]) -> bool:
    return bool(view["opened"][view["you"]])


def choose_action(view: dict[str, Any], rng: Random, solver_budget: int = SOLVER_BUDGET) -> Action:
    """The AI's action for the seat whose view this is (its own rack and the public table only).

    Deterministic for a given view; `rng` is accepted for the engine contract (tie-breaks may use it).
    `solver_budget`: the exact solver's states before the heuristic plans take over (the strong
    level gives it more, rules/rummikub/levels.py).
    """
    rack = list(view["rack"])
    table = view["table"]
    if not _is_opened(view):
        melds = opening_melds(rack, view["initial_meld_min"])
        if melds:
            layout = _untouched(table) + [{"tiles": list(m.tiles), "prefix": m.prefix} for m in melds]
            play = _play_or_none(view, layout, opened=False)
            if play is not None:
                return play
        return _no_play(view)
    try:
        found = _solved(table, rack, view["pool"], solver_budget)
    except OverBudget:
        found = None
    else:
        if found is None:
            return _no_play(view)  # exact: nothing worth laying (or no rack tile fits at all)
        play = _play_or_none(view, [{"tiles": m["tiles"], "prefix": m["prefix"]} for m in found.melds], True)
        if play is not None:
            return play
    for plan in _opened_plans(table, rack, view["pool"]):
        play = _play_or_none(view, _layout(plan, table), opened=True)
        if play is not None:
            return play
    return _no_play(view)


# ---- the greedy baseline ---------------------------------------------------------------------------


def _greedy_melds(rack: Sequence[str]) -> list[list[str]]:
    """Melds in the order a hasty player spots them: runs by colour, then groups, then joker pairs."""
    left = Counter(rack)
    melds: list[list[str]] = []
    for c in COLOURS:
        n = 1
        while n <= MAX_NUMBER:
            run = []
            while n <= MAX_NUMBER and left[f"{c}{n}"] > 0:
                run.append(f"{c}{n}")
                n += 1
            if len(run) >= 3:
                melds.append(run)
                left.subtract(run)
            n += 1
    for n in range(1, MAX_NUMBER + 1):
        group = [f"{c}{n}" for c in COLOURS if left[f"{c}{n}"] > 0]
        if len(group) >= 3:
            melds.append(group)
            left.subtract(group)
    for c in COLOURS:
        for n in range(1, MAX_NUMBER):
            if left[JOKER] <= 0:
                break
            a, b = f"{c}{n}", f"{c}{n + 1}"
            if left[a] > 0 and left[b] > 0:
                meld = [a, b, JOKER] if n + 1 < MAX_NUMBER else [JOKER, a, b]
                melds.append(meld)
                left.subtract(meld)
    return melds


def choose_greedy_action(view: dict[str, Any], rng: Random) -> Action:
    """Baseline for measuring strength: the first melds found on the rack, never touching table melds."""
    rack = list(view["rack"])
    opened = _is_opened(view)
    melds = _greedy_melds(rack)
    if melds:
        layout = _untouched(view["table"]) + [{"tiles": m, "prefix": None} for m in melds]
        play = _play_or_none(view, layout, opened)
        if play is not None:
            return play
    return _no_play(view)


__all__ = ["Weights", "best_opening_value", "choose_action", "choose_greedy_action", "opening_melds"]
