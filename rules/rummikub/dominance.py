"""Dominance between the states of the sweep (rules/rummikub/sweep.py): most states it meets can do
nothing another state cannot do better, and dropping them between numbers keeps it small.

A state is (per-colour open runs, jokers used, rest of the key); the run lengths are the sweep's
(1, 2: must grow; 3: a run of 3+ that may end; 4, 5: lean hole jokers that need the next item).
"""

from __future__ import annotations

from itertools import product

from rules.rummikub.keys import LINE_ID, LINES, REST_SHIFT, USED_MASK, USED_SHIFT, lines_of

# Dominance between open runs (lengths as in the module docstring): a 3 (a run that may end) can do all
# any other run can, a 2 all a 1 or a 4 can, a 4 all a 5 can; 1 and 4/5 are not comparable.
_AT_LEAST = {(a, b) for a in range(1, 6) for b in range(1, 6)
             if a == b or a == 3 or a == 2 and b in (1, 4, 5) or a == 4 and b == 5}
_RANK = {3: 16, 2: 4, 4: 2, 1: 1, 5: 1}  # grows with _AT_LEAST, and a 3 more outweighs any change below


# For a run length b, the lengths of a run that can do all it can (a 3 may also simply end).
_ABOVE = {b: tuple(a for a in range(1, 6) if (a, b) in _AT_LEAST) for b in range(1, 6)}
_MOST_RUNS = max(len(line) for line in LINES)
_COVER_SETS: list[frozenset[int] | None] = [None] * len(LINES)  # memo: line id -> ids of the lines covering it
_LINE_RANK = [sum(_RANK[x] for x in line) for line in LINES]


def _cover_set(b: int) -> frozenset[int]:
    """The lines that can do all line b can: each run of b matched by a distinct run at least as long
    (`_AT_LEAST`), the rest runs of 3+ (which may simply end). Built from b's runs rather than by
    testing every line against it: a fresh process met a new line in most of its slowest positions,
    and testing all 462 cost more than the sweep itself (measured)."""
    found = _COVER_SETS[b]
    if found is None:
        line = LINES[b]
        found = _COVER_SETS[b] = frozenset(
            LINE_ID[tuple(sorted(ups + (3,) * extra))]
            for ups in product(*(_ABOVE[x] for x in line)) for extra in range(_MOST_RUNS - len(line) + 1))
    return found


def undominated(states: dict[int, int], lean: bool) -> dict[int, int]:
    """The states no other state dominates: one with the same rest of the key (the open groups of this
    number and what they need) that scored at least as much, with every colour's runs covering its own
    and no more jokers used (lean: a joker left over is laid free at the end; full: the same count, as
    every T0 joker must still find its place), has every future it has, or a better one. Keys are
    packed ints (rules/rummikub/keys.py)."""
    if len(states) < 2:
        return states
    # Best first, so a dominating state is kept before the ones it dominates (the rank breaks ties).
    rank, cover, sets = _LINE_RANK, _cover_set, _COVER_SETS
    order = []
    for key, score in states.items():
        b0, b1, b2, b3 = lines_of(key)
        used = key >> USED_SHIFT & USED_MASK
        # One int orders by score (high first), then jokers used (few first), then rank (high first).
        order.append(((-score << 16) + (used << 10) - rank[b0] - rank[b1] - rank[b2] - rank[b3],
                      key, score, used, b0, b1, b2, b3))
    order.sort()
    tries: dict[int, dict] = {}  # rest of the key -> the kept states' lines, colour by colour -> jokers used
    out = {}
    for _, key, score, used, b0, b1, b2, b3 in order:
        rest = key >> REST_SHIFT
        trie = tries.get(rest)
        if trie is None:
            trie = tries[rest] = {}
        if not _covered(trie, sets[b0] or cover(b0), sets[b1] or cover(b1), sets[b2] or cover(b2),
                        sets[b3] or cover(b3), used, lean):
            leaf = trie.setdefault(b0, {}).setdefault(b1, {}).setdefault(b2, {})
            if lean:
                leaf[b3] = min(leaf.get(b3, used), used)
            else:
                leaf.setdefault(b3, set()).add(used)
            out[key] = score
    return out


def _covered(trie: dict, c0: frozenset[int], c1: frozenset[int], c2: frozenset[int], c3: frozenset[int],
             used: int, lean: bool) -> bool:
    """Some kept state of the trie has, colour by colour, a line in the given cover sets, and the jokers."""
    for a0, t1 in trie.items():
        if a0 not in c0:
            continue
        for a1, t2 in t1.items():
            if a1 not in c1:
                continue
            for a2, t3 in t2.items():
                if a2 not in c2:
                    continue
                for a3, u in t3.items():
                    if a3 in c3 and (u <= used if lean else used in u):
                        return True
    return False
