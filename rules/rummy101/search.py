"""Meld search over one hand: the best set of disjoint runs/sets, and pair counting (used by the AI
and by the view's "best opening" figure).

The search is exact up to a node budget: tiles are taken in index order (colour-major, r1..r13,
b1..), and the lowest remaining tile either stays in hand or starts one of the melds that can hold
it (a run in which it is the lowest numbered tile, jokers possibly below it; or a set in which it
has the lowest colour). Results are memoised on (tile index, counts from there on, jokers left).
Runs of 3..5 tiles suffice: every longer run is several of them with the same tiles and value.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from itertools import combinations

from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER

N_TILES = len(COLOURS) * MAX_NUMBER
NAMES = [f"{c}{n}" for c in COLOURS for n in range(1, MAX_NUMBER + 1)]
INDEX = {name: i for i, name in enumerate(NAMES)}
MAX_RUN = 5
MAX_JOKERS_PER_MELD = 2
NODE_BUDGET = 4000

Tokens = list[str]
# Score of one meld: (tile indices used, jokers used, meld value) -> points to maximise.
Scorer = Callable[[Sequence[int], int, int], float]
# A meld found by the search, cheap to build: ("run", colour, lo, hi, used) or ("set", number, used, jokers).
Found = tuple
FACE = [i % MAX_NUMBER + 1 for i in range(N_TILES)]


def value_score(used: Sequence[int], jokers: int, value: int) -> float:
    """Opening search: the meld value (R101-25), a hair less per joker so natural melds win ties."""
    return value - 0.01 * jokers


def counts_of(hand: Sequence[str]) -> tuple[list[int], int]:
    counts = [0] * N_TILES
    jokers = 0
    for t in hand:
        if t == JOKER:
            jokers += 1
        else:
            counts[INDEX[t]] += 1
    return counts, jokers


def _run_windows() -> list[list[tuple[int, int, int, tuple[int, ...]]]]:
    """Per tile: every run window in which it is the lowest numbered tile, as
    (jokers below it, lo, hi, indices of the numbers from the tile up to hi)."""
    table: list[list[tuple[int, int, int, tuple[int, ...]]]] = []
    for i in range(N_TILES):
        colour, n0 = divmod(i, MAX_NUMBER)
        num = n0 + 1
        windows = []
        for below in range(0, MAX_JOKERS_PER_MELD + 1):
            lo = num - below
            if lo < 1:
                break
            for hi in range(max(num, lo + 2), min(MAX_NUMBER, lo + MAX_RUN - 1) + 1):
                windows.append((below, lo, hi, tuple(colour * MAX_NUMBER + n - 1 for n in range(num, hi + 1))))
        table.append(windows)
    return table


RUN_WINDOWS = _run_windows()


Candidate = tuple[tuple[int, ...], int, int, Found]  # (tile indices used, jokers used, value, meld)
_RUN_REACH = MAX_RUN  # a run starting at a tile holds that tile and at most MAX_RUN - 1 above it
# Per tile: the indices whose presence decides its candidates, as bit positions of one key: the
# tile and the numbers above it in its colour (bits 0..4), then the same number in later colours.
_RUN_BITS = [tuple(range(i, min(i + _RUN_REACH, (i // MAX_NUMBER + 1) * MAX_NUMBER))) for i in range(N_TILES)]
_SET_BITS = [tuple(c2 * MAX_NUMBER + i % MAX_NUMBER for c2 in range(i // MAX_NUMBER + 1, len(COLOURS)))
             for i in range(N_TILES)]


@lru_cache(maxsize=N_TILES * 2 ** (_RUN_REACH + len(COLOURS) - 1) * (MAX_JOKERS_PER_MELD + 1))  # every case fits
def _candidates_for(i: int, key: int, jmax: int) -> list[Candidate]:
    """Melds whose lowest numbered tile is NAMES[i] when the tiles of `key`'s set bits are present
    (`_RUN_BITS`, `_SET_BITS`) and `jmax` jokers may go in one: (tile indices used, jokers used,
    value, meld). They depend on nothing else, so each case is worked out once."""
    present = {idx for b, idx in enumerate(_RUN_BITS[i]) if key >> b & 1}
    present |= {idx for b, idx in enumerate(_SET_BITS[i], start=_RUN_REACH) if key >> b & 1}
    out: list[Candidate] = []
    colour, n0 = divmod(i, MAX_NUMBER)
    # Runs: jokers below the tile (when it sits near the top), the tile, then upward.
    for below, lo, hi, span in RUN_WINDOWS[i]:
        if below > jmax:
            break
        used = tuple(idx for idx in span if idx in present)
        need = below + len(span) - len(used)
        if need <= jmax:
            out.append((used, need, (lo + hi) * (hi - lo + 1) // 2, ("run", colour, lo, hi, used)))
    # Sets: the tile plus same-number tiles of later colours, jokers filling up to 3 or 4.
    others = [idx for idx in _SET_BITS[i] if idx in present]
    num = n0 + 1
    for size in range(max(1, 3 - jmax), min(4, len(others) + 1) + 1):
        for combo in combinations(others, size - 1):
            s_used = (i, *combo)
            for j in range(max(0, 3 - size), min(jmax, 4 - size) + 1):
                out.append((s_used, j, num * (size + j), ("set", num, s_used, j)))
    return out


# Per tile: the other colours' tiles of its number, and the run windows of three that hold it.
_SAME_NUMBER = [tuple(c2 * MAX_NUMBER + i % MAX_NUMBER for c2 in range(len(COLOURS))) for i in range(N_TILES)]
_TRIPLES = [tuple(tuple((i // MAX_NUMBER) * MAX_NUMBER + n - 1 for n in range(lo, lo + 3))
                  for lo in range(max(1, i % MAX_NUMBER - 1), min(i % MAX_NUMBER + 1, MAX_NUMBER - 2) + 1))
            for i in range(N_TILES)]


def _drop_dead(counts: list[int], jokers: int) -> None:
    """Leave out tiles no meld could hold (no run window or set within reach of the jokers): the
    search then branches only on tiles that matter, which keeps a 22-tile hand well under a ms."""
    jmax = min(jokers, MAX_JOKERS_PER_MELD)
    if jmax >= 2:
        return  # two jokers make a set with any tile
    present = [c > 0 for c in counts]
    for i in range(N_TILES):
        if not present[i]:
            continue
        a, b, c, d = _SAME_NUMBER[i]
        if present[a] + present[b] + present[c] + present[d] + jmax >= 3:
            continue
        for x, y, z in _TRIPLES[i]:
            if present[x] + present[y] + present[z] + jmax >= 3:
                break
        else:
            counts[i] = 0


def tokens_of(found: Found) -> Tokens:
    """The meld as the grammar writes it, every joker declared so the engine reads it the same way."""
    if found[0] == "run":
        _, colour, lo, hi, used = found
        c = COLOURS[colour]
        have = {FACE[u] for u in used}
        return [f"{c}{n}" if n in have else f"{JOKER}={c}{n}" for n in range(lo, hi + 1)]
    _, num, used, jokers = found
    return [NAMES[u] for u in used] + [f"{JOKER}={num}"] * jokers


def best_melds(hand: Sequence[str], scorer: Scorer = value_score) -> tuple[float, list[Tokens]]:
    """The highest-scoring collection of disjoint runs/sets from `hand`: (score, melds as tokens)."""
    score, melds = _cached_search(tuple(sorted(hand)), scorer)
    return score, [list(m) for m in melds]


@lru_cache(maxsize=4096)
def _cached_search(hand: tuple[str, ...], scorer: Scorer) -> tuple[float, tuple[tuple[str, ...], ...]]:
    # A pure function of (hand, scorer): the AI and the views ask about one hand several times a turn.
    score, melds = search(hand, scorer)
    return score, tuple(tuple(m) for m in melds)


# The search packs the hand's counts into one int, two bits per tile (a tile has two copies): the
# counts from tile i on are `code >> 2 * i`, which is also the memo key, and laying a meld is one
# subtraction. `_EVEN` picks one bit per tile; `_WINDOW[i]` the tiles that decide i's candidates.
_EVEN = sum(1 << 2 * t for t in range(N_TILES))
_WINDOW = [sum(1 << 2 * (idx - i) for idx in (*_RUN_BITS[i], *_SET_BITS[i])) for i in range(N_TILES)]
Scored = tuple[int, int, float, Found]  # (the meld's tiles as a code to subtract, jokers used, score, meld)


def search(hand: Sequence[str], scorer: Scorer = value_score, budget: int = NODE_BUDGET) -> tuple[float, list[Tokens]]:
    """The uncached search behind `best_melds`."""
    counts, jokers = counts_of(hand)
    if max(counts) > 3:
        raise ValueError("a hand holds at most three copies of a tile")  # two bits per tile
    _drop_dead(counts, jokers)
    memo: dict[tuple[int, int, int], tuple[float, tuple]] = {}
    memo_get = memo.get
    nodes = 0

    def go(i: int, code: int, jokers_left: int) -> tuple[float, tuple]:
        nonlocal nodes
        rest = code >> 2 * i
        if not rest:
            return 0.0, ()
        skip = ((rest & -rest).bit_length() - 1) >> 1  # to the next tile held
        i += skip
        rest >>= 2 * skip
        key = (i, rest, jokers_left)
        hit = memo_get(key)
        if hit is not None:
            return hit
        nodes += 1
        best = go(i + 1, code, jokers_left)  # every remaining copy of tile i stays in hand
        present = (rest | rest >> 1) & _EVEN & _WINDOW[i]
        cands = _scored(scorer, i, present, jokers_left if jokers_left < MAX_JOKERS_PER_MELD else MAX_JOKERS_PER_MELD)
        if nodes > budget and cands:  # out of budget: only the most valuable meld here
            cands = [max(cands, key=_score)]
        for used, jused, gain, found in cands:
            sub_score, sub_melds = go(i, code - used, jokers_left - jused)
            score = sub_score + gain
            if score > best[0]:
                best = (score, (found, *sub_melds))
        memo[key] = best
        return best

    score, found = go(0, sum(c << 2 * t for t, c in enumerate(counts)), jokers)
    return score, [tokens_of(f) for f in found]


def _score(candidate: Scored) -> float:
    return candidate[2]


@lru_cache(maxsize=1 << 16)
def _scored(scorer: Scorer, i: int, present: int, jmax: int) -> list[Scored]:
    """Tile i's candidates (`_candidates_for`) when the tiles of `present` (bits 2 * (t - i), see
    `_WINDOW`) are held, each meld scored once and its tiles packed as in `search`'s code."""
    key = sum(1 << b for b, idx in enumerate(_RUN_BITS[i]) if present >> 2 * (idx - i) & 1)
    key |= sum(1 << b for b, idx in enumerate(_SET_BITS[i], start=_RUN_REACH) if present >> 2 * (idx - i) & 1)
    return [(sum(1 << 2 * u for u in used), jused, scorer(used, jused, value), found)
            for used, jused, value, found in _candidates_for(i, key, jmax)]


def physical(tokens: Tokens) -> list[str]:
    return [JOKER if t.startswith(JOKER) else t for t in tokens]


def meld_value(tokens: Tokens) -> int:
    """Value of a meld written by this module (jokers always declared)."""
    total = 0
    for t in tokens:
        decl = t.split("=", 1)[1] if "=" in t else t
        total += int(decl) if decl.isdigit() else int(decl[1:])
    return total


def pairs_in(hand: Sequence[str], exclude: Sequence[str] = ()) -> list[Tokens]:
    """Distinct pairs the hand can lay (R101-22/33): doubles, then jokers with the highest singles."""
    counts = Counter(t for t in hand if t != JOKER)
    jokers = sum(1 for t in hand if t == JOKER)
    banned = set(exclude)
    doubles = [t for t, c in counts.items() if c >= 2 and t not in banned]
    singles = [t for t, c in counts.items() if c == 1 and t not in banned]
    singles.sort(key=lambda t: -int(t[1:]))
    pairs = [[t, t] for t in sorted(doubles, key=lambda t: -int(t[1:]))]
    pairs += [[t, f"j={t}"] for t in singles[:jokers]]
    return pairs


def best_opening(hand: Sequence[str]) -> dict[str, int]:
    """What the view shows before opening: the best series value and the number of pairs."""
    series, pairs = _best_opening(tuple(sorted(hand)))
    return {"series": series, "pairs": pairs}


@lru_cache(maxsize=2048)
def _best_opening(hand: tuple[str, ...]) -> tuple[int, int]:
    # Views and the AI ask about the same hand many times: a pure function, so cache it.
    _, melds = best_melds(hand)
    return sum(meld_value(m) for m in melds), len(pairs_in(hand))


def clear_caches() -> None:
    """Forget memoised searches (benchmarks time decisions cold)."""
    _cached_search.cache_clear()
    _best_opening.cache_clear()
