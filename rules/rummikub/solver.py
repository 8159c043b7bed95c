"""Exact Rummikub move solver: the best whole new table for a rack (RK-41..55, checks C2..C8).

The algorithm is the dynamic program of van Rijn, Takes and Vis ("The complexity of Rummikub
problems"), widened for our joker rules. It sweeps the numbers 1..13; before number v a state holds,
per colour, the lengths of the runs still open (capped at 3: a run of 3 or more may end anywhere),
plus which jokers are used. At number v every tile of (colour, v) is decided: table tiles must be
laid (C2: the table keeps every tile), rack tiles may be. A laid copy goes to one of at most three
groups of v (RK-30: a group holds one tile per colour; three groups of one number need a joker) or to
a run of its colour. Runs take their items in a fixed order that loses nothing: every open run
shorter than 3 must grow (it may not end yet), then runs of 3+ grow, then new runs start; a run of
3+ that is not extended ends. Jokers are items too: a joker at (colour, v) in a run, or in a group
of v (RK-32, RK-50); a meld never has more than the two jokers of the set, so it always holds a
numbered tile. The score of a state is the objective of the rack tiles laid so far; the best state
after 13 with every run closed and every table joker laid is the optimum, and the path to it
(found again from the states kept, sweep.py) gives the melds (runs longer than the DP needs are just
written out whole).

Jokers and C8 (RK-52). Each joker of T0 stands for a set S0 of tiles, all of one number v0. Before
the sweep, every T0 joker is settled one way (a `Plan`, at most 2^2 of them): *kept* as a tile of
its S0 (the sweep treats it as a table tile of v0 whose colour it picks among S0's, so no joker is
in the sweep at all: the cheapest case), or *retrieved*, when some tile of S0 exists: then it is a
free joker that must be laid anywhere, and the tiles laid at v0 must hold a distinct replacement
from S0 for every retrieved joker (Hall's condition over at most two jokers). The best table over
all plans is the optimum: every layout meeting C8 has a pairing that one plan describes. Plans
without free jokers run first; their best score is the floor the slower plans must beat (measured:
any other order, or one sweep deciding kept/retrieved itself, creates more states; so did one sweep
for all the plans retrieving a joker, measured by its largest part alone). A plan's best table with a
kept joker won back by a spare rack copy of its tile (`_swapped`) raises that floor, and a table
laying every rack tile ends the search. Rack jokers are free.

The initial meld (RK-41/42, C6/C7) is the same program on the rack alone with an empty table; the
objective then counts points, jokers at the tile they stand for (RK-33).

Cost: states are few in practice (colours with no tile at v close every run), each tile is decided
once, the colours of a number are decided fewest items first (the states peak before the last one),
the sweep starts from the table's sparser end (from 13 down: the position mirrored, rules/rummikub/
mirror.py), and dominated states are dropped after every number (rules/rummikub/dominance.py). A state is
one int (rules/rummikub/keys.py), and what a colour may do at a number comes from one memo of small
ints shared by every sweep (rules/rummikub/colour_moves.py); see bench/bench_ai.py for the figures
against a MILP.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any, cast

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER
from rules.rummikub.melds import analyse
from rules.rummikub.mirror import mirror_melds, mirror_tiles, sweep_down
from rules.rummikub.sweep import FULL, LEAN, OverBudget, Path, Plan, Problem, run_dp

# A path step's decision is typed `object` because each kind of step keeps its own: a colour step's is
# colour_moves' (copies, groups chosen, jokers in runs, run picks, stand-ins), a groups step's the jokers
# per group, the free step's the free jokers. The casts below name which one a step holds.
ColourDecision = tuple[int, tuple[int, ...], int, tuple[Any, ...], int]

__all__ = ["MOST_TILES", "OPENING_VALUE", "Objective", "OverBudget", "Solution", "solve", "solve_opening"]

StoredMeld = dict
_CI = {c: i for i, c in enumerate(COLOURS)}


@dataclass(frozen=True)
class Objective:
    """What a laid rack tile is worth: `tile` each plus `value` per point; a rack joker `joker` plus
    `joker_value` per point of the tile it stands for. Every weight must leave a laid tile worth > 0."""

    tile: int = 1000
    value: int = 1
    joker: int = 1000
    joker_value: int = 0


MOST_TILES = Objective()  # most tiles, then most points of numbered tiles (a joker counts as a tile)
OPENING_VALUE = Objective(tile=0, value=1, joker=0, joker_value=1)  # the initial meld's points (RK-33)


@dataclass(frozen=True)
class Solution:
    melds: list[StoredMeld]  # the whole new table, each {"tiles": [...], "prefix": "G" | None}
    placed: list[str]  # the rack tiles it lays
    score: int


def _rebuild(path: Path) -> list[StoredMeld] | None:
    """Replay the decisions of the best path: the melds of the new table (None: no room for the free
    jokers of a lean sweep)."""
    open_runs: list[list[list]] = [[] for _ in COLOURS]  # per colour: [tiles, state] (see sweep.py)
    done: list[StoredMeld] = []
    groups: list[list[str]] = [[], [], []]
    free = 0
    for kind, v, ci, decision in path:
        if kind == "colour":
            u, sel, kt, picks, _ = cast(ColourDecision, decision)
            tile = f"{COLOURS[ci]}{v}"
            for gi in sel:
                groups[gi].append(tile)
            # The same canonical order as the sweep's key (equal keys hold interchangeable groups).
            groups.sort(key=len, reverse=True)
            runs = open_runs[ci]
            extended = []
            for pick in picks:  # lean: jokers holding a run together (a hole, or its 3rd tile)
                if pick == "new":
                    extended.append([[JOKER], 1])
                    continue
                run = next(r for r in runs if r[1] == pick)
                runs.remove(run)
                run[0].append(JOKER)
                run[1] = {1: 2, 2: 3, 3: 4, 4: 5}[pick]
                extended.append(run)
            items = [JOKER] * kt + [tile] * (u - len(sel))
            must = sorted((r for r in runs if r[1] != 3), key=lambda r: -r[1])  # 5 first: it needs a tile
            longs = [r for r in runs if r[1] == 3]
            for r in must:
                r[0].append(items.pop())
                r[1] = 3 if r[1] > 2 else r[1] + 1
            grown = longs[: len(items)]
            for r in grown:
                r[0].append(items.pop())
            done.extend({"tiles": r[0], "prefix": None} for r in longs[len(grown) :])
            open_runs[ci] = must + grown + [[[x], 1] for x in items] + extended
        elif kind == "groups":
            for gi, g in enumerate(groups):
                if g:
                    numbered = len(g)
                    g.extend([JOKER] * cast("tuple[int, ...]", decision)[gi])
                    done.append({"tiles": g, "prefix": "G" if numbered == 1 else None})
            groups = [[], [], []]
        else:
            free = cast(int, decision)
    done.extend({"tiles": r[0], "prefix": None} for lines in open_runs for r in lines)
    return done if _append_free(done, free) else None


def _append_free(melds: list[StoredMeld], free: int) -> bool:
    """Lay `free` jokers at the ends of runs or as a group's 4th tile: no other joker's tile changes."""
    for meld in melds:
        while free:
            tiles = meld["tiles"]
            numbered = [(i, t) for i, t in enumerate(tiles) if t != JOKER]
            if len(numbered) >= 2 and numbered[0][1][1:] == numbered[1][1][1:] or meld["prefix"] == "G":
                if len(tiles) >= 4:
                    break
                tiles.append(JOKER)  # a group of 3 takes a 4th colour (RK-30)
            else:
                i, t = numbered[0]
                first = int(t[1:]) - i
                if first + len(tiles) - 1 < MAX_NUMBER:
                    tiles.append(JOKER)
                elif first > 1:
                    tiles.insert(0, JOKER)
                else:
                    break
            free -= 1
    return free == 0


def _weights(obj: Objective) -> tuple[int, int, int, int]:
    return (obj.tile, obj.value, obj.joker, obj.joker_value)


def solve(
    table: Sequence[StoredMeld],
    rack: Sequence[str],
    objective: Objective = MOST_TILES,
    rack_jokers: int = 2,
    budget: int | None = None,
) -> Solution | None:
    """The best play for an opened player (RK-45): the whole new table, keeping every table tile
    (C2), laying at least one rack tile (C3), every meld valid (C5) and the joker rules kept (C8).
    None when no rack tile can be laid. At most `rack_jokers` of the rack's jokers are used.
    `objective.joker_value` is for a table without jokers (the initial meld). `budget`: the sweep
    states it may create in all, past which it raises `OverBudget` (None: no limit)."""
    weights = _weights(objective)
    best: tuple[int, list[StoredMeld]] | None = None
    spend = [budget]
    down = sweep_down(table)  # from 13 down: the same table mirrored (rules/rummikub/mirror.py)
    t0, r0 = (mirror_melds(table), mirror_tiles(rack)) if down else (table, rack)
    ceiling = _ceiling(rack, weights, rack_jokers)
    for plan in _plans(t0, r0):
        if best is not None and best[0] >= ceiling:
            break  # every rack tile is laid: no plan can do better
        floor = best[0] + 1 if best is not None else 1  # C3: at least one rack tile; else only a better plan
        found = _plan_best(t0, r0, weights, rack_jokers, plan, floor, spend, down)
        if found is not None:
            swapped = _swapped(found, t0, r0, weights, down)
            best = found[0], _joker_back(found[1], found[2])
            if swapped is not None and swapped[0] > best[0]:
                best = swapped
    if best is None:
        return None
    score, melds = best
    if down:
        melds = mirror_melds(melds)
    placed = Counter(t for m in melds for t in m["tiles"]) - Counter(t for m in table for t in m["tiles"])
    return Solution(melds=melds, placed=sorted(placed.elements()), score=score)


def _plan_best(table: Sequence[StoredMeld], rack: Sequence[str], weights: tuple[int, int, int, int],
               rack_jokers: int, plan: Plan, floor: int, spend: list[int | None], mirrored: bool = False
               ) -> tuple[int, list[StoredMeld], list[tuple[int, int]]] | None:
    """The plan's best table if it scores at least `floor`: lean first, the full sweep when the free
    jokers found no room (a lean score is never below the full one, so a lean miss is a miss). (Trying
    the plan's ceiling first, every rack tile that might fit, was measured: no faster.)"""
    for mode in (LEAN, FULL) if weights[3] == 0 else (FULL,):
        p = Problem(table, rack, weights, rack_jokers, mode, plan, mirrored)
        p.floor = floor
        p.budget = spend[0]
        found = run_dp(p)
        spend[0] = p.budget
        if found is None or found[0] < floor:
            return None
        melds = _rebuild(found[1])
        if melds is not None:
            stand_ins = [(ci, v) for kind, v, ci, d in found[1] if kind == "colour" for _ in range(cast(ColourDecision, d)[4])]
            return found[0], melds, stand_ins
    return None


def _ceiling(rack: Sequence[str], weights: tuple[int, int, int, int], rack_jokers: int) -> int:
    """The score of laying every rack tile: no table scores more."""
    tile_w, value_w, joker_w, _ = weights
    numbered = [int(t[1:]) for t in rack if t != JOKER]
    return len(numbered) * tile_w + value_w * sum(numbered) + min(len(rack) - len(numbered), rack_jokers) * joker_w


def _swapped(found: tuple[int, list[StoredMeld], list[tuple[int, int]]], table: Sequence[StoredMeld],
             rack: Sequence[str], weights: tuple[int, int, int, int], mirrored: bool
             ) -> tuple[int, list[StoredMeld]] | None:
    """A plan's best table with one kept joker won back (RK-52) by the rack's copy of the tile it stands
    for, and laid again at a run's end or as a group's 4th tile: a table of the plan retrieving that
    joker, so its score is a floor the slower plans must beat (most of them only just beat it)."""
    score, melds, stand_ins = found
    tile_w, value_w, _, joker_value_w = weights
    if not stand_ins or joker_value_w:
        return None
    laid = Counter(t for m in melds for t in m["tiles"])
    on_table = Counter(t for m in table for t in m["tiles"])
    have = Counter(rack)
    best: tuple[int, list[StoredMeld]] | None = None
    for i, (ci, v) in enumerate(stand_ins):
        tile = f"{COLOURS[ci]}{v}"
        from_rack = laid[tile] - on_table[tile] - stand_ins.count((ci, v))
        if have[tile] <= from_rack:
            continue  # every rack copy is laid already
        gain = tile_w + value_w * (MAX_NUMBER + 1 - v if mirrored else v)
        if best is not None and score + gain <= best[0]:
            continue
        variant = [{"tiles": list(m["tiles"]), "prefix": m["prefix"]} for m in melds]
        if _append_free(variant, 1):
            best = score + gain, _joker_back(variant, stand_ins[:i] + stand_ins[i + 1 :])
    return best


def _plans(table: Sequence[StoredMeld], rack: Sequence[str]) -> list[Plan]:
    """Every way to settle the T0 jokers (RK-52): each is kept as one tile of its S0, or retrieved when
    a replacement from S0 exists (on the table or the rack). Plans without free jokers come first:
    they are the cheapest sweeps, and their score is the floor the others must beat."""
    have = Counter(t for m in table for t in m["tiles"]) + Counter(rack)
    options = []
    for meld in table:
        if JOKER not in meld["tiles"]:
            continue  # most melds hold no joker, and analysing one costs more than the rest of this
        for s0 in analyse(meld["tiles"], meld.get("prefix")).joker_sets:
            v0 = int(next(iter(s0))[1:])
            mask = sum(1 << _CI[t[0]] for t in s0)
            opts: list[tuple[str, tuple[int, int]]] = [("kept", (v0, mask))]
            if any(have[t] for t in s0):
                opts.append(("retrieved", (v0, mask)))
            options.append(opts)
    plans = set()
    for choice in product(*options):
        plans.add(Plan(kept=tuple(sorted(x for k, x in choice if k == "kept")),
                       retrieved=tuple(sorted(x for k, x in choice if k == "retrieved"))))
    return sorted(plans, key=lambda pl: (len(pl.retrieved), pl))


def _joker_back(melds: list[StoredMeld], stand_ins: list[tuple[int, int]]) -> list[StoredMeld]:
    """A kept joker was swept as the tile of S0 it stands for, (colour index, number): write it as the
    joker again (any copy of that tile will do, they are interchangeable)."""
    for ci, v in stand_ins:
        tile = f"{COLOURS[ci]}{v}"
        meld = next(m for m in melds if tile in m["tiles"])
        tiles = meld["tiles"]
        numbered = [t for t in tiles if t != JOKER]
        group = meld["prefix"] == "G" or len(numbered) >= 2 and numbered[0][1:] == numbered[1][1:]
        tiles[tiles.index(tile)] = JOKER
        if group and sum(1 for t in tiles if t != JOKER) == 1:
            meld["prefix"] = "G"  # [x j j] reads as a run unless it says otherwise (RK-35)
    return melds


def solve_opening(rack: Sequence[str], minimum: int) -> list[StoredMeld] | None:
    """The initial meld (RK-41/42): new melds from the rack alone worth the most points, using the
    fewest jokers that still reach `minimum` (a joker kept on the rack is worth more later); None
    when no meld from the rack reaches it. The table is left as it is (C6), so it is not needed."""
    for jokers in range(min(rack.count(JOKER), 2) + 1):
        found = run_dp(Problem([], rack, _weights(OPENING_VALUE), jokers, FULL))
        if found is not None and found[0] > 0 and found[0] >= minimum:
            return _rebuild(found[1])
    return None
