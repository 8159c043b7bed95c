"""Dominance between the states of the sweep (rules/rummikub/sweep.py): most states it meets can do
nothing another state cannot do better, and dropping them between colours keeps it small.

A state is (per-colour open runs, jokers used, rest of the key); the run lengths are the sweep's
(1, 2: must grow; 3: a run of 3+ that may end; 4, 5: lean hole jokers that need the next item).
"""

from __future__ import annotations

from functools import cache

# Dominance between open runs (lengths as in the module docstring): a 3 (a run that may end) can do all
# any other run can, a 2 all a 1 or a 4 can, a 4 all a 5 can; 1 and 4/5 are not comparable.
_AT_LEAST = {(a, b) for a in range(1, 6) for b in range(1, 6)
             if a == b or a == 3 or a == 2 and b in (1, 4, 5) or a == 4 and b == 5}
_RANK = {3: 16, 2: 4, 4: 2, 1: 1, 5: 1}  # grows with _AT_LEAST, and a 3 more outweighs any change below


@cache
def _line_covers(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """Line a can do all line b can: b's runs match distinct runs of a at least as long, and the rest of
    a are runs of 3+ (which may simply end)."""
    if len(a) < len(b):
        return False
    if not b:
        return all(x == 3 for x in a)
    first = b[0]
    for i, x in enumerate(a):
        if (x, first) in _AT_LEAST and (i == 0 or x != a[i - 1]) and _line_covers(a[:i] + a[i + 1 :], b[1:]):
            return True
    return False


@cache
def _rank(runs: tuple[tuple[int, ...], ...]) -> int:
    return sum(_RANK[x] for line in runs for x in line)


def undominated(states: dict, lean: bool) -> dict:
    """The states no other state dominates: one with the same rest of the key (the open groups of this
    number and what they need) that scored at least as much, with every colour's runs covering its own
    and no more jokers used (lean: a joker left over is laid free at the end; full: the same count, as
    every T0 joker must still find its place), has every future it has, or a better one."""
    if len(states) < 2:
        return states
    # Best first, so a dominating state is kept before the ones it dominates (the rank breaks ties).
    order = sorted(states.items(), key=lambda kv: (-kv[1], kv[0][1], -_rank(kv[0][0])))
    tries: dict[tuple, dict] = {}  # rest of the key -> the kept states' runs, colour by colour -> jokers used
    out = {}
    for key, score in order:
        trie = tries.setdefault(key[2:], {})
        runs, used = key[0], key[1]
        if not _covered(trie, runs, used, lean):
            b0, b1, b2, b3 = runs
            leaf = trie.setdefault(b0, {}).setdefault(b1, {}).setdefault(b2, {})
            if lean:
                leaf[b3] = min(leaf.get(b3, used), used)
            else:
                leaf.setdefault(b3, set()).add(used)
            out[key] = score
    return out


def _covered(trie: dict, runs: tuple, used: int, lean: bool) -> bool:
    b0, b1, b2, b3 = runs
    cov = _line_covers
    for a0, t1 in trie.items():
        if a0 is not b0 and a0 != b0 and not cov(a0, b0):
            continue
        for a1, t2 in t1.items():
            if a1 != b1 and not cov(a1, b1):
                continue
            for a2, t3 in t2.items():
                if a2 != b2 and not cov(a2, b2):
                    continue
                for a3, u in t3.items():
                    if (a3 == b3 or cov(a3, b3)) and (u <= used if lean else used in u):
                        return True
    return False
