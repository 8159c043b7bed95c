"""A competent Rummy 101 player written from the rules (shared rules rummy101.md), for the ladder.

From the seat's view only, with the engine's meld rules (`rules.rummy101.melds`) as the rule book:
- opening: the series opening as soon as the hand's best split into runs and sets (an exact
  search) reaches the threshold, jokers kept out of it while the opening is reachable without
  them; the pairs opening only when strong: enough natural pairs, no joker spent, and the series
  still far out of reach;
- the discard: taken only when it is used at once to good effect (completing the opening, a new
  meld, an addition or a joker swap), else the stock;
- after opening: lay every run and set, add what fits to anyone's runs and sets, swap jokers back
  into the hand, and keep a joker to finish with (a joker finish doubles the round) unless it lays
  two more tiles or an opponent is close to finishing (a joker in hand then costs 101);
- discard: the loneliest tile (none that the next player could add to the table), low tiles first
  while unopened (high ones build the 101), high ones first once opened (they are what is lost).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.rummy101 import melds
from rules.rummy101.actions import Add, Discard, Draw, Meld, MeldSpec, Open, Swap, Take

JOKER = "j"
COLOURS = "rbky"
NODE_BUDGET = 30_000
THREAT_HAND = 4  # an opponent holding this few tiles may finish soon

Cand = tuple[tuple[str, ...], tuple[str, ...], int]  # (tiles used, tokens as written, value)


def _number(tile: str) -> int:
    return int(tile[1:])


def _candidates(counts: Counter[str], jokers: int) -> list[Cand]:
    """Every run and set the hand could form, jokers declared where they stand."""
    out: list[Cand] = []
    for colour in COLOURS:
        for lo in range(1, 12):
            for hi in range(lo + 2, 14):
                span = [f"{colour}{n}" for n in range(lo, hi + 1)]
                missing = sum(1 for t in span if counts[t] == 0)
                if missing > jokers:
                    break  # longer spans only miss more
                if missing == len(span):
                    continue  # a meld needs a numbered tile (R101-23)
                used = tuple(t if counts[t] else JOKER for t in span)
                written = tuple(t if counts[t] else f"{JOKER}={t}" for t in span)
                out.append((used, written, sum(range(lo, hi + 1))))
    for n in range(1, 14):
        present = [f"{c}{n}" for c in COLOURS if counts[f"{c}{n}"]]
        for size in (3, 4):
            for k in range(max(1, size - jokers), min(size, len(present)) + 1):
                for combo in _subsets(present, k):
                    used = tuple(combo) + (JOKER,) * (size - k)
                    written = tuple(combo) + (f"{JOKER}={n}",) * (size - k)
                    out.append((used, written, n * size))
    return out


def _subsets(items: Sequence[str], k: int) -> list[tuple[str, ...]]:
    if k == 0:
        return [()]
    if len(items) < k:
        return []
    first, rest = items[0], items[1:]
    return [(first, *s) for s in _subsets(rest, k - 1)] + _subsets(rest, k)


def best_series(hand: Sequence[str], jokers_allowed: int) -> tuple[int, list[Cand]]:
    """The highest-value set of disjoint runs and sets in `hand`, using at most `jokers_allowed` jokers
    (a memoised search over the tiles left, deciding about the lowest tile each time)."""
    value, chosen = _best_series(tuple(sorted(hand)), jokers_allowed)
    return value, list(chosen)


@lru_cache(maxsize=4096)
def _best_series(hand: tuple[str, ...], jokers_allowed: int) -> tuple[int, tuple[Cand, ...]]:
    counts = Counter(hand)
    jokers = min(counts.pop(JOKER, 0), jokers_allowed)
    cands = _candidates(counts, jokers)
    by_tile: dict[str, list[Cand]] = {}
    for c in cands:
        for t in set(c[0]):
            if t != JOKER:
                by_tile.setdefault(t, []).append(c)
    memo: dict[tuple[tuple[tuple[str, int], ...], int], tuple[int, list[Cand]]] = {}
    nodes = 0

    def search(left: Counter[str], j: int) -> tuple[int, list[Cand]]:
        nonlocal nodes
        key = (tuple(sorted((t, n) for t, n in left.items() if n)), j)
        if key in memo:
            return memo[key]
        tiles = [t for t, n in left.items() if n]
        if not tiles or nodes > NODE_BUDGET:
            return (0, [])
        nodes += 1
        t = min(tiles, key=lambda x: (COLOURS.index(x[0]), _number(x)))
        rest = Counter(left)
        rest[t] -= 1
        best = search(rest, j)
        for cand in by_tile.get(t, []):
            need = Counter(cand[0])
            nj = need.pop(JOKER, 0)
            if nj > j or any(left[x] < k for x, k in need.items()):
                continue
            after = Counter(left)
            after.subtract(need)
            value, chosen = search(after, j - nj)
            if value + cand[2] > best[0]:
                best = (value + cand[2], [cand, *chosen])
        memo[key] = best
        return best

    value, chosen = search(counts, jokers)
    return value, tuple(chosen)


def natural_pairs(hand: Sequence[str]) -> list[str]:
    return sorted(t for t, n in Counter(hand).items() if t != JOKER and n >= 2)


def _fits(meld: dict[str, Any], tokens: Sequence[str]) -> bool:
    try:
        melds.add_to(meld, tokens)
    except melds.DoesNotFit:
        return False
    return True


def _swaps(meld: dict[str, Any], tile: str) -> bool:
    try:
        melds.swap_in(meld, tile)
    except melds.DoesNotFit:
        return False
    return True


def _table_use(table: Sequence[dict[str, Any]], tile: str) -> Add | Swap | None:
    """An addition or joker swap that `tile` makes on the table, swaps first (they bring a joker back)."""
    for m in table:
        if m["kind"] != "pair" and _swaps(m, tile):
            return Swap(meld=m["n"], tile=tile)
    for m in table:
        if m["kind"] != "pair" and _fits(m, [tile]):
            return Add(meld=m["n"], tiles=(tile,))
    return None


def _spec(cand: Cand) -> MeldSpec:
    return MeldSpec(tiles=cand[1])


def _without(hand: Sequence[str], tiles: Sequence[str]) -> list[str]:
    left = list(hand)
    for t in tiles:
        left.remove(t)
    return left


def _loneliness(tile: str, hand: Sequence[str], keep: set[str]) -> int:
    if tile in keep:
        return 100
    score = 0
    for t in hand:
        if t == JOKER:
            continue
        if t == tile:
            score += 1  # a copy: half a pair, and one of them may go
        elif _number(t) == _number(tile):
            score += 2
        elif t[0] == tile[0] and abs(_number(t) - _number(tile)) <= 2:
            score += 3 - abs(_number(t) - _number(tile))
    return score


def _discard(view: dict[str, Any], hand: list[str], opened: bool) -> Discard:
    naturals = [t for t in hand if t != JOKER]
    if not naturals:
        return Discard(tile=JOKER)  # a joker last: the joker finish
    keep: set[str] = set()
    for cand in best_series(hand, 0)[1]:
        keep.update(cand[0])
    nxt = (view["you"] + 1) % view["seats"]
    feeds_next = view["status"][nxt] != "unopened"
    table = view["table"]

    def cost(t: str) -> tuple[int, int, int, str]:
        feeding = int(feeds_next and _table_use(table, t) is not None)
        value = _number(t)
        return (feeding, _loneliness(t, hand, keep), -value if opened else value, t)

    return Discard(tile=min(set(naturals), key=cost))


def _floor_ok(hand: Sequence[str], tiles: Sequence[str]) -> bool:
    return len(hand) - len(tiles) >= 1  # R101-15: a tile always stays for the discard


def _open_action(view: dict[str, Any], hand: list[str]) -> Open | None:
    threshold = view["thresholds"]["series"]
    for jokers in (0, 2):
        value, chosen = best_series(hand, jokers)
        if value >= threshold:
            used = [t for c in chosen for t in c[0]]
            while chosen and not _floor_ok(hand, used):
                chosen = sorted(chosen, key=lambda c: c[2])[1:]
                used = [t for c in chosen for t in c[0]]
                if sum(c[2] for c in chosen) < threshold:
                    return None
            return Open(melds=tuple(_spec(c) for c in chosen))
    pairs = natural_pairs(hand)
    need = view["thresholds"]["pairs"]
    series = best_series(hand, 2)[0]
    if len(pairs) >= need and (series < 60 or len(pairs) >= need + 2) and _floor_ok(hand, pairs * 2):
        chosen_pairs = pairs[: max(need, min(len(pairs), (len(hand) - 1) // 2))]
        return Open(melds=tuple(MeldSpec(tiles=(t, t)) for t in chosen_pairs))
    return None


def _take(view: dict[str, Any], hand: list[str], status: str) -> Take | None:
    top = view.get("discard_top")
    if top is None or not view.get("can_take"):
        return None
    if top == JOKER:
        return None  # a joker taken must be declared and laid at once: kept simple, drawn instead
    if status == "unopened":
        threshold = view["thresholds"]["series"]
        value, chosen = best_series([*hand, top], 0)
        if value < threshold:
            value, chosen = best_series([*hand, top], 2)
        used = [t for c in chosen for t in c[0]]
        if value >= threshold and top in used and len(hand) + 1 - len(used) >= 1:
            return Take(use=Open(melds=tuple(_spec(c) for c in chosen)))
        return None
    use = _table_use(view["table"], top)
    if use is not None:
        return Take(use=use)
    if status == "series":
        _, chosen = best_series([*hand, top], 0)
        for c in chosen:
            if top in c[0] and _floor_ok([*hand, top], c[0]):
                return Take(use=Meld(melds=(_spec(c),)))
    return None


def _play(view: dict[str, Any], hand: list[str], status: str) -> Action | None:
    """One play action after opening, or None when nothing more is worth laying."""
    table = view["table"]
    others = [n for s, n in enumerate(view["hand_sizes"]) if s != view["you"]]
    # A joker left in hand costs 101: spent once an opponent is close to finishing, or when it lays
    # at least two more tiles; kept otherwise, for a joker finish.
    threat = min(others, default=99) <= THREAT_HAND
    if status == "series":
        chosen = best_series(hand, 0)[1]
        with_jokers = best_series(hand, 2)[1]
        if threat or sum(len(c[0]) for c in with_jokers) >= sum(len(c[0]) for c in chosen) + 2:
            chosen = with_jokers
        for c in sorted(chosen, key=lambda c: -c[2]):
            if _floor_ok(hand, c[0]):
                return Meld(melds=(_spec(c),))
    elif status == "pairs":
        for t in natural_pairs(hand):
            if _floor_ok(hand, [t, t]):
                return Meld(melds=(MeldSpec(tiles=(t, t)),))
    for t in sorted(set(hand) - {JOKER}, key=lambda t: -_number(t)):
        use = _table_use(table, t)
        if use is not None and _floor_ok(hand, [t]):
            return use
    if threat and JOKER in hand and _floor_ok(hand, [JOKER]) and len(hand) > 2:
        for m in table:
            if m["kind"] != "pair" and _fits(m, [JOKER]):
                return Add(meld=m["n"], tiles=(JOKER,))
    return None


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    hand: list[str] = list(view["hand"])
    status = view["status"][view["you"]]
    if view["phase"] == "draw":
        take = _take(view, hand, status)
        return take if take is not None else Draw()
    if status == "unopened":
        opening = _open_action(view, hand)
        if opening is not None:
            return opening
        return _discard(view, hand, opened=False)
    play = _play(view, hand, status)
    if play is not None:
        return play
    return _discard(view, hand, opened=True)
