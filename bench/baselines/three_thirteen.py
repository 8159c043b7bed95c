"""A competent Three-Thirteen player written from the rules (shared rules three_thirteen.md), for the ladder.

One-ply expectation, from the seat's view only:
- draw: take the top discard when the deadwood it leaves (after the best discard) is lower than the
  expected deadwood of a stock draw, the expectation running over every card this seat has not
  seen (the full deck less its hand and the cards lying in the discard pile, read from the public
  pile record);
- discard: the card whose removal leaves the least deadwood (T13-37, the engine's own count);
  among equals (up to three, the ones with the fewest unseen partners first), the one leaving the
  hand whose expected deadwood after the next stock draw is lowest. Wilds are kept unless throwing
  one is strictly better.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.core.cards import card_deck
from rules.core.engine import Action
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.deadwood import arrange, card_value, deadwood, is_wild, rank_of, suit_of


def unseen_cards(view: dict[str, Any]) -> Counter[str]:
    """Every card this seat has not seen where it lies now: the deck less its hand and the discard pile."""
    pile: list[str] = []
    for _seat, kind, card in view.get("pile_log", []):
        if kind in ("up", "rebuild"):
            pile = [card]
        elif kind == "discard":
            pile.append(card)
        elif kind == "take" and pile:
            pile.pop()
    unseen = Counter(card_deck(decks=2, jokers=view.get("jokers", 0)))
    unseen.subtract(view["hand"])
    unseen.subtract(pile)
    return +unseen

DISCARD_LOOKAHEAD = 3  # equal discards compared by the expected next draw (the likeliest by card partners)


class _Hand:
    """Deadwood questions about one hand in one round, each asked once."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.wild: int = view["wild_rank"]
        self.ace_high: bool = view.get("ace_high", False)
        self.cache: dict[tuple[str, ...], int] = {}

    def dead(self, cards: list[str]) -> int:
        key = tuple(sorted(cards))
        if key not in self.cache:
            self.cache[key] = deadwood(key, self.wild, self.ace_high)
        return self.cache[key]

    def best_discard(self, cards: list[str], forbid: str | None) -> tuple[int, list[str]]:
        """The least deadwood after one discard, and the cards reaching it.

        Exact with few counts: with D the hand's deadwood, throwing a card of value v leaves at
        least D - v, and exactly D - v for a card left over in the best arrangement; so only the
        melded cards worth more than the best found so far need counting."""
        counts = Counter(cards)
        arr = arrange(cards, self.wild, self.ace_high)
        whole = arr.deadwood

        def allowed(card: str) -> bool:
            return card != forbid or counts[card] >= 2  # T13-22: the card just taken, unless another copy is held

        value = {c: card_value(c, self.wild, self.ace_high) for c in counts}
        found: dict[str, int] = {c: whole - value[c] for c in set(arr.deadwood_cards) if allowed(c)}
        best = min(found.values(), default=10**9)
        for card in sorted((c for c in counts if c not in found and allowed(c)), key=lambda c: -value[c]):
            if whole - value[card] > best:
                break
            rest = list(cards)
            rest.remove(card)
            found[card] = self.dead(rest)
            best = min(best, found[card])
        return best, sorted(c for c, d in found.items() if d == best)

    def connected(self, card: str, hand: list[str]) -> bool:
        """Whether `card` could join a meld with some cards of `hand` (else it can only be deadwood)."""
        if is_wild(card, self.wild):
            return True
        wilds = sum(is_wild(c, self.wild) for c in hand)
        if wilds >= 2:
            return True
        r, s = rank_of(card), suit_of(card)
        for c in hand:
            if is_wild(c, self.wild):
                continue
            if rank_of(c) == r:
                return True
            if suit_of(c) == s:
                gap = abs(rank_of(c) - r)
                if self.ace_high and 1 in (r, rank_of(c)):
                    gap = min(gap, abs((14 if r == 1 else r) - (14 if rank_of(c) == 1 else rank_of(c))))
                if gap <= 2 + wilds:
                    return True
        return False

    def expected_draw(self, hand: list[str], unseen: Counter[str]) -> float:
        """Expected deadwood after a stock draw and the best discard that follows."""
        total = sum(unseen.values())
        if not total:
            return float(self.dead(hand))
        keep = self.dead(hand)
        without = min(self.dead([c for j, c in enumerate(hand) if j != i]) for i in range(len(hand)))
        acc = 0.0
        for card, n in unseen.items():
            if self.connected(card, hand):
                value = self.best_discard([*hand, card], None)[0]
            else:
                value = min(keep, card_value(card, self.wild, self.ace_high) + without)
            acc += n * value
        return acc / total

    def partners(self, card: str, hand: list[str], unseen: Counter[str]) -> float:
        """How many unseen cards would work with `card`: same rank, or same suit within two ranks."""
        if is_wild(card, self.wild):
            return float("inf")
        r, s = rank_of(card), suit_of(card)
        score = 0.0
        for other, n in unseen.items():
            if is_wild(other, self.wild):
                continue
            if rank_of(other) == r:
                score += n
            elif suit_of(other) == s and abs(rank_of(other) - r) <= 2:
                score += n / abs(rank_of(other) - r)
        score += 3 * sum(1 for c in hand if c != card and not is_wild(c, self.wild)
                         and (rank_of(c) == r or (suit_of(c) == s and abs(rank_of(c) - r) <= 2)))
        return score


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    hand: list[str] = list(view["hand"])
    h = _Hand(view)
    unseen = unseen_cards(view)
    if view["phase"] == "draw":
        top = view.get("discard_top")
        if top is None:
            return DrawStock()
        if not view.get("can_draw_stock", True):
            return TakeDiscard()
        take = h.best_discard([*hand, top], top)[0]
        # A stock draw never leaves more than the hand's deadwood now (the drawn card can go back),
        # so a take that does not beat that is never better.
        if take < h.dead(hand) and take < h.expected_draw(hand, unseen):
            return TakeDiscard()
        return DrawStock()
    taken = view.get("taken")
    _best, choices = h.best_discard(hand, taken)
    ranked = sorted(choices, key=lambda c: (h.partners(c, hand, unseen), -card_value(c, h.wild, h.ace_high), c))
    if len(ranked) == 1 or view.get("last_turns_left") is not None:
        return Discard(card=ranked[0])  # a last turn: only the deadwood now counts
    # Among the equal discards, the one whose hand expects the least deadwood after the next draw.
    def after_next_draw(card: str) -> float:
        rest = list(hand)
        rest.remove(card)
        return h.expected_draw(rest, unseen)

    return Discard(card=min(ranked[:DISCARD_LOOKAHEAD], key=after_next_draw))
