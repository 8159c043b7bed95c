"""The number-by-number dynamic program behind `rules.rummikub.solver` (see its docstring).

State between numbers: per colour the sorted lengths of its open runs, and the jokers used so far
(free jokers are interchangeable; the T0 jokers were settled before, see `Plan`: a kept one is a
tile here, a retrieved one a free joker whose replacement is counted at its number).
Run lengths: 1 and 2 must grow, 3 means "3 or more, may end"; in a lean sweep 4 and 5 mean a run of 3+
whose last one or two items are jokers standing in a hole, so the next item must come (5: a tile).
Within a number the key also holds its rest: the open groups of v, the replacements supplied so far
and the kept jokers still to stand for a tile. Keys are packed ints (rules/rummikub/keys.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import accumulate, product
from operator import itemgetter
from typing import NamedTuple

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.colour_moves import colour_moves
from rules.rummikub.dominance import undominated
from rules.rummikub.keys import (
    BOUNDARY_MASK,
    CLOSED,
    LINE_BITS,
    LINE_MASK,
    REST_ITEMS,
    REST_SHIFT,
    RUNS_MASK,
    USED_MASK,
    USED_SHIFT,
    lines_of,
    rest_id,
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
                 rack_jokers: int, mode: str, plan: Plan = NO_JOKERS, mirrored: bool = False) -> None:
        self.tile_w, self.value_w, self.joker_w, self.joker_value_w = weights
        # The points of number v: `mirrored` tiles are written 14 - n (the solver sweeps from 13 down
        # that way), so their points are those of the tile they mirror.
        self.points = [MAX_NUMBER + 1 - v if mirrored else v for v in range(MAX_NUMBER + 3)]
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
        # Per number, the colours some kept joker there may stand for.
        self.wild_bits = [0] * len(self.wild)
        for v, masks in enumerate(self.wild):
            for mask in masks:
                self.wild_bits[v] |= mask  # an S0 mask has a bit per colour
        self._drop_dead_tiles()
        # Items there may be: a kept joker counts for every colour of its S0 (these only ever rule out).
        self.avail = [[m + o for m, o in zip(mand, opt, strict=True)] for mand, opt in zip(self.mand, self.opt, strict=True)]
        for v, masks in enumerate(self.wild):
            for mask in masks:
                for c in range(_NC):
                    self.avail[c][v] += mask >> c & 1
        # What a rack tile of cell k adds (cell k = colour k % 4 at number k // 4 + 1).
        cells = [self.opt[k % _NC][k // _NC + 1] * (self.tile_w + self.value_w * self.points[k // _NC + 1])
                 for k in range(52)]
        # rest[k]: the most the rack tiles of cells k.. add.
        self.rest = _suffix(cells)
        # far[j][k]: the same for rack tiles that fit with only j jokers. A state with j jokers left has
        # its used ones at numbers already swept, so a tile 3 or more numbers ahead gets nothing from them.
        have = self._have()
        self.far = [_suffix([w if w and (self.mand[k % _NC][k // _NC + 1] or _fits(have, k % _NC, k // _NC + 1, j))
                             else 0 for k, w in enumerate(cells)]) for j in range(self.nj)] + [self.rest]
        self.prune = True  # drop dominated states between numbers (off: the plain sweep, for comparison)

    def _have(self) -> list[int]:
        """Per colour, a bit per number where a tile of it is (table, rack or a kept joker's colour)."""
        wild = self.wild_bits
        out = []
        for c in range(_NC):
            mand, opt = self.mand[c], self.opt[c]
            bits = 0
            for v in range(1, MAX_NUMBER + 1):
                if mand[v] or opt[v] or wild[v] >> c & 1:
                    bits |= 1 << v
            out.append(bits)
        return out

    def _drop_dead_tiles(self) -> None:
        """Rack tiles that fit no run or group of the tiles there are (jokers counted) never move."""
        changed = True
        while changed:
            changed = False
            have = self._have()
            for c in range(_NC):
                for v in range(1, MAX_NUMBER + 1):
                    if not self.opt[c][v] or self.mand[c][v] or self.wild_bits[v] >> c & 1:
                        continue  # the table's copy already sits in a meld that could take it
                    if not _fits(have, c, v, self.nj):
                        self.opt[c][v] = 0
                        changed = True


def _suffix(cells: list[int]) -> list[int]:
    """[k]: the sum of cells k.., and a 0 past the last."""
    return [*reversed(list(accumulate(reversed(cells)))), 0]


_BITS3 = [bin(x).count("1") for x in range(8)]


def _fits(have: list[int], c: int, v: int, jokers: int) -> bool:
    """Some group of v or run through (c, v) has its tiles there (`have`: per colour, a bit per number),
    `jokers` standing in for the rest."""
    if (have[0] >> v & 1) + (have[1] >> v & 1) + (have[2] >> v & 1) + (have[3] >> v & 1) + jokers >= 3:
        return True
    row = have[c]
    return any(3 - _BITS3[row >> lo & 7] <= jokers for lo in range(max(1, v - 2), min(v, MAX_NUMBER - 2) + 1))


def _path(layers: list, key: int, score: int) -> Path:
    """The decisions leading to `key` (its sweep score `score`), last first: at each step, a state of
    the step's input with a move that gives exactly this key and score (any such is on a best path)."""
    path: Path = []
    for kind, v, ci, (cur, moves, keep, first) in reversed(layers):
        sub, own = key & keep, key & ~keep
        prev = None
        for p_key, p_score in cur.items():
            if p_key & keep != sub:
                continue
            for need, add, delta, decision in moves[p_key & ~keep]:
                if p_score < need:
                    break
                if add == own and p_score + delta == score:
                    prev = p_key, p_score, decision
                    break
            if prev is not None:
                break
        if prev is None:
            raise RuntimeError("a kept state of the sweep has no predecessor")  # a bug, never a position
        key, score, decision = prev
        if kind == "closing":
            decision, js = decision
            path.append(("groups", v, -1, js))
        path.append(("colour", v, ci, decision))
        if first:
            key &= BOUNDARY_MASK  # the first colour of v starts from a boundary state
    return path


def _replacements(need: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """What the tiles laid at a number must supply for its retrieved jokers (RK-52 step 2, Hall's
    condition): counts of real tiles per colour mask, each capped at what it must reach."""
    if not need:
        return (), ()
    if len(need) == 1:
        return (need[0],), (1,)
    return (need[0], need[1], need[0] | need[1]), (1, 1, 2)


def _order(p: Problem, v: int) -> list[int]:
    """The order the colours of v are decided in. The states peak just before the last colour (which
    closes the groups), so the colours that branch most go last: fewest items first, then the colour
    with more items at v-1 (its runs are already settled), then fewer rack tiles. Measured on the bench's
    positions: 0.73x the states of the fixed order, 0.8x the time."""
    avail, opt = p.avail, p.opt
    return sorted(range(_NC), key=lambda c: (avail[c][v], -avail[c][v - 1], opt[c][v], c))


def run_dp(p: Problem) -> tuple[int, Path] | None:
    """The sweep: the best score and its decisions, or None when no table is reachable. States are
    packed ints (rules/rummikub/keys.py); at each colour the moves of a state depend only on its own
    line, jokers used and rest, so they are built once per such part and shared by every state with it."""
    lean = p.mode == LEAN
    layers: list[tuple[str, int, int, tuple]] = []  # per step: (kind, v, colour, (input states, moves, mask))
    states: dict[int, int] = {0: 0}  # every line empty, no joker used
    for v in range(1, MAX_NUMBER + 1):
        masks, caps = _replacements(p.need[v])
        # Rest of the key within a number: (open groups of v, replacements supplied so far, kept jokers
        # of v still to stand for a tile: their S0 masks).
        start = rest_id(((0, 0, 0), (0,) * len(caps), tuple(sorted(p.wild[v])))) << REST_SHIFT
        cur = {key | start: s for key, s in states.items()}
        order = _order(p, v)
        for pos, ci in enumerate(order):
            # The last colour also closes the groups of v (one dict of states fewer per number).
            closing = _Closing(p, v, caps) if pos == _NC - 1 else None
            step = _Step(p, v, ci, order[pos + 1 :], masks, caps, closing)
            keep = RUNS_MASK ^ (LINE_MASK << ci * LINE_BITS)  # the other colours' lines
            own_mask = ~keep
            moves: dict[int, list] = {}
            nxt: dict[int, int] = {}
            for key, score in cur.items():
                own = key & own_mask
                found = moves.get(own)
                if found is None:
                    found = moves[own] = step.moves(own)
                sub = key & keep
                for need, add, delta, _ in found:
                    if score < need:
                        break  # the rest need more: even every tile still to come cannot reach the floor
                    nkey = sub | add
                    ns = score + delta
                    if ns > nxt.get(nkey, -1):
                        nxt[nkey] = ns
            # No back-pointers: storing one per improvement cost a quarter of the sweep (measured);
            # the path is found again from these dicts once the best state is known (`_path`).
            layers.append(("colour" if closing is None else "closing", v, ci, (cur, moves, keep, pos == 0)))
            cur = nxt  # dominance only between numbers: within one it costs more than it saves (measured)
            if p.budget is not None:
                p.budget -= len(nxt)
                if p.budget < 0:
                    raise OverBudget
        states = undominated(cur, lean) if p.prune else cur
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
    path = _path(layers, best_key, states[best_key])
    path.reverse()
    used = best_key >> USED_SHIFT & USED_MASK
    free = (p.nj if p.joker_w > 0 else max(used, p.nt)) - used if lean else 0
    path.append(("free", 0, -1, free))
    return best, path


class _Closing:
    """Closing the groups of v: jokers fill them to 3..4 tiles; the retrieved jokers of v need their
    tiles. `options(rest id)`: [(jokers, jokers per group, score added)], none when the rest fails."""

    def __init__(self, p: Problem, v: int, caps: tuple[int, ...]) -> None:
        self.p, self.v, self.caps = p, v, caps
        self.memo: dict[int, list[tuple[int, tuple[int, ...], int]]] = {}

    def options(self, rid: int) -> list[tuple[int, tuple[int, ...], int]]:
        found = self.memo.get(rid)
        if found is not None:
            return found
        groups, pc, pend = REST_ITEMS[rid]
        found = self.memo[rid] = []
        if pc == self.caps and not pend:
            lean = self.p.mode == LEAN
            ranges = []
            for size in groups:
                top = max(0, 3 - size) if lean else min(4 - size, 2)
                ranges.append((0,) if size == 0 else tuple(range(max(0, 3 - size), min(4 - size, top) + 1)))
            for js in product(*ranges):
                k = sum(js)
                found.append((k, js, 0 if lean else k * self.p.joker_value_w * self.p.points[self.v]))
        return found


class _Step:
    """One colour at one number: the moves of a state's own part (its line, jokers used and rest),
    from the memo of rules/rummikub/colour_moves.py, priced for this number."""

    def __init__(self, p: Problem, v: int, ci: int, later: Sequence[int], masks: tuple[int, ...],
                 caps: tuple[int, ...], closing: _Closing | None) -> None:
        self.p, self.ci, self.masks, self.caps, self.closing = p, ci, masks, caps, closing
        self.lean = lean = p.mode == LEAN
        avail, opt = p.avail, p.opt
        self.m, self.o = p.mand[ci][v], opt[ci][v]
        self.tile_w = tile_w = p.tile_w + p.value_w * p.points[v]
        self.joker_gain = 0 if lean else p.joker_value_w * p.points[v]
        # Colours still to join groups (two are as good as three: an open group already holds a tile).
        joining = 0
        later_rack = 0
        for c in later:
            joining += avail[c][v] > 0
            later_rack += opt[c][v]
        self.later = min(2, joining)
        row = avail[ci]
        self.n1 = row[v + 1] if v + 1 <= MAX_NUMBER else -1
        self.n2 = row[v + 2] if v + 2 <= MAX_NUMBER else -1
        self.new_run = lean and v == _RUN_START_WITH_JOKER
        ahead = min(v + 2, MAX_NUMBER) * _NC
        # The colours of v still to come and the next two numbers: jokers used here may still help.
        near = p.rest[v * _NC] - p.rest[ahead] + later_rack * tile_w
        # A move keeps its state only if score + move + this (for the jokers then left) reaches the floor.
        jbound = p.joker_value_w * MAX_NUMBER  # the most a joker still to come adds in the sweep
        rest_bonus = p.nr * max(p.joker_w, 0)  # rack jokers count when the sweep ends (placed or laid free)
        base = p.floor - near - rest_bonus
        self.short = [base - far[ahead] - j * jbound for j, far in enumerate(p.far)]
        self.shift = ci * LINE_BITS

    def moves(self, own: int) -> list[tuple[int, int, int, tuple]]:
        """[(least score that keeps the move, bits of the new own part, score added, decision)], the
        least score first."""
        used = own >> USED_SHIFT & USED_MASK
        jleft = self.p.nj - used
        rid = own >> REST_SHIFT
        # The colour matters only to kept jokers and replacements: without them every colour shares moves.
        ci = self.ci if self.masks or REST_ITEMS[rid][2] else 0
        found = colour_moves(own >> self.shift & LINE_MASK, jleft, rid, ci, self.m, self.o, self.later, self.n1,
                             self.n2, self.new_run, self.lean, self.p.max_groups, self.masks, self.caps)
        out = []
        short, tile_w, joker_gain, shift = self.short, self.tile_w, self.joker_gain, self.shift
        if self.closing is None:
            for laid, k, line_id, rest, decision in found:
                delta = laid * tile_w + k * joker_gain
                out.append((short[jleft - k] - delta,
                            line_id << shift | (used + k) << USED_SHIFT | rest << REST_SHIFT, delta, decision))
        else:
            # Moves that end on the same boundary state: the most score added, and the least floor of them
            # (a move is only dropped when it cannot reach the floor, so the lower one is safe).
            best: dict[int, list] = {}
            options, nj = self.closing.options, self.p.nj
            for laid, k, line_id, rest, decision in found:
                delta = laid * tile_w + k * joker_gain
                need = short[jleft - k] - delta
                for kf, js, gain in options(rest):
                    if used + k + kf > nj:
                        continue
                    add = line_id << shift | (used + k + kf) << USED_SHIFT
                    old = best.get(add)
                    if old is None:
                        best[add] = [need, add, delta + gain, (decision, js)]
                    else:
                        old[0] = min(old[0], need)
                        if delta + gain > old[2]:
                            old[2], old[3] = delta + gain, (decision, js)
            out = [tuple(mv) for mv in best.values()]
        out.sort(key=itemgetter(0))
        return out
