"""Three-Thirteen AI and a greedy baseline; both decide from one seat's view only.

The AI (`choose_action`) plays for the expected deadwood after its next draw. Whatever happens,
a seat that does not go out gets at least one more turn (the last turns, T13-25), so "deadwood after
one more draw from the unseen cards and the best discard then" is its score if the round ends before
that turn, and a sound guide otherwise:
- unseen cards: both decks (and the jokers) less the own hand and the top discard, by copies left;
  the view shows nothing else (the pile below the top and the other hands are hidden, T13-05);
- discard: go out whenever a discard leaves zero deadwood (T13-23); else, among the loose naturals
  (never a wild: wilds meld anything), throw the one whose hand has the least expected deadwood
  after one more draw (`_expected_discards`): this keeps cards with many live outs (pairs, near
  runs) when they are cheap enough, and throws them when they are not. On a last turn only the
  deadwood now counts, and after taking the top discard the AI makes the discard the take was judged
  by (so every take cuts its deadwood: pile-only play cannot cycle);
- draw: take a wild or joker always; take another top card when the deadwood after taking it and
  the best discard (of a loose natural) is below the expected deadwood after a stock draw (`_stock_expectation`);
  otherwise draw from the stock (and take the pile when the stock cannot be rebuilt, T13-26).
Removing a loose card c from the best arrangement leaves exactly D - value(c), so one exact search
per unseen card type on the whole hand serves every candidate discard; only the draws that meld a
candidate need a search of their own (memoised in `deadwood`). A decision costs ~1 ms median,
~13 ms p95, ~55 ms max over all-AI 4-player matches (bench, 2-core Linux x86_64, CPython 3.11).

Over 200 seeded 4-player matches (2 AI + 2 greedy seats) the AI averages 89.8 per match total
against greedy's 95.9; paired against greedy-vs-greedy on the same seeds, the AI side scores
8.1 +/- 3.1 (95%) points less (bench). Weighting the deadwood now half against the expectation
(ALPHA 0.5) did worse (-4.9 +/- 2.9); weighting the expectation more (ALPHA -0.5) gave -9.5 +/- 3.7,
not distinguishable from ALPHA 0, which stays as the simpler rule.
The previous deadwood-first AI (`choose_deadwood_first_action`, greed with tie-breaks) did not beat
greedy measurably; it stays for comparison.

The greedy baseline takes the pile only for a wild or an immediate deadwood cut (the top card in a
meld), and discards the highest-value loose card (ties by card name).
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.core.cards import JOKER, RANKS, SUITS
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


def choose_deadwood_first_action(view: dict[str, Any], rng: Random) -> Action:
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


# ---- expected deadwood after one more draw -------------------------------------------------------

_TYPES = tuple(f"{r}{s}" for r in RANKS for s in SUITS)
ALPHA = 0.0  # weight of the current deadwood against the expected deadwood after the next draw
TAKE_MARGIN = 0.0  # points the pile card must beat the expected stock draw by


def _unseen(view: dict[str, Any]) -> list[tuple[str, int]]:
    """Card types this seat has not seen, with the copies left: both decks (and jokers) less the own
    hand and the top discard. Wild-rank cards all act alike (T13-35), so they form one entry."""
    wild = view["wild_rank"]
    seen = Counter(view["hand"])
    top = view["discard_top"]
    if top is not None:
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


class _Hand:
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
                and not any(_near(y, c) for c in self.naturals):
            return self.deadwood + card_value(y, self.wild, self.ace_high), [*self.loose, y]
        arr = arrange([*self.cards, y], self.wild, self.ace_high)
        return arr.deadwood, list(arr.deadwood_cards)


def _after_best_discard(total: int, loose: list[str], wild: int, ace_high: bool,
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


def _stock_expectation(view: dict[str, Any], unseen: list[tuple[str, int]]) -> float:
    """Expected deadwood after drawing from the stock and throwing the costliest loose card."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = _Hand(list(view["hand"]), wild, ace_high)
    acc = weight = 0.0
    for y, w in unseen:
        total, loose = hand.plus(y)
        acc += w * _after_best_discard(total, loose, wild, ace_high, cards=[*hand.cards, y])
        weight += w
    return acc / weight if weight else float(view["deadwood"])


def _expected_discards(hand_cards: list[str], candidates: list[str], unseen: list[tuple[str, int]],
                       wild: int, ace_high: bool) -> dict[str, float]:
    """For each candidate discard c: the expected deadwood of (hand - c) after one more draw from
    the unseen cards and the best discard then. One search per unseen card on the whole hand; a
    candidate that stays loose there costs nothing more (removing a loose card cuts exactly its value),
    only the draws that meld the candidate need their own search."""
    hand = _Hand(hand_cards, wild, ace_high)
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
                    f = _after_best_discard(total - values[c], rest, wild, ace_high)
                else:
                    kept = list(hand_cards)
                    kept.remove(c)
                    f = _after_best_discard(total - values[c], rest, wild, ace_high, cards=[*kept, y])
            else:
                kept = list(hand_cards)
                kept.remove(c)
                kept.append(y)
                arr = arrange(kept, wild, ace_high)
                f = _after_best_discard(arr.deadwood, list(arr.deadwood_cards), wild, ace_high, cards=kept)
            acc[c] += w * f
    return {c: acc[c] / weight for c in candidates} if weight else dict.fromkeys(candidates, 0.0)


def _plan_discard(view: dict[str, Any], unseen: list[tuple[str, int]]) -> str | None:
    wild, ace_high = view["wild_rank"], view["ace_high"]
    allowed = set(_discardable(view))
    total = view["deadwood"]
    loose = sorted({c for c in view["deadwood_cards"] if c in allowed and not is_wild(c, wild)})
    if not loose:
        return None
    now = {c: total - card_value(c, wild, ace_high) for c in loose}
    # A last turn: only the deadwood now counts. After taking the top discard: the discard that the
    # take was judged by, so every take cuts the deadwood and pile-only play cannot cycle.
    if view["out"] is not None or view["taken"] is not None or len(loose) == 1:
        return min(loose, key=lambda c: (now[c], _run_windows(c, ace_high), c))
    expect = _expected_discards(list(view["hand"]), loose, unseen, wild, ace_high)
    return min(loose, key=lambda c: (ALPHA * now[c] + (1 - ALPHA) * expect[c], now[c], c))


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    wild, ace_high = view["wild_rank"], view["ace_high"]
    if view["phase"] == "draw":
        top = view["discard_top"]
        if not view["can_draw_stock"]:
            return TakeDiscard()
        if top is None:
            return DrawStock()
        if is_wild(top, wild):
            return TakeDiscard()
        total, loose = _with_card(view, top)
        barred = top if view["hand"].count(top) == 0 else None
        naturals = [c for c in loose if not is_wild(c, wild)]  # the discards `_plan_discard` weighs
        if loose and not naturals:
            return DrawStock()
        take = _after_best_discard(total, naturals, wild, ace_high, barred, cards=[*view["hand"], top])
        if take >= view["deadwood"]:
            return DrawStock()
        stock = _stock_expectation(view, _unseen(view))
        return TakeDiscard() if take < stock - TAKE_MARGIN else DrawStock()
    out = _going_out(view)
    if out is not None:
        return Discard(card=out)
    pick = _plan_discard(view, _unseen(view))
    if pick is not None:
        return Discard(card=pick)
    return Discard(card=_fallback(view, set(_discardable(view))))
