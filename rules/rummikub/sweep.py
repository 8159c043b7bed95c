"""The number-by-number dynamic program behind `rules.rummikub.solver` (see its docstring).

State between numbers: per colour the sorted lengths of its open runs, and the jokers used so far
(free jokers are interchangeable; the T0 jokers were settled before, see `Plan`: a kept one is a
tile here, a retrieved one a free joker whose replacement is counted at its number).
Run lengths: 1 and 2 must grow, 3 means "3 or more, may end"; in a lean sweep 4 and 5 mean a run of 3+
whose last one or two items are jokers standing in a hole, so the next item must come (5: a tile).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.dominance import undominated
from rules.rummikub.keys import (
    BOUNDARY_MASK,
    CLOSED,
    LINE_BITS,
    LINE_ID,
    LINE_MASK,
    LINES,
    REST_SHIFT,
    RUNS_MASK,
    USED_MASK,
    USED_SHIFT,
    Rests,
    lines_of,
)

_NC = len(COLOURS)
_CI = {c: i for i, c in enumerate(COLOURS)}
MAX_GROUPS = 3  # 8 numbered tiles of one number and a joker make three groups (RK-30)
FULL, LEAN = "full", "lean"
_RUN_START_WITH_JOKER = 11  # a lean run starts with a joker only as [j x12 x13] or [j j x13]
Path = list[tuple[str, int, int, object]]


class Plan(NamedTuple):
    """How the T0 jokers are settled (C8, RK-52), each as (v0, S0 colour mask): `kept` ones stand for a
    tile of their S0 (for the sweep they are a tile of v0 whose colour it chooses among S0's);
    `retrieved` ones are free jokers whose replacement from S0 must be laid at v0."""

    kept: tuple[tuple[int, int], ...]
    retrieved: tuple[tuple[int, int], ...]


NO_JOKERS = Plan((), ())  # a table without jokers


class OverBudget(Exception):
    """The sweep met its state budget (a caller that must stay fast falls back on a heuristic)."""


class Problem:
    """Tile counts per (colour, number): `mand` on the table (all must stay, C2), `opt` on the rack."""

    def __init__(self, table: Sequence[dict], rack: Sequence[str], weights: tuple[int, int, int, int],
                 rack_jokers: int, mode: str, plan: Plan = NO_JOKERS) -> None:
        self.tile_w, self.value_w, self.joker_w, self.joker_value_w = weights
        self.mode = mode
        self.floor = 0  # a score known to be reachable: states that cannot reach it are dropped
        self.mand = [[0] * (MAX_NUMBER + 3) for _ in range(_NC)]
        self.opt = [[0] * (MAX_NUMBER + 3) for _ in range(_NC)]
        self.need: list[list[int]] = [[] for _ in range(MAX_NUMBER + 2)]  # S0 masks of retrieved jokers by v0
        self.wild: list[list[int]] = [[] for _ in range(MAX_NUMBER + 3)]  # S0 masks of kept jokers by v0
        for meld in table:
            for t in meld["tiles"]:
                if t != JOKER:
                    self.mand[_CI[t[0]]][int(t[1:])] += 1
        if sum(m["tiles"].count(JOKER) for m in table) != len(plan.kept) + len(plan.retrieved):
            raise ValueError("the plan must settle every joker of the table")
        for v, mask in plan.kept:
            self.wild[v].append(mask)
        for v, mask in plan.retrieved:
            self.need[v].append(mask)
        self.nt = len(plan.retrieved)  # free jokers that must be laid (C2) but score nothing
        counts = Counter(rack)
        for t, n in counts.items():
            if t != JOKER:
                self.opt[_CI[t[0]]][int(t[1:])] = n
        self.nr = min(counts[JOKER], rack_jokers)
        self.nj = self.nr + self.nt
        self.max_groups = MAX_GROUPS if self.nj or plan.kept else 2  # a third group of one number needs a joker
        self.budget: int | None = None  # states the sweep may create before it gives up (None: no limit)
        self._drop_dead_tiles()
        # Items there may be: a kept joker counts for every colour of its S0 (these only ever rule out).
        self.avail = [[self.mand[c][v] + self.opt[c][v] + sum(1 for mask in self.wild[v] if mask >> c & 1)
                       if v <= MAX_NUMBER else 0 for v in range(MAX_NUMBER + 3)] for c in range(_NC)]
        # rest[k]: the most the rack tiles of cells k.. add (cell k = colour k % 4 at number k // 4 + 1).
        self.rest = self._suffix(self.opt)
        # far[j][k]: the same for rack tiles that fit with only j jokers. A state with j jokers left has
        # its used ones at numbers already swept, so a tile 3 or more numbers ahead gets nothing from them.
        have = self._have()
        self.far = [self._suffix([[n if n and (self.mand[c][v] or _fits(have, c, v, j)) else 0
                                   for v, n in enumerate(row)] for c, row in enumerate(self.opt)])
                    for j in range(self.nj)] + [self.rest]
        self.cache: dict = {}
        self.prune = True  # drop dominated states between numbers (off: the plain sweep, for comparison)

    def _have(self) -> list[list[bool]]:
        return [[self.mand[c][v] + self.opt[c][v] > 0 or any(m >> c & 1 for m in self.wild[v])
                 for v in range(MAX_NUMBER + 3)] for c in range(_NC)]

    def _suffix(self, opt: list[list[int]]) -> list[int]:
        """[k]: the most the rack tiles of cells k.. add (cell k = colour k % 4 at number k // 4 + 1)."""
        cells = [opt[k % _NC][k // _NC + 1] * (self.tile_w + self.value_w * (k // _NC + 1)) for k in range(52)]
        return [sum(cells[k:]) for k in range(53)]

    def _drop_dead_tiles(self) -> None:
        """Rack tiles that fit no run or group of the tiles there are (jokers counted) never move."""
        changed = True
        while changed:
            changed = False
            have = self._have()
            for c in range(_NC):
                for v in range(1, MAX_NUMBER + 1):
                    if not self.opt[c][v] or self.mand[c][v] or any(m >> c & 1 for m in self.wild[v]):
                        continue  # the table's copy already sits in a meld that could take it
                    if not _fits(have, c, v, self.nj):
                        self.opt[c][v] = 0
                        changed = True

    def alloc(self, line: tuple[int, ...], tiles: int, jokers: int, v: int) -> list[tuple[tuple[int, ...], tuple]]:
        """The open runs of one colour after `tiles` tiles and `jokers` jokers of number v join runs:
        [(new runs, which states took a joker)]. Full sweep: a joker is just another tile."""
        key = (line, tiles, jokers, v if self.mode == LEAN else 0)
        hit = self.cache.get(key)
        if hit is not None:
            return hit
        out: list[tuple[tuple[int, ...], tuple]] = []
        if self.mode == FULL:
            grown = _place_tiles(list(line), tiles + jokers)
            if grown is not None:
                out.append((grown, ()))
        else:
            targets = sorted(set(line) - {5}) + (["new"] if v == _RUN_START_WITH_JOKER else [])
            for picks in _multisets(targets, jokers):
                rest = list(line)
                new_runs = []
                ok = True
                for pick in picks:
                    if pick == "new":
                        new_runs.append(1)
                        continue
                    if pick not in rest:
                        ok = False
                        break
                    rest.remove(pick)
                    new_runs.append({1: 2, 2: 3, 3: 4, 4: 5}[pick])
                if not ok:
                    continue
                grown = _place_tiles(rest, tiles)
                if grown is not None:
                    out.append((tuple(sorted(grown + tuple(new_runs))), tuple(picks)))
        self.cache[key] = out
        return out


def _fits(have: list[list[bool]], c: int, v: int, jokers: int) -> bool:
    """Some group of v or run through (c, v) has its tiles there, `jokers` standing in for the rest."""
    if sum(1 for x in range(_NC) if have[x][v]) + jokers >= 3:
        return True
    return any(sum(1 for w in range(lo, lo + 3) if not have[c][w]) <= jokers
               for lo in range(max(1, v - 2), min(v, MAX_NUMBER - 2) + 1))


def _multisets(targets: list, k: int) -> list[tuple]:
    out: list[tuple] = [()]
    for _ in range(k):
        out = [x + (t,) for x in out for t in targets if not x or targets.index(t) >= targets.index(x[-1])]
    return out


def _place_tiles(line: list[int], tiles: int) -> tuple[int, ...] | None:
    """Tiles go first to runs that must grow (5, 4, 2, 1), then to runs of 3+, then start new runs;
    a run of 3+ left without one ends. This order loses nothing: a longer open run can do all a
    shorter one can, and a run that may end is never worse than no run."""
    must = [x for x in line if x != 3]
    longs = len(line) - len(must)
    if tiles < len(must):
        return None
    rest = tiles - len(must)
    grown = min(rest, longs)
    return tuple(sorted([min(x + 1, 3) if x < 3 else 3 for x in must] + [3] * grown + [1] * (rest - grown)))


def can_grow(line: tuple[int, ...], counts: list[int], v: int, jokers: int) -> bool:
    """Runs that must grow need an item at v+1 (tiles or jokers; after two hole jokers a tile), and
    length-1 runs one at v+2 too."""
    if not line or (line[0] == 3 and line[-1] == 3):
        return True
    need = sum(1 for x in line if x != 3)
    if v + 1 > MAX_NUMBER or need > counts[v + 1] + jokers or line.count(5) > counts[v + 1]:
        return False
    ones = line.count(1)
    return not ones or (v + 2 <= MAX_NUMBER and ones <= counts[v + 2] + jokers)


@cache
def _stand_ins(pend: tuple[int, ...], ci: int, m: int, o: int) -> list[tuple[int, tuple[int, ...], int]]:
    """The choices for colour ci at this number: how many pending kept jokers stand for its tile here,
    the masks still pending after, and u, the items of ci laid (table tiles, those jokers, rack tiles)."""
    ways = {(0, pend)}
    for r in range(1, len(pend) + 1):
        for chosen in combinations(range(len(pend)), r):
            if all(pend[i] >> ci & 1 for i in chosen):
                ways.add((r, tuple(x for i, x in enumerate(pend) if i not in chosen)))
    return [(a, rest, u) for a, rest in sorted(ways) for u in range(m + a, m + a + o + 1)]


def _replacements(need: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the tiles laid at a number must supply for its retrieved jokers (RK-52 step 2, Hall's
    condition): counts of real tiles per colour mask, each capped at what it must reach."""
    if not need:
        return (), ()
    if len(need) == 1:
        return (need[0],), (1,)
    return (need[0], need[1], need[0] | need[1]), (1, 1, 2)


def run_dp(p: Problem) -> tuple[int, Path] | None:
    """The sweep: the best score and its decisions, or None when no table is reachable. States are
    packed ints (rules/rummikub/keys.py); at each colour the moves of a state depend only on its own
    line, jokers used and rest, so they are built once per such part and shared by every state with it."""
    lean = p.mode == LEAN
    rests = Rests()
    layers: list[tuple[str, int, int, dict]] = []
    states: dict[int, int] = {0: 0}  # every line empty, no joker used
    for v in range(1, MAX_NUMBER + 1):
        masks, caps = _replacements(p.need[v])
        # Rest of the key within a number: (open groups of v, replacements supplied so far, kept jokers
        # of v still to stand for a tile: their S0 masks).
        start = rests.id(((0, 0, 0), (0,) * len(caps), tuple(sorted(p.wild[v])))) << REST_SHIFT
        cur = {key | start: s for key, s in states.items()}
        for ci in range(_NC):
            step = _Step(p, rests, v, ci, masks, caps)
            keep = RUNS_MASK ^ (LINE_MASK << ci * LINE_BITS)  # the other colours' lines
            own_mask = ~keep
            moves: dict[int, list] = {}
            nxt: dict[int, int] = {}
            back: dict = {}
            for key, score in cur.items():
                own = key & own_mask
                found = moves.get(own)
                if found is None:
                    found = moves[own] = step.moves(own)
                sub = key & keep
                for need, add, delta, decision in found:
                    if score < need:
                        break  # the rest need more: even every tile still to come cannot reach the floor
                    nkey = sub | add
                    ns = score + delta
                    if ns > nxt.get(nkey, -1):
                        nxt[nkey] = ns
                        back[nkey] = (key, decision)
            layers.append(("colour", v, ci, back))
            cur = nxt  # dominance only between numbers: within one it costs more than it saves (measured)
            if p.budget is not None:
                p.budget -= len(nxt)
                if p.budget < 0:
                    raise OverBudget
        nxt, back = _close_groups(p, rests, cur, v, caps)
        layers.append(("groups", v, -1, back))
        states = undominated(nxt, lean) if p.prune else nxt
    best_key, best = None, -1
    for key, score in states.items():
        if not all(CLOSED[i] for i in lines_of(key)):
            continue
        used = key >> USED_SHIFT & USED_MASK
        if lean:
            placed = p.nj if p.joker_w > 0 else max(used, p.nt)  # free jokers are appended afterwards
        elif used < p.nt:
            continue  # every T0 joker stays on the table (C2)
        else:
            placed = used
        score += (placed - p.nt) * p.joker_w
        if score > best:
            best_key, best = key, score
    if best_key is None:
        return None
    path: Path = []
    key = best_key
    for kind, v, ci, back in reversed(layers):
        prev, decision = back[key]
        path.append((kind, v, ci, decision))
        key = prev & BOUNDARY_MASK if ci == 0 else prev  # the first colour of v starts from a boundary state
    path.reverse()
    used = best_key >> USED_SHIFT & USED_MASK
    free = (p.nj if p.joker_w > 0 else max(used, p.nt)) - used if lean else 0
    path.append(("free", 0, -1, free))
    return best, path


def _close_groups(p: Problem, rests: Rests, cur: dict[int, int], v: int, caps: tuple[int, ...]
                  ) -> tuple[dict[int, int], dict]:
    """Close the groups of v: jokers fill them to 3..4 tiles; the retrieved jokers of v need their tiles."""
    lean = p.mode == LEAN
    nxt: dict[int, int] = {}
    back: dict = {}
    fills: dict[int, list] = {}  # rest id -> [(jokers, per group, score added)]
    for key, score in cur.items():
        rid = key >> REST_SHIFT
        options = fills.get(rid)
        if options is None:
            groups, pc, pend = rests.items[rid]
            options = fills[rid] = []
            if pc == caps and not pend:
                ranges = []
                for size in groups:
                    top = max(0, 3 - size) if lean else min(4 - size, 2)
                    ranges.append((0,) if size == 0 else tuple(range(max(0, 3 - size), min(4 - size, top) + 1)))
                for js in product(*ranges):
                    k = sum(js)
                    options.append((k, js, 0 if lean else k * p.joker_value_w * v))
        used = key >> USED_SHIFT & USED_MASK
        runs = key & RUNS_MASK
        for k, js, gain in options:
            if used + k > p.nj:
                continue
            nkey = runs | (used + k) << USED_SHIFT
            ns = score + gain
            if ns > nxt.get(nkey, -1):
                nxt[nkey] = ns
                back[nkey] = (key, js)
    return nxt, back


class _Step:
    """One colour at one number: the moves of a state's own part (its line, jokers used and rest)."""

    def __init__(self, p: Problem, rests: Rests, v: int, ci: int, masks: tuple[int, ...],
                 caps: tuple[int, ...]) -> None:
        self.p, self.rests, self.v, self.ci, self.masks, self.caps = p, rests, v, ci, masks, caps
        self.lean = p.mode == LEAN
        self.m, self.o = p.mand[ci][v], p.opt[ci][v]
        self.tile_w = p.tile_w + p.value_w * v
        self.joker_gain = 0 if self.lean else p.joker_value_w * v
        self.later = sum(1 for c in range(ci + 1, _NC) if p.avail[c][v])  # colours still to join groups
        here, self.ahead = (v - 1) * _NC + ci + 1, min(v + 2, MAX_NUMBER) * _NC
        near = p.rest[here] - p.rest[self.ahead]  # the next two numbers: jokers used here may still help
        # A move keeps its state only if score + move + this (for the jokers then left) reaches the floor.
        jbound = p.joker_value_w * MAX_NUMBER  # the most a joker still to come adds in the sweep
        rest_bonus = p.nr * max(p.joker_w, 0)  # rack jokers count when the sweep ends (placed or laid free)
        self.short = [p.floor - near - p.far[j][self.ahead] - rest_bonus - j * jbound for j in range(p.nj + 1)]
        self.supplies = any(mask >> ci & 1 for mask in masks)
        self.shift = ci * LINE_BITS
        self.grows: dict = {}

    def moves(self, own: int) -> list[tuple[int, int, int, tuple]]:
        """[(least score that keeps the move, bits of the new own part, score added, decision)], the
        least score first; one move per new own part (the one adding most)."""
        p, ci, v = self.p, self.ci, self.v
        line = LINES[own >> self.shift & LINE_MASK]
        used = own >> USED_SHIFT & USED_MASK
        groups, pc, pend = self.rests.items[own >> REST_SHIFT]
        jleft = p.nj - used
        best: dict[int, tuple[int, int, int, tuple]] = {}
        for a, npend, u in _stand_ins(pend, ci, self.m, self.o):
            gain = (u - self.m - a) * self.tile_w
            npc = pc
            if self.supplies:
                real = u - a  # a kept joker is no replacement
                npc = tuple(min(cap, x + real) if mask >> ci & 1 else x
                            for x, mask, cap in zip(pc, self.masks, self.caps, strict=True))
            for g, sel, ngt, low in _group_steps(groups, u, ci, p.max_groups):
                if low + self.later + jleft < 3:
                    continue  # a group that can no longer reach 3 tiles
                rest_bits = self.rests.id((ngt, npc, npend)) << REST_SHIFT
                # Full: k jokers join runs as tiles of (ci, v). Lean: k jokers go where runs need them.
                for k in range(min(jleft, 2) + 1):
                    delta = gain + k * self.joker_gain
                    need = self.short[jleft - k] - delta
                    kt, ks = (0, k) if self.lean else (k, 0)
                    for nl, picks in p.alloc(line, u - g + kt, ks, v):
                        ok = self.grows.get((nl, jleft - k))
                        if ok is None:
                            ok = self.grows[nl, jleft - k] = can_grow(nl, p.avail[ci], v, jleft - k)
                        if not ok:
                            continue
                        add = LINE_ID[nl] << self.shift | (used + k) << USED_SHIFT | rest_bits
                        old = best.get(add)
                        if old is None or delta > old[2]:
                            best[add] = (need, add, delta, (u, sel, kt, picks, a))
        return sorted(best.values(), key=lambda mv: mv[0])


@cache
def _group_steps(groups: tuple[int, ...], u: int, ci: int, most: int) -> list:
    """The distinct ways (copies, groups chosen, new canonical groups, smallest open group or 3) to put
    copies of colour ci into the open groups of this number (their sizes): one per group (RK-30)."""
    out = []
    seen = set()
    for g in range(min(u, most) + 1):
        for sel in combinations(range(most), g):
            ng = list(groups)
            for gi in sel:
                ng[gi] += 1
            ngt = tuple(sorted(ng, reverse=True))
            if (g, ngt) not in seen and all(x <= 4 for x in ngt):
                seen.add((g, ngt))
                out.append((g, sel, ngt, min((x for x in ngt if x), default=3)))
    return out
