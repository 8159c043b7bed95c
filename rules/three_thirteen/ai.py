"""Three-Thirteen AI and a greedy baseline; both decide from one seat's view only.

Rounds are short (a 4-player round lasts about four turns each), so holding cards costs more than
it promises. Variants that kept pairs and near-runs at the price of higher deadwood, that took an
unmelded low card from the pile (even on a last turn), or that played for going out next turn all
lost to plain deadwood greed over 200-400 seeded matches. The AI is therefore deadwood-first, with
the choices greed leaves open made on purpose:
- discard: go out whenever a discard leaves zero deadwood (T13-23); else throw the loose natural
  worth most (never a wild while another card will do: wilds meld anything); among equal values,
  keep the card whose loose partners have more live completing cards (`_promise`), then throw the
  card fewer runs can use (a K before a 10);
- draw: take a wild or joker always; take another top card only when it melds in the best
  arrangement of hand + card and the best discard after it leaves less deadwood than now;
  otherwise draw from the stock (and take the pile when the stock cannot be rebuilt, T13-26).
Removing a loose card c from the best arrangement leaves exactly D - value(c), so scoring a discard
costs no search; a decision costs at most one or two exact deadwood searches (memoised), and a hand
card with nothing near it needs none.

The greedy baseline takes the pile only for a wild or an immediate deadwood cut (the top card in a
meld), and discards the highest-value loose card (ties by card name).
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.engine import Action
from rules.three_thirteen.actions import Discard, DrawStock, TakeDiscard
from rules.three_thirteen.deadwood import arrange, card_value, deadwood, fully_melded, is_wild, rank_of

PROMISE = 0.001  # weight of `_promise`: a tie-break between discards of equal value
STOCK_HOPE = 0  # points a pile card must gain beyond the best stock-free discard
NEAR_TIE = 0  # discards within this many points of the best count as tied


def _discardable(view: dict[str, Any]) -> list[str]:
    """Cards the rules let this seat discard now (T13-22: not the card just taken, unless a copy)."""
    hand = view["hand"]
    taken = view["taken"]
    return [c for c in hand if c != taken or hand.count(c) > 1]


def _going_out(view: dict[str, Any]) -> str | None:
    """A discard that leaves zero deadwood, the most valuable such card first.

    Removing card c leaves at least D - value(c) (put c back as a loose card), and exactly that when
    c is loose in the best arrangement; so only cards worth at least D can go out, and a loose one
    only when it is worth exactly D.
    """
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand, total, loose = view["hand"], view["deadwood"], view["deadwood_cards"]
    options = sorted(set(_discardable(view)), key=lambda c: -card_value(c, wild, ace_high))
    for card in options:
        value = card_value(card, wild, ace_high)
        if value < total:
            break
        if card in loose and value == total:
            return card
    for card in options:
        if card_value(card, wild, ace_high) < total:
            break
        if card in loose:
            continue
        rest = list(hand)
        rest.remove(card)
        if fully_melded(rest, wild, ace_high):
            return card
    return None


def _promise(loose: list[str], hand: list[str], view: dict[str, Any]) -> float:
    """What the loose cards may still shed: for each pair of loose naturals that one more card
    would meld (same rank; same suit one or two ranks apart), the copies of the completing cards
    not in this hand times the pair's value, plus the wilds not held times the best pair's value."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    top = 14 if ace_high else 13
    held: dict[tuple[int, str], int] = {}
    held_rank: dict[int, int] = {}
    wilds_held = 0
    for c in hand:
        if is_wild(c, wild):
            wilds_held += 1
            continue
        r = rank_of(c)
        held[(r, c[-1])] = held.get((r, c[-1]), 0) + 1
        held_rank[r] = held_rank.get(r, 0) + 1
    naturals = [(rank_of(c), c[-1], card_value(c, wild, ace_high)) for c in loose if not is_wild(c, wild)]
    total = 0.0
    best_pair = 0
    for i, (r, s, v) in enumerate(naturals):
        for r2, s2, v2 in naturals[i + 1 :]:
            if r == r2:
                outs = 8 - held_rank.get(r, 0)
            elif s == s2 and 0 < abs(r - r2) <= 2:
                lo, hi = min(r, r2), max(r, r2)
                ranks = [lo + 1] if hi - lo == 2 else [lo - 1, hi + 1]
                outs = sum(2 - held.get((k if k != 14 else 1, s), 0) for k in ranks if 1 <= k <= top and k != wild)
            else:
                continue
            total += outs * (v + v2)
            best_pair = max(best_pair, v + v2)
    jokers = view["jokers"]
    total += (8 + jokers - wilds_held) * best_pair
    return total


def _best_discard(hand: list[str], hand_total: int, loose: list[str], allowed: set[str], view: dict[str, Any],
                  weight: float) -> tuple[float, str] | None:
    """The loose natural whose discard leaves the least deadwood, with that deadwood; ties go to
    the discard that keeps more promise (`weight` > 0), then to the card fewer runs can use."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    options = [(hand_total - card_value(c, wild, ace_high), c) for c in sorted(set(loose))
               if c in allowed and not is_wild(c, wild)]
    if not options:
        return None
    low = min(score for score, _ in options)
    tied = [c for score, c in options if score <= low + NEAR_TIE]
    if len(tied) == 1:
        return (low, tied[0])

    def key(card: str) -> tuple[float, int, str]:
        lost = 0.0
        if weight:
            rest, kept = list(loose), list(hand)
            rest.remove(card)
            kept.remove(card)
            lost = -_promise(rest, kept, view)
        return (lost, _run_windows(card, ace_high), card)

    pick = min(tied, key=key)
    return (hand_total - card_value(pick, wild, ace_high), pick)


def _run_windows(card: str, ace_high: bool) -> int:
    """How many 3-card runs can hold this rank (K: 1, Q: 2, 3..J: 3; aces 1, or 2 with ace_high)."""
    r = rank_of(card)
    top = 14 if ace_high else 13
    spots = [r] + ([14] if ace_high and r == 1 else [])
    return sum(1 for p in spots for start in range(p - 2, p + 1) if start >= 1 and start + 2 <= top)


def _near(card: str, other: str) -> bool:
    """Could share a meld without two wilds: same rank, or same suit within a 5-rank window."""
    r, o = rank_of(card), rank_of(other)
    if r == o:
        return True
    if card[-1] != other[-1]:
        return False
    return abs(r - o) < 5 or (r == 1 and o > 9) or (o == 1 and r > 9)


def _with_card(view: dict[str, Any], card: str) -> tuple[int, list[str]]:
    """Deadwood and loose cards of the hand plus `card`. When the card cannot meld with anything in
    the hand (nothing near it, fewer than two wilds), it simply joins the loose cards: no search."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = view["hand"]
    naturals = [c for c in hand if not is_wild(c, wild)]
    if len(hand) - len(naturals) < 2 and not any(_near(card, c) for c in naturals):
        return view["deadwood"] + card_value(card, wild, ace_high), [*view["deadwood_cards"], card]
    arr = arrange([*hand, card], wild, ace_high)
    return arr.deadwood, list(arr.deadwood_cards)


def _weight(view: dict[str, Any]) -> float:
    return 0 if view["out"] is not None else PROMISE


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    wild = view["wild_rank"]
    weight = _weight(view)
    if view["phase"] == "draw":
        top = view["discard_top"]
        if not view["can_draw_stock"]:
            return TakeDiscard()
        if top is None:
            return DrawStock()
        if is_wild(top, wild):
            return TakeDiscard()
        total, loose = _with_card(view, top)
        if top in loose:
            return DrawStock()  # an unmelded pile card is worse than a fresh chance at a meld
        allowed = set(view["hand"])  # the top card itself only if a copy is already held (T13-22)
        after = _best_discard([*view["hand"], top], total, loose, allowed, view, 0)
        if after is None:  # every loose card is the top card or a wild: keeping it cannot help
            return DrawStock()
        now = view["deadwood"]
        hope = STOCK_HOPE if view["out"] is None else 0
        return TakeDiscard() if after[0] < now - hope else DrawStock()
    out = _going_out(view)
    if out is not None:
        return Discard(card=out)
    allowed = set(_discardable(view))
    best = _best_discard(view["hand"], view["deadwood"], view["deadwood_cards"], allowed, view, weight)
    if best is not None:
        return Discard(card=best[1])
    return Discard(card=_fallback(view, allowed))


def choose_greedy_action(view: dict[str, Any], rng: Random) -> Action:
    """The baseline: pile only for a wild or an immediate deadwood cut; discard the costliest loose card."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    if view["phase"] == "draw":
        top = view["discard_top"]
        take = top is not None and (is_wild(top, wild) or _immediate_cut(view))
        return TakeDiscard() if take or not view["can_draw_stock"] else DrawStock()
    out = _going_out(view)
    if out is not None:
        return Discard(card=out)
    allowed = set(_discardable(view))
    loose = [c for c in view["deadwood_cards"] if c in allowed and not is_wild(c, wild)]
    if loose:
        return Discard(card=max(loose, key=lambda c: (card_value(c, wild, ace_high), c)))
    return Discard(card=_fallback(view, allowed))


def _immediate_cut(view: dict[str, Any]) -> bool:
    """The top card melds in the best arrangement of hand + top, and throwing the costliest loose
    card afterwards leaves less deadwood than now."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    top = view["discard_top"]
    total, loose = _with_card(view, top)
    if top in loose:
        return False
    worst = max((card_value(c, wild, ace_high) for c in loose), default=0)
    return total - worst < view["deadwood"]


def _fallback(view: dict[str, Any], allowed: set[str]) -> str:
    """No loose natural to throw: the card whose loss hurts least (exact deadwood of what is kept)."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = view["hand"]

    def after(card: str) -> tuple[int, int, str]:
        rest = list(hand)
        rest.remove(card)
        return (deadwood(rest, wild, ace_high), is_wild(card, wild), card)

    return min(sorted(allowed), key=after)
