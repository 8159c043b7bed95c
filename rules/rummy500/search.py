"""Placement search shared by the view's market preview and the AI.

`candidates` lists placements a hand could make on a table (base sets, base runs, run extensions,
4th cards, branch runs), jokers filling gaps within the ratio rule (R500-46). It skips burned cards
but does not check joker consistency; `legal` confirms a placement with the engine's own `place`
on a copy of the table, so the search can never disagree with the rules.
"""

from __future__ import annotations

import marshal
from collections.abc import Collection, Iterable, Sequence
from itertools import combinations

from rules.core.cards import JOKER, SUITS
from rules.core.errors import IllegalAction
from rules.rummy500.melds import Struct, card_at, place, rank_of, rank_value, suit_of

Placement = tuple[tuple[str, ...], int | None, int]  # (cards as written, structure ID or None, value)


def _chain(ranks: set[int], suit: str, start: int, step: int, jokers: int) -> Iterable[list[str]]:
    """Consecutive cards from `start` in direction `step` (+1 up, -1 down), jokers filling gaps,
    yielded in ascending order for every length that keeps jokers <= naturals."""
    cards: list[str] = []
    used = 0
    r = start
    while 1 <= r <= 13:
        if r in ranks:
            cards.append(card_at(r, suit))
        else:
            if used == jokers:
                return
            used += 1
            cards.append(JOKER)
        naturals = len(cards) - used
        if used <= naturals:
            yield cards[::-1] if step < 0 else list(cards)
        r += step


def candidates(hand: Sequence[str], table: Sequence[Struct], burned: Collection[str]) -> list[Placement]:
    """Placements the cards of `hand` could make (not yet checked for joker consistency)."""
    jokers = sum(1 for c in hand if c == JOKER)
    naturals = [c for c in hand if c != JOKER and c not in burned]
    by_suit: dict[str, set[int]] = {s: set() for s in SUITS}
    by_rank: dict[int, list[str]] = {}
    for c in naturals:
        by_suit[suit_of(c)].add(rank_of(c))
        by_rank.setdefault(rank_of(c), []).append(c)
    out: list[Placement] = []
    # Base sets (R500-41): 3-4 naturals, or 2-3 naturals plus jokers up to 4 cards.
    for r, cards in by_rank.items():
        for size in range(2, min(4, len(cards)) + 1):
            for combo in combinations(cards, size):
                for extra in range(0, min(jokers, 4 - size, size) + 1):
                    if size + extra >= 3:
                        out.append(((*combo, *[JOKER] * extra), None, rank_value(r) * (size + extra)))
    # Base runs: every window of 3+ ranks, jokers filling at most min(jokers, naturals) holes.
    for suit, ranks in by_suit.items():
        if len(ranks) < 2 or (len(ranks) < 3 and not jokers):
            continue  # a run of 3+ needs at least 2 naturals (jokers <= naturals)
        starts = {a - k for a in ranks for k in range(min(jokers, 2) + 1) if a - k >= 1}
        for a in sorted(starts):
            for cards in _chain(ranks, suit, a, 1, jokers):
                if len(cards) >= 3:
                    out.append((tuple(cards), None, sum(rank_value(a + i) for i in range(len(cards)))))
    # Extensions and set completions.
    for s in table:
        if s["kind"] == "run":
            high = s["low"] + len(s["cards"]) - 1
            ranks = by_suit[s["suit"]]
            for cards in _chain(ranks, s["suit"], high + 1, 1, jokers):
                out.append((tuple(cards), s["id"], sum(rank_value(high + 1 + i) for i in range(len(cards)))))
            for cards in _chain(ranks, s["suit"], s["low"] - 1, -1, jokers):
                low = s["low"] - len(cards)
                out.append((tuple(cards), s["id"], sum(rank_value(low + i) for i in range(len(cards)))))
        elif len(s["cards"]) == 3:
            present = {suit_of(c) for c in s["cards"] if c != JOKER}
            for c in by_rank.get(s["rank"], []):
                if suit_of(c) not in present:
                    out.append(((c,), s["id"], rank_value(s["rank"])))
        elif s["base"] == 3 and s["branch"] is None:
            anchor = s["cards"][3]
            r, suit = rank_of(anchor), suit_of(anchor)
            ranks = by_suit[suit]
            for cards in _chain(ranks, suit, r + 1, 1, jokers):
                out.append((tuple(cards), s["id"], sum(rank_value(r + 1 + i) for i in range(len(cards)))))
            for cards in _chain(ranks, suit, r - 1, -1, jokers):
                out.append((tuple(cards), s["id"], sum(rank_value(r - len(cards) + i) for i in range(len(cards)))))
    return out


def copy_table(table: Sequence[Struct]) -> list[Struct]:
    return marshal.loads(marshal.dumps(list(table)))


def legal(table: Sequence[Struct], placement: Placement, seat: int = 0) -> list[Struct] | None:
    """The table after the placement if the rules accept it (consistency included), else None."""
    trial = copy_table(table)
    try:
        place(trial, placement[0], placement[1], seat, 10_000)
    except IllegalAction:
        return None
    return trial


def could_lay(target: str, pool: Sequence[str], table: Sequence[Struct]) -> bool:
    """A cheap necessary condition for `target_placements` to find something: a card of the same
    rank, a near card of the same suit, or a structure the target could continue."""
    r, s = rank_of(target), suit_of(target)
    reach = 1 + min(2, sum(1 for c in pool if c == JOKER))
    for c in pool:
        if c in (JOKER, target):
            continue
        if rank_of(c) == r or (suit_of(c) == s and abs(rank_of(c) - r) <= reach):
            return True
    for st in table:
        if st["kind"] == "run":
            if st["suit"] == s and (st["low"] - reach <= r <= st["low"] + len(st["cards"]) - 1 + reach):
                return True
        elif st["rank"] == r or (len(st["cards"]) == 4 and suit_of(st["cards"][3]) == s):
            return True
    return False


def target_placements(target: str, pool: Sequence[str], table: Sequence[Struct], burned: Collection[str]) -> list[Placement]:
    """Legal placements that lay `target` using `pool` (which holds it)."""
    if not could_lay(target, pool, table):
        return []
    found = []
    for p in candidates(pool, table, burned):
        if target in p[0] and legal(table, p) is not None:
            found.append(p)
    return found
