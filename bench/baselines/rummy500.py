"""A competent Rummy 500 player written from the rules (shared rules rummy500.md), for the ladder.

From the seat's view only, checking every placement with the engine's own placement rules
(`rules.rummy500.melds.place` on a copy of the public table):
- take: the market only when the lays pay: a take is scored as the points it lets this seat lay
  now, less what its own hand could lay anyway, less the cards it brings in and cannot lay (they
  count against it at the round end); the best take is made when that is above zero, else the bank;
- lay: everything that scores, best placement first (new melds, extensions of anyone's runs and
  sets, jokers where they stand for a card), keeping a card to discard;
- discard: the loneliest card (burned cards first: nobody may lay them), then the costliest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from rules.core.engine import Action
from rules.core.errors import IllegalAction
from rules.rummy500 import melds
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeBank, TakeMarket

JOKER = "JK"
Table = list[dict[str, Any]]


@dataclass
class Plan:
    lays: list[Lay]
    value: int
    hand: list[str]


def _value(card: str) -> int:
    return 15 if card == JOKER else melds.card_value(card)


def _candidates(hand: Sequence[str]) -> list[tuple[tuple[str, ...], int | None]]:
    """Placements worth trying on a table of structure IDs `ids`: base sets and runs from the hand
    (with a joker filling one place), later completed by extensions (see `_extensions`)."""
    naturals = [c for c in hand if c != JOKER]
    jokers = len(hand) - len(naturals)
    out: list[tuple[tuple[str, ...], int | None]] = []
    by_rank: dict[int, list[str]] = {}
    by_suit: dict[str, list[str]] = {}
    for c in sorted(set(naturals), key=lambda c: (melds.rank_of(c), melds.suit_of(c))):
        by_rank.setdefault(melds.rank_of(c), []).append(c)
        by_suit.setdefault(melds.suit_of(c), []).append(c)
    for cards in by_rank.values():
        if len(cards) >= 3:
            out.append((tuple(cards), None))
            if len(cards) == 4:
                out.extend((tuple(c for c in cards if c != drop), None) for drop in cards)
        if len(cards) == 2 and jokers:
            out.append((tuple([*cards, JOKER]), None))
    for suit, cards in by_suit.items():
        ranks = sorted(melds.rank_of(c) for c in cards)
        have = set(ranks)
        for lo in ranks:
            for hi in range(lo + 2, 14):
                span = range(lo, hi + 1)
                gaps = [r for r in span if r not in have]
                if len(gaps) > min(jokers, (hi - lo + 1 - len(gaps))):
                    break
                out.append((tuple(melds.card_at(r, suit) if r in have else JOKER for r in span), None))
        if jokers:
            for lo in ranks:
                if lo + 1 in have and lo + 2 <= 13:
                    out.append(((melds.card_at(lo, suit), melds.card_at(lo + 1, suit), JOKER), None))
                if lo + 1 in have and lo - 1 >= 1:
                    out.append(((JOKER, melds.card_at(lo, suit), melds.card_at(lo + 1, suit)), None))
    return out


def _near(card: str, s: dict[str, Any], reach: int) -> bool:
    """Whether `card` could continue structure `s` within `reach` places (the rules then decide)."""
    r = melds.rank_of(card)
    if s["kind"] == "set":
        return r == s["rank"] or (s.get("branch") is None and len(s["cards"]) == 4 and abs(r - s["rank"]) <= reach)
    if melds.suit_of(card) != s["suit"]:
        return False
    low, high = s["low"], s["low"] + len(s["cards"]) - 1
    return low - reach <= r < low or high < r <= high + reach


def _extensions(hand: Sequence[str], table: Table) -> list[tuple[tuple[str, ...], int | None]]:
    naturals = sorted({c for c in hand if c != JOKER})
    out: list[tuple[tuple[str, ...], int | None]] = []
    for s in table:
        for c in naturals:
            if _near(c, s, 1):
                out.append(((c,), s["id"]))
            if JOKER in hand and _near(c, s, 2):
                out.append(((JOKER, c), s["id"]))
                out.append(((c, JOKER), s["id"]))
    return out


def _copy(table: Table) -> Table:
    return [dict(s, cards=list(s["cards"]), owners=list(s["owners"])) for s in table]


def _try(table: Table, cards: tuple[str, ...], on: int | None, seat: int) -> tuple[int, Table] | None:
    trial = _copy(table)
    next_id = max((s["id"] for s in trial), default=0) + 1
    try:
        value, _ = melds.place(trial, cards, on, seat, next_id)
    except IllegalAction:
        return None
    return value, trial


def plan_lays(hand: Sequence[str], table: Table, seat: int, keep_discard: bool, must: str | None = None) -> Plan:
    """Greedy placements, best value first; `must` (a market target) goes down in the first one."""
    hand = list(hand)
    table = _copy(table)
    lays: list[Lay] = []
    total = 0
    while True:
        best: tuple[int, tuple[str, ...], int | None, Table] | None = None
        for cards, on in _candidates(hand) + _extensions(hand, table):
            if must is not None and must not in cards:
                continue
            if Counter(cards) - Counter(hand):
                continue
            left = list(hand)
            for c in cards:
                left.remove(c)
            if keep_discard and left and all(c == JOKER for c in left):
                continue  # R500-24: a non-joker must stay for the discard
            tried = _try(table, cards, on, seat)
            if tried is None:
                continue
            # Value first; then fewer jokers spent for it.
            if best is None or (tried[0], -cards.count(JOKER)) > (best[0], -best[1].count(JOKER)):
                best = (tried[0], cards, on, tried[1])
        if best is None:
            return Plan(lays, total, hand)
        value, cards, on, table = best
        lays.append(Lay(cards=cards, on=on))
        total += value
        for c in cards:
            hand.remove(c)
        must = None
        if not hand:
            return Plan(lays, total, hand)


def _market_options(view: dict[str, Any]) -> list[tuple[int, str | None, list[str]]]:
    """(position, card left behind, cards taken) for every market take the rules allow."""
    market: list[str] = view["market"]
    burned = set(view.get("burned", []))
    out = []
    for p, target in enumerate(market, start=1):
        if target in burned:
            continue
        after = market[p:]
        leaves: list[str | None] = list(after) if after and view.get("market_leave_one", True) else [None]
        for leave in leaves:
            taken = [target] + [c for c in after if c != leave]
            out.append((p, leave, taken))
    return out


def _loneliness(card: str, hand: Sequence[str], burned: set[str]) -> tuple[int, int]:
    if card in burned:
        return (-100, -_value(card))
    r, s = melds.rank_of(card), melds.suit_of(card)
    partners = 0
    for c in hand:
        if c in (card, JOKER):
            continue
        if melds.rank_of(c) == r:
            partners += 2
        elif melds.suit_of(c) == s and abs(melds.rank_of(c) - r) <= 2:
            partners += 3 - abs(melds.rank_of(c) - r)
    return (partners, -_value(card))


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    seat: int = view["you"]
    hand: list[str] = list(view["hand"])
    table: Table = view["table"]
    phase = view["phase"]
    if phase == "take":
        own = plan_lays(hand, table, seat, keep_discard=True).value
        best: tuple[float, TakeMarket] | None = None
        for pos, leave, taken in _market_options(view):
            plan = plan_lays(hand + taken, table, seat, keep_discard=False, must=taken[0])
            if not plan.lays:
                continue
            stuck = sum(_value(c) for c in taken if c in plan.hand)
            gain = plan.value - own - stuck
            if best is None or gain > best[0]:
                best = (gain, TakeMarket(pos=pos, leave=leave, lays=tuple(plan.lays)))
        if view["bank"] == 0:
            return best[1] if best is not None and best[0] > -10 else Stop()
        if best is not None and best[0] > 0:
            return best[1]
        return TakeBank()
    if phase == "market":
        plan = plan_lays(hand, table, seat, keep_discard=False)
        return plan.lays[0] if plan.lays else End()
    plan = plan_lays(hand, table, seat, keep_discard=True)
    if plan.lays:
        return plan.lays[0]
    burned = set(view.get("burned", []))
    naturals = [c for c in hand if c != JOKER]
    return Discard(card=min(naturals, key=lambda c: (_loneliness(c, hand, burned), c)))
