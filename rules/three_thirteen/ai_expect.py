"""Expected deadwood after one more draw from the cards a seat has not seen (Three-Thirteen AIs).

Removing a loose card c from the best arrangement leaves exactly D - value(c), so one exact search
per unseen card type on the whole hand serves every candidate discard; only the draws that meld a
candidate need a search of their own (memoised in `deadwood`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.core.cards import JOKER, RANKS, SUITS
from rules.three_thirteen.ai_basics import near
from rules.three_thirteen.deadwood import arrange, card_value, deadwood, is_wild, rank_of

_TYPES = tuple(f"{r}{s}" for r in RANKS for s in SUITS)


def unseen(view: dict[str, Any], elsewhere: Counter[str] | None = None) -> list[tuple[str, int]]:
    """Card types this seat has not seen, with the copies left: both decks (and jokers) less the own
    hand and the top discard (or, when given, the cards `elsewhere`: known out of the stock, the top
    discard among them). Wild-rank cards all act alike (T13-35), so they form one entry."""
    wild = view["wild_rank"]
    seen = Counter(view["hand"])
    top = view["discard_top"]
    if elsewhere is not None:
        seen.update(elsewhere)
    elif top is not None:
        seen[top] += 1
    out: list[tuple[str, int]] = []
    wild_rep, wild_left = "", 0
    for t in _TYPES:
        left = 2 - seen[t]
        if left <= 0:
            continue
        if rank_of(t) == wild:
            wild_rep = wild_rep or t
            wild_left += left
        else:
            out.append((t, left))
    if wild_left:
        out.append((wild_rep, wild_left))
    jokers = view["jokers"] - seen[JOKER]
    if jokers > 0:
        out.append((JOKER, jokers))
    return out


class HandPlus:
    """A hand with its best arrangement, answering 'deadwood and loose cards of hand + y' cheaply:
    a natural with nothing near it (and fewer than two wilds in hand) just joins the loose cards."""

    def __init__(self, cards: list[str], wild: int, ace_high: bool) -> None:
        self.cards, self.wild, self.ace_high = cards, wild, ace_high
        arr = arrange(cards, wild, ace_high)
        self.deadwood, self.loose = arr.deadwood, list(arr.deadwood_cards)
        self.naturals = [c for c in cards if not is_wild(c, wild)]
        self.few_wilds = len(cards) - len(self.naturals) < 2
        self.ranks = {rank_of(c) for c in self.naturals}

    def plus(self, y: str) -> tuple[int, list[str]]:
        if self.few_wilds and not is_wild(y, self.wild) and rank_of(y) not in self.ranks \
                and not any(near(y, c) for c in self.naturals):
            return self.deadwood + card_value(y, self.wild, self.ace_high), [*self.loose, y]
        arr = arrange([*self.cards, y], self.wild, self.ace_high)
        return arr.deadwood, list(arr.deadwood_cards)


def after_best_discard(total: int, loose: list[str], wild: int, ace_high: bool,
                        barred: str | None = None, cards: list[str] | None = None) -> int:
    """Deadwood after throwing the costliest loose card (exact for that card, T13-37). With no loose
    card to throw, a card must leave a meld: free from a meld of 4+, else searched (`cards`)."""
    best = -1
    for c in loose:
        if c == barred:
            continue
        v = card_value(c, wild, ace_high)
        if v > best:
            best = v
    if best >= 0:
        return total - best
    return _break_meld(cards, wild, ace_high, barred) if cards is not None else total


def _break_meld(cards: list[str], wild: int, ace_high: bool, barred: str | None) -> int:
    """Least deadwood after discarding one card of a hand with no loose card to throw."""
    arr = arrange(cards, wild, ace_high)
    if any(len(m) >= 4 for m in arr.melds) and barred is None:
        return arr.deadwood
    best = None
    for d in sorted(set(cards)):
        if d == barred:
            continue
        rest = list(cards)
        rest.remove(d)
        v = deadwood(rest, wild, ace_high)
        if best is None or v < best:
            best = v
            if v == arr.deadwood:
                break
    return best if best is not None else arr.deadwood


def stock_expectation(view: dict[str, Any], unseen: list[tuple[str, int]]) -> float:
    """Expected deadwood after drawing from the stock and throwing the costliest loose card."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = HandPlus(list(view["hand"]), wild, ace_high)
    acc = weight = 0.0
    for y, w in unseen:
        total, loose = hand.plus(y)
        acc += w * after_best_discard(total, loose, wild, ace_high, cards=[*hand.cards, y])
        weight += w
    return acc / weight if weight else float(view["deadwood"])


def expected_discards(hand_cards: list[str], candidates: list[str], unseen: list[tuple[str, int]],
                       wild: int, ace_high: bool, out_value: float = 0.0) -> dict[str, float]:
    """For each candidate discard c: the expected deadwood of (hand - c) after one more draw from
    the unseen cards and the best discard then; a draw that lets the hand go out counts `out_value`
    instead of its zero (below zero: going out ends the round on the opponents' deadwood). One search per unseen card on the whole hand; a
    candidate that stays loose there costs nothing more (removing a loose card cuts exactly its value),
    only the draws that meld the candidate need their own search."""
    hand = HandPlus(hand_cards, wild, ace_high)
    acc = dict.fromkeys(candidates, 0.0)
    weight = 0.0
    values = {c: card_value(c, wild, ace_high) for c in candidates}
    for y, w in unseen:
        total, loose = hand.plus(y)
        weight += w
        for c in candidates:
            if c in loose:
                rest = list(loose)
                rest.remove(c)
                if rest:
                    f = after_best_discard(total - values[c], rest, wild, ace_high)
                else:
                    kept = list(hand_cards)
                    kept.remove(c)
                    f = after_best_discard(total - values[c], rest, wild, ace_high, cards=[*kept, y])
            else:
                kept = list(hand_cards)
                kept.remove(c)
                kept.append(y)
                arr = arrange(kept, wild, ace_high)
                f = after_best_discard(arr.deadwood, list(arr.deadwood_cards), wild, ace_high, cards=kept)
            acc[c] += w * (f if f else out_value)
    return {c: acc[c] / weight for c in candidates} if weight else dict.fromkeys(candidates, 0.0)
