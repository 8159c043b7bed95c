"""How likely the next seat is to take a card from the pile, from the public record alone.

The next seat's hand is hidden (T13-05), but every player saw what it took from the pile and still
holds, what it threw and what it passed over (`pile_record`). Its hand is sampled: the cards it is
known to hold, the rest drawn (with the AI's rng) from the cards nobody has seen, a sample
rejected when it contradicts the seat's last turn (the card it threw was not loose in the hand it
held, or the top card it passed over would have cut its deadwood). In each kept sample the seat
takes a card that melds and cuts its deadwood at once (the greedy baseline's take, which the
normal AI's take rule also meets); the share of samples that take is the estimate.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from rules.three_thirteen.ai_basics import near
from rules.three_thirteen.ai_expect import unseen
from rules.three_thirteen.deadwood import arrange, card_value, is_wild
from rules.three_thirteen.pile_record import DISCARD, REBUILD, TAKE, UP, known_held, pile_cards

SAMPLES = 12  # kept hands per decision (fixed: the cost stays inside the decision budget)
TRIES = 3  # drawn hands per kept one at most, when the last turn rejects many


def out_of_stock(view: dict[str, Any]) -> Counter[str]:
    """Cards this seat knows are not in the stock besides its hand: the pile and what the others
    took from it and hold (the top discard always counts, even when the record is partial)."""
    log = view.get("pile_log") or []
    gone = Counter(pile_cards(log))
    top = view["discard_top"]
    if top is not None and gone[top] == 0:
        gone[top] += 1
    for seat in range(view["seats"]):
        if seat != view["you"]:
            gone.update(known_held(log, seat))
    return gone


def last_turn(log: list[list[Any]], seat: int) -> tuple[str | None, str | None]:
    """The card `seat` threw on its last turn and the top card it passed over then (None when it
    took the top card, or when the record does not reach back that far)."""
    pile: list[str] = []
    thrown = passed = None
    took = False
    for who, verb, card in log:
        if who == seat and verb == TAKE:
            took = True
        elif who == seat and verb == DISCARD:
            thrown, passed = card, (None if took or not pile else pile[-1])
            took = False
        if verb in (UP, DISCARD):
            pile.append(card)
        elif verb == TAKE and pile and pile[-1] == card:
            pile.pop()
        elif verb == REBUILD:
            pile = [card]
    return thrown, passed


def takes(hand: list[str], card: str, wild: int, ace_high: bool, now: int) -> bool:
    """A hand with deadwood `now` takes `card`: it melds there and throwing the costliest loose card
    afterwards leaves less deadwood than now. Nothing near it and fewer than two wilds: no search."""
    if is_wild(card, wild):
        return True
    naturals = [c for c in hand if not is_wild(c, wild)]
    if len(hand) - len(naturals) < 2 and not any(near(card, c) for c in naturals):
        return False
    arr = arrange([*hand, card], wild, ace_high)
    if card in arr.deadwood_cards:
        return False
    worst = max((card_value(c, wild, ace_high) for c in arr.deadwood_cards), default=0)
    return arr.deadwood - worst < now


def take_chances(view: dict[str, Any], candidates: list[str], rng: Random) -> dict[str, float]:
    """For each candidate discard: the share of sampled next-seat hands that would take it."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    log = view.get("pile_log") or []
    nxt = (view["you"] + 1) % view["seats"]
    known = sorted(known_held(log, nxt).elements())[: view["hand_size"]]
    pool = [card for card, copies in unseen(view, out_of_stock(view)) for _ in range(copies)]
    free = view["hand_size"] - len(known)
    if free > len(pool):
        return dict.fromkeys(candidates, 0.0)
    thrown, passed = last_turn(log, nxt)
    hits = dict.fromkeys(candidates, 0)
    kept = 0
    for _ in range(SAMPLES * TRIES):
        hand = known + rng.sample(pool, free)
        if thrown is not None and thrown not in arrange([*hand, thrown], wild, ace_high).deadwood_cards:
            continue
        now = arrange(hand, wild, ace_high).deadwood
        if passed is not None and takes(hand, passed, wild, ace_high, now):
            continue
        kept += 1
        for c in candidates:
            hits[c] += takes(hand, c, wild, ace_high, now)
        if kept == SAMPLES:
            break
    return {c: hits[c] / kept if kept else 0.0 for c in candidates}
