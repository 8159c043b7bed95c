"""What one colour may do at one number of the sweep (rules/rummikub/sweep.py), as pure functions.

`colour_moves` lists the moves of a state's own part (the colour's open runs, jokers left, the open
groups of the number and what they still need) from small integers only: the tile counts there, what
the next two numbers hold, and a few flags. Those repeat across numbers, colours, plans and racks, so
one memo serves them all; the sweep then only prices each move (its score and floor) for the number.
Run lengths as in sweep.py: 1 and 2 must grow, 3 may end, 4 and 5 (lean) hold hole jokers.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

from rules.rummikub.keys import LINE_ID, LINES, REST_ITEMS, rest_id

# (rack tiles laid, jokers used, new line id, new rest id, decision for the rebuild)
Move = tuple[int, int, int, int, tuple]


@lru_cache(maxsize=1 << 16)
def colour_moves(line_id: int, jleft: int, rid: int, ci: int, m: int, o: int, later: int, n1: int, n2: int,
                 new_run: bool, lean: bool, most: int, masks: tuple[int, ...], caps: tuple[int, ...]
                 ) -> tuple[Move, ...]:
    """The moves of colour ci with `m` table and `o` rack tiles here, `later` colours still able to
    join the groups, `n1`/`n2` items there may be at the next two numbers (-1: past 13), `new_run`:
    a lean joker may start a run here; `masks`/`caps`: the replacements this number owes (RK-52).
    One move per (new line, jokers, new rest): the one laying most rack tiles."""
    groups, pc, pend = REST_ITEMS[rid]
    supplies = any(mask >> ci & 1 for mask in masks)
    best: dict[tuple[int, int, int], Move] = {}
    for a, npend, u in _stand_ins(pend, ci, m, o):
        laid = u - m - a
        npc = pc
        if supplies:
            real = u - a  # a kept joker is no replacement
            npc = tuple(min(cap, x + real) if mask >> ci & 1 else x for x, mask, cap in zip(pc, masks, caps, strict=True))
        for g, sel, ngt, low in _group_steps(groups, u, most):
            if low + later + jleft < 3:
                continue  # a group that can no longer reach 3 tiles
            rest = rest_id((ngt, npc, npend))
            # Full: k jokers join runs as tiles of (ci, v). Lean: k jokers go where runs need them.
            for k in range(min(jleft, 2) + 1):
                kt, ks = (0, k) if lean else (k, 0)
                for nl, picks in _run_ends(line_id, u - g + kt, ks, lean, new_run, n1, n2, jleft - k):
                    key = (nl, k, rest)
                    old = best.get(key)
                    if old is None or laid > old[0]:
                        best[key] = (laid, k, nl, rest, (u, sel, kt, picks, a))
    return tuple(best.values())


@lru_cache(maxsize=1 << 14)
def _run_ends(line_id: int, tiles: int, jokers: int, lean: bool, new_run: bool, n1: int, n2: int, jrest: int
              ) -> tuple[tuple[int, tuple], ...]:
    """(new line id, which runs took a joker) for the runs of one colour after `tiles` tiles and
    `jokers` jokers join them (`_alloc`), those that can still grow only (`_grows`, `jrest` jokers
    left). Memoised apart from `colour_moves`: the runs do not depend on the groups, the colour or the
    replacements, so a miss there mostly hits here (measured: a third of the cost of a miss)."""
    return tuple((LINE_ID[nl], picks) for nl, picks in _alloc(LINES[line_id], tiles, jokers, lean, new_run)
                 if _grows(nl, n1, n2, jrest))


@cache
def _alloc(line: tuple[int, ...], tiles: int, jokers: int, lean: bool, new_run: bool
           ) -> list[tuple[tuple[int, ...], tuple]]:
    """The open runs of one colour after `tiles` tiles and `jokers` jokers join runs: [(new runs,
    which states took a joker)]. Full sweep: a joker is just another tile."""
    out: list[tuple[tuple[int, ...], tuple]] = []
    if not lean:
        grown = _place_tiles(list(line), tiles + jokers)
        if grown is not None:
            out.append((grown, ()))
        return out
    targets = sorted(set(line) - {5}) + (["new"] if new_run else [])
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
    return out


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


def _grows(line: tuple[int, ...], n1: int, n2: int, jokers: int) -> bool:
    """Runs that must grow need an item at the next number (tiles or jokers; after two hole jokers a
    tile), and length-1 runs one at the number after too (n1, n2: the items there may be, -1 past 13)."""
    if not line or (line[0] == 3 and line[-1] == 3):
        return True
    need = sum(1 for x in line if x != 3)
    if n1 < 0 or need > n1 + jokers or line.count(5) > n1:
        return False
    ones = line.count(1)
    return not ones or (n2 >= 0 and ones <= n2 + jokers)


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


@cache
def _group_steps(groups: tuple[int, ...], u: int, most: int) -> list:
    """The distinct ways (copies, groups chosen, new canonical groups, smallest open group or 3) to put
    copies of a colour into the open groups of this number (their sizes): one per group (RK-30)."""
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
