"""Melds and the exact minimum deadwood of a Three-Thirteen hand (spec T13-30..38, T13-40).

Cards are the shared notation strings (`10H`, `QS`, `JK`). `wild_rank` is the round's wild rank as a
number (3..13, the hand size: T13-04); jokers are always wild.

How `deadwood` stays exact yet fast (a 14-card hand in well under a millisecond):
- Every wild card (joker or wild-rank card) is treated as wild: T13-35 notes that reading a
  wild-rank card as wild is never worse for melding, and its unmelded cost is fixed (15, T13-38).
- Only the natural cards are searched. A meld is a subset S of the naturals plus the wilds it
  needs: a set of s same-rank naturals needs max(0, 3 - s); a run of s same-suit naturals of
  distinct ranks spanning lo..hi needs max(3, hi - lo + 1) - s (T13-35).
- Melds longer than 5 cards never need to be searched: a set of 6+ splits into two sets of 3+, and
  a run of 6+ splits into two runs of 3+, keeping every card melded (a part made only of wilds is an
  all-wild meld). So candidates are sets of 1..5 naturals and runs spanning at most 5 ranks.
- Wilds left over after the naturals' melds are absorbed: into any meld when there is one (a set
  grows without limit, a run shorter than 13 grows at an end, and a full 13-card run splits into
  two 7-card runs, one taking the wild), or as an all-wild meld when there are 3 or more of them.
  So if some meld of naturals is chosen, every wild is melded and costs nothing; if none is,
  the wilds cost 15/20 each unless there are at least 3 of them.
- The naturals are then a memoised search over their multiset (two decks: 0..2 copies of each
  card), always deciding about the lowest card left: unmelded, or in one of the candidate melds
  that hold it (T13-37's bitmask recursion, with copies merged).
The brute-force test (tests/rules/test_three_thirteen_deadwood.py) checks this against the plain
definition on random hands with many wilds.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from rules.core.cards import JOKER, RANKS, SUITS, sorted_cards

ACE_HIGH_VALUE = 15  # T13-40 / D-09
WILD_VALUE = 15  # T13-38
JOKER_VALUE = 20  # T13-38
MAX_PIECE = 5  # longest meld the search needs (see the module docstring)

_RANK_NUMBER = {r: i + 1 for i, r in enumerate(RANKS)}
_SUIT_NUMBER = {s: i for i, s in enumerate(SUITS)}
_RANK = {f"{r}{s}": i + 1 for i, r in enumerate(RANKS) for s in SUITS}
_ORDER = {f"{r}{s}": j * 13 + i for i, r in enumerate(RANKS) for j, s in enumerate(SUITS)}  # suit, then rank
_POW3 = [3**k for k in range(64)]


def rank_of(card: str) -> int:
    """A=1 .. K=13; jokers have no rank (0)."""
    return _RANK.get(card, 0)


def suit_of(card: str) -> int:
    return _SUIT_NUMBER[card[-1]]


def wild_rank_for_round(round_number: int) -> int:
    """T13-04: the rank equal to the hand size, round + 2 (3s in round 1 .. Kings in round 11)."""
    return round_number + 2


def rank_name(rank: int) -> str:
    return RANKS[rank - 1]


def is_wild(card: str, wild_rank: int) -> bool:
    """T13-04: jokers and every card of the round's wild rank."""
    return card == JOKER or _RANK[card] == wild_rank


def card_value(card: str, wild_rank: int, ace_high: bool = False) -> int:
    """T13-40 / T13-38: what the card costs when it is left unmelded."""
    if card == JOKER:
        return JOKER_VALUE
    r = _RANK[card]
    if r == wild_rank:
        return WILD_VALUE
    if r == 1:
        return ACE_HIGH_VALUE if ace_high else 1
    return r if r < 10 else 10


def is_valid_meld(cards: Sequence[str], wild_rank: int, ace_high: bool = False) -> bool:
    """The formal validity test of T13-35, written as the spec states it."""
    if len(cards) < 3:
        return False
    naturals = [c for c in cards if not is_wild(c, wild_rank)]
    if not naturals:
        return True
    ranks = [rank_of(c) for c in naturals]
    if len(set(ranks)) == 1:
        return True  # a set (T13-30); suits may repeat
    if len({suit_of(c) for c in naturals}) != 1 or len(set(ranks)) != len(ranks):
        return False
    if len(cards) > 13:
        return False
    readings = [ranks]
    if ace_high and 1 in ranks:
        readings.append([14 if r == 1 else r for r in ranks])  # one reading per meld (T13-35)
    return any(max(rs) - min(rs) + 1 <= len(cards) for rs in readings)


@dataclass(frozen=True)
class Arrangement:
    """The engine's best split of a hand: melds (each a valid meld, T13-35), the cards left over and
    their total value D (T13-37)."""

    melds: tuple[tuple[str, ...], ...]
    deadwood_cards: tuple[str, ...]
    deadwood: int


def deadwood(cards: Iterable[str], wild_rank: int, ace_high: bool = False) -> int:
    """T13-37: the minimum total value of the cards left over, over every choice of disjoint melds."""
    return arrange(cards, wild_rank, ace_high).deadwood


def arrange(cards: Iterable[str], wild_rank: int, ace_high: bool = False) -> Arrangement:
    """The best arrangement of a hand (melds + deadwood). Copies are interchangeable, so the
    answer depends only on the multiset; results are memoised on it (a pure function)."""
    return _arrange(tuple(sorted(cards)), wild_rank, bool(ace_high))


@lru_cache(maxsize=8192)
def _arrange(hand: tuple[str, ...], wild_rank: int, ace_high: bool) -> Arrangement:
    wilds = sorted((c for c in hand if is_wild(c, wild_rank)), key=lambda c: -card_value(c, wild_rank))
    naturals = [c for c in hand if not is_wild(c, wild_rank)]
    natural_total = sum(card_value(c, wild_rank, ace_high) for c in naturals)
    # With fewer than two wilds a natural can only meld next to another natural (a meld piece spans
    # at most 5 ranks): the lonely ones are deadwood whatever happens, so leave them out of the search.
    lonely: list[str] = []
    if len(wilds) < 2:
        lonely = _lonely(naturals, ace_high)
        if lonely:
            keep = list(naturals)
            for c in lonely:
                keep.remove(c)
            naturals = keep
    search = _Search(naturals, wild_rank, ace_high)
    best, pieces = search.solve(len(wilds))
    if pieces:
        melds = _place_wilds(pieces, wilds, ace_high)
        left = search.leftover(pieces) + lonely
        best += sum(card_value(c, wild_rank, ace_high) for c in lonely)
        return Arrangement(tuple(melds), tuple(sorted_cards(left)), best)
    naturals = naturals + lonely
    # No meld of naturals: the wilds meld together when there are 3+, else they are deadwood too.
    if len(wilds) >= 3:
        return Arrangement((tuple(wilds),), tuple(sorted_cards(naturals)), natural_total)
    cost = sum(card_value(c, wild_rank, ace_high) for c in wilds)
    return Arrangement((), tuple(sorted_cards(naturals) + wilds), natural_total + cost)


def _near(card: str, other: str, ace_high: bool) -> bool:
    """Whether two naturals can share a meld piece: same rank, or same suit at most 4 ranks apart
    (with `ace_high`, an ace also sits next to 10..K)."""
    r, o = _RANK[card], _RANK[other]
    if r == o:
        return True
    if card[-1] != other[-1]:
        return False
    if -MAX_PIECE < r - o < MAX_PIECE:
        return True
    return ace_high and ((r == 1 and o > 14 - MAX_PIECE) or (o == 1 and r > 14 - MAX_PIECE))


def _lonely(naturals: list[str], ace_high: bool) -> list[str]:
    """The naturals with no other natural (another copy counts) near them (`_near`)."""
    rank_counts: dict[int, int] = {}
    by_suit: dict[str, list[int]] = {}
    for c in naturals:
        r = _RANK[c]
        rank_counts[r] = rank_counts.get(r, 0) + 1
        by_suit.setdefault(c[-1], []).append(r)
    out = []
    for c in naturals:
        r = _RANK[c]
        if rank_counts[r] > 1:
            continue
        same = by_suit[c[-1]]
        if any(o != r and -MAX_PIECE < o - r < MAX_PIECE for o in same):
            continue
        if ace_high and ((r == 1 and any(o > 14 - MAX_PIECE for o in same)) or (r > 14 - MAX_PIECE and 1 in same)):
            continue
        out.append(c)
    return out


# A chosen meld of naturals: (kind, cards, wilds it needs, lowest position of a run reading)
_Piece = tuple[str, tuple[str, ...], int, int]


class _Search:
    """Minimum leftover value of the naturals given w wilds, memoised on (multiset, wilds left)."""

    def __init__(self, naturals: list[str], wild_rank: int, ace_high: bool) -> None:
        counted: dict[str, int] = {}
        for c in naturals:
            counted[c] = counted.get(c, 0) + 1
        types = sorted(counted, key=_ORDER.__getitem__)
        self.types = types
        self.counts = [counted[t] for t in types]
        self.values = [card_value(t, wild_rank, ace_high) for t in types]
        # The multiset left is a number in base (most copies + 1): base 3 for two decks.
        base = max(self.counts, default=0) + 1
        self.pow = _POW3[: len(types)] if base == 3 else [base**k for k in range(len(types))]
        self.ace_high = ace_high
        self.index = {t: k for k, t in enumerate(types)}
        self.memo: dict[tuple[int, int], tuple[int, tuple[int, int, _Piece] | None]] = {}
        self.cands: list[list[tuple[int, int, _Piece, list[int]]] | None] = [None] * len(types)
        self.by_rank: dict[int, list[int]] = {}
        for k, t in enumerate(types):
            self.by_rank.setdefault(_RANK[t], []).append(k)

    def code(self) -> int:
        return sum(c * p for c, p in zip(self.counts, self.pow, strict=True))

    def solve(self, wilds: int) -> tuple[int, list[_Piece]]:
        code = self.code()
        counts = list(self.counts)
        best = self._best(code, counts, 0, wilds)
        pieces: list[_Piece] = []
        w = wilds
        start = 0
        while code:
            while counts[start] == 0:
                start += 1
            _, step = self.memo[(code, w)]
            if step is None:
                counts[start] -= 1
                code -= self.pow[start]
                continue
            delta, need, piece = step
            for card in piece[1]:
                counts[self.index[card]] -= 1
            code -= delta
            w -= need
            pieces.append(piece)
        return best, pieces

    def leftover(self, pieces: list[_Piece]) -> list[str]:
        left = [t for t, c in zip(self.types, self.counts, strict=True) for _ in range(c)]
        for piece in pieces:
            for card in piece[1]:
                left.remove(card)
        return left

    def _best(self, code: int, counts: list[int], start: int, w: int) -> int:
        if code == 0:
            return 0
        key = (code, w)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        k = start
        while counts[k] == 0:
            k += 1
        # Option 1: one copy of the lowest card stays unmelded.
        counts[k] -= 1
        best = self.values[k] + self._best(code - self.pow[k], counts, k, w)
        counts[k] += 1
        choice: tuple[int, int, _Piece] | None = None
        cands = self.cands[k]
        if cands is None:
            cands = self.cands[k] = self._candidates(k)
        for delta, need, piece, used in cands:
            if need > w:
                break  # sorted by need
            ok = True
            for j in used:
                counts[j] -= 1
                if counts[j] < 0:
                    ok = False
            if ok:
                value = self._best(code - delta, counts, k, w - need)
                if value < best:
                    best, choice = value, (delta, need, piece)
            for j in used:
                counts[j] += 1
            if best == 0:
                break
        self.memo[key] = (best, choice)
        return best

    def melds_all(self, code: int, counts: list[int], start: int, w: int, seen: set[tuple[int, int]]) -> bool:
        """Whether every natural left can be melded with at most w wilds (no card may stay loose)."""
        if code == 0:
            return True
        key = (code, w)
        if key in seen:
            return False
        k = start
        while counts[k] == 0:
            k += 1
        cands = self.cands[k]
        if cands is None:
            cands = self.cands[k] = self._candidates(k)
        for delta, need, _, used in cands:
            if need > w:
                break
            ok = True
            for j in used:
                counts[j] -= 1
                if counts[j] < 0:
                    ok = False
            found = ok and self.melds_all(code - delta, counts, k, w - need, seen)
            for j in used:
                counts[j] += 1
            if found:
                return True
        seen.add(key)
        return False

    def _candidates(self, k: int) -> list[tuple[int, int, _Piece, list[int]]]:
        """Melds holding one copy of type k with cards of the hand (k and later types), by wilds needed."""
        types, counts, pw, index = self.types, self.counts, self.pow, self.index
        card = types[k]
        rank, suit = _RANK[card], card[-1]
        same = tuple((types[j], counts[j]) for j in self.by_rank[rank] if j > k)
        # Types are in (suit, rank) order, so k's run partners follow it directly.
        low, high = [], []
        j = k + 1
        while j < len(types) and types[j][-1] == suit and _RANK[types[j]] - rank < MAX_PIECE:
            low.append(types[j])
            j += 1
        if self.ace_high and rank == 1:
            high = [t for t in types[k + 1 :] if t[-1] == suit and _RANK[t] > 14 - MAX_PIECE]
        out = []
        for need, piece in _melds_around(card, counts[k], same, tuple(low), tuple(high)):
            used = [index[c] for c in piece[1]]
            out.append((sum(pw[j] for j in used), need, piece, used))
        return out


def fully_melded(cards: Iterable[str], wild_rank: int, ace_high: bool = False) -> bool:
    """D = 0 (T13-23/39), found faster than `deadwood` because no card may be left loose."""
    hand = list(cards)
    wilds = sum(1 for c in hand if is_wild(c, wild_rank))
    naturals = [c for c in hand if not is_wild(c, wild_rank)]
    if not naturals:
        return wilds >= 3 or wilds == 0
    if wilds < 2 and _lonely(naturals, ace_high):
        return False  # a lonely natural can never be melded (see `_arrange`)
    search = _Search(naturals, wild_rank, ace_high)
    return search.melds_all(search.code(), list(search.counts), 0, wilds, set())


@lru_cache(maxsize=16384)
def _melds_around(
    card: str,
    copies: int,
    same_rank: tuple[tuple[str, int], ...],
    run_low: tuple[str, ...],
    run_high: tuple[str, ...],
) -> tuple[tuple[int, _Piece], ...]:
    """Every meld piece holding `card` drawn from its neighbours (the same shapes recur from hand to
    hand, so they are memoised): sets of 1..5 naturals, runs spanning at most 5 ranks; melds needing
    fewest wilds first, so a zero is found sooner."""
    out: list[tuple[int, _Piece]] = []
    pool = [card] * (copies - 1) + [c for c, n in same_rank for _ in range(n)]
    seen: set[tuple[str, ...]] = set()
    for mask in range(1 << len(pool)):
        cards = (card, *(pool[b] for b in range(len(pool)) if mask >> b & 1))
        if len(cards) > MAX_PIECE or cards in seen:
            continue
        seen.add(cards)
        need = max(0, 3 - len(cards))
        out.append((need, ("set", cards, need, 0)))
    for partners, as_high in ((run_low, False), (run_high, True)):
        for mask in range(1, 1 << len(partners)):
            cards = (card, *(partners[b] for b in range(len(partners)) if mask >> b & 1))
            ranks = [14 if as_high and i == 0 else _RANK[c] for i, c in enumerate(cards)]
            lo, hi = min(ranks), max(ranks)
            if hi - lo + 1 > MAX_PIECE:
                continue
            need = max(3, hi - lo + 1) - len(cards)
            out.append((need, ("run", cards, need, lo)))
    out.sort(key=lambda c: c[0])
    return tuple(out)


def _place_wilds(pieces: list[_Piece], wilds: list[str], ace_high: bool) -> list[tuple[str, ...]]:
    """Turn the chosen pieces into written melds: each takes the wilds it needs; the spare wilds join
    the first meld (T13-32: any number of wilds per meld). Runs are written in rank order."""
    spare = list(wilds)
    taken: list[list[str]] = []
    for piece in pieces:
        taken.append([spare.pop() for _ in range(piece[2])])
    # Spare wilds: an all-wild meld when there are 3+, else onto a set (no size limit), else onto
    # the first run (a piece spans at most 5, so 2 more cards keep it well under 13).
    home = None
    if 0 < len(spare) < 3:
        home = next((i for i, p in enumerate(pieces) if p[0] == "set"), 0)
    melds: list[tuple[str, ...]] = [tuple(spare)] if len(spare) >= 3 else []
    for i, (piece, own) in enumerate(zip(pieces, taken, strict=True)):
        extra = spare if i == home else []
        kind, cards, _, lo = piece
        if kind == "set":
            melds.append(tuple(sorted(cards, key=lambda c: suit_of(c)) + own + extra))
        else:
            melds.append(_write_run(cards, own + extra, lo, ace_high))
    return melds


def _write_run(cards: tuple[str, ...], wilds: list[str], lo: int, ace_high: bool) -> tuple[str, ...]:
    """Naturals at their ranks, wilds in the gaps then at the ends (within A..K, or 2..A)."""
    high_reading = lo > 1 and any(rank_of(c) == 1 for c in cards)
    by_pos = {(14 if high_reading and rank_of(c) == 1 else rank_of(c)): c for c in cards}
    length = max(len(cards) + len(wilds), 3)
    top = 14 if high_reading else 13
    bottom = 2 if high_reading else 1
    start = min(lo, top - length + 1)
    start = max(start, bottom)
    out: list[str] = []
    pool = list(wilds)
    for pos in range(start, start + length):
        out.append(by_pos[pos] if pos in by_pos else pool.pop())
    return tuple(out + pool)  # a 14th card only when a run is longer than 13 (never in play)
