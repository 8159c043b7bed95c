"""Rummy 500 AI (spec shared/rules/rummy500.md), from one seat's view only.

- Lay: every placement the hand allows, best first (value, cards off the hand, jokers used — a joker
  left in hand costs 15), keeping one non-joker to discard after a bank take (R500-24) unless the
  whole hand goes down, which takes the going-out bonus (R500-63).
- Take: a market take is worth the target placement plus what the grown hand can lay at once, minus
  the cards it adds to the hand weighted by how close the round end is (the bank count); while the
  bank has cards, no take that keeps in hand more than DEEP_RATIO times what it lays. The bank is
  worth what the hand lays anyway plus a small draw value. The card left behind is the costliest
  one not needed (burned cards first: they can never be laid, R500-52). With an empty bank a take
  must beat ending the round now (R500-25).
- Discard: the card least connected to the rest of the hand (pairs, suit neighbours, a joker to
  fill a gap), highest value first; burned cards go first.
The greedy baseline always takes the bank, lays every placement it finds and discards its highest card.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from rules.core.cards import JOKER
from rules.core.engine import Action
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeBank, TakeMarket
from rules.rummy500.melds import Struct, burned_cards, card_value, rank_of, suit_of
from rules.rummy500.search import Placement, candidates, legal

DRAW_VALUE = 2.0  # what an unseen bank card is worth on average, in points
MARKET_MARGIN = 1.0
# While the bank has cards, no market take whose cards kept in hand are worth more than this many
# times what the take lays this turn (issue 28: `take market #1 leave AS; lay 8H on S9` laid 8 and
# brought 52 into the hand, 32 of them still there at the round end, R500-62).
DEEP_RATIO = 1.5


def _score(p: Placement) -> float:
    cards, _, value = p
    jokers = sum(1 for c in cards if c == JOKER)
    return value + 2 * len(cards) + 12 * jokers


def _remove(hand: Sequence[str], cards: Sequence[str]) -> list[str]:
    rest = list(hand)
    for c in cards:
        rest.remove(c)
    return rest


def best_placement(hand: Sequence[str], table: Sequence[Struct], burned: set[str], keep_discard: bool,
                   seat: int = 0) -> tuple[Placement, list[Struct]] | None:
    """The best legal placement and the table after it; None when nothing can be laid."""
    found = sorted(candidates(hand, table, burned), key=_score, reverse=True)
    for p in found:
        left = len(hand) - len(p[0])
        if keep_discard and left and all(c == JOKER for c in _remove(hand, p[0])):
            continue
        after = legal(table, p, seat)
        if after is not None:
            return p, after
    return None


def plan(hand: Sequence[str], table: Sequence[Struct], burned: set[str], keep_discard: bool,
         limit: int = 6) -> tuple[int, list[str]]:
    """Greedy: lay the best placement until none is left. (laid value, cards left in hand)."""
    laid = 0
    hand = list(hand)
    table = list(table)
    for _ in range(limit):
        if not hand:
            break
        found = best_placement(hand, table, burned, keep_discard)
        if found is None:
            break
        (cards, _, value), table = found
        laid += value
        hand = _remove(hand, cards)
    return laid, hand


def _weight(bank: int) -> float:
    """How much a card in hand is likely to cost at round end: more as the bank runs down."""
    return 0.35 + 0.55 * (1 - min(bank, 24) / 24)


def _usefulness(card: str, hand: Sequence[str], burned: set[str]) -> float:
    if card in burned:
        return -100.0
    r, s = rank_of(card), suit_of(card)
    score = 0.0
    jokers = sum(1 for c in hand if c == JOKER)
    for other in hand:
        if other in (card, JOKER) or other in burned:
            continue
        if rank_of(other) == r:
            score += 9
        elif suit_of(other) == s:
            gap = abs(rank_of(other) - r)
            if gap == 1:
                score += 8
            elif gap == 2:
                score += 4 + 3 * min(jokers, 1)
    return score


def choose_discard(hand: Sequence[str], burned: set[str]) -> str | None:
    naturals = [c for c in hand if c != JOKER]
    if not naturals:
        return None
    return min(naturals, key=lambda c: (_usefulness(c, hand, burned) - card_value(c), -rank_of(c)))


def _leave_choice(after: Sequence[str], used: Sequence[str], hand: Sequence[str], burned: set[str]) -> str:
    spare = [c for c in after if c not in used]
    pool = [*hand, *after]
    return max(spare, key=lambda c: (card_value(c) - _usefulness(c, pool, burned), -rank_of(c)))


def _take(view: dict[str, Any]) -> Action:
    hand = view["hand"]
    table = view["table"]
    burned = set(view["burned"])
    jk = view["joker_hand_penalty"]
    w = _weight(view["bank"])

    def cost(cards: Sequence[str]) -> float:
        return sum(card_value(c, jk) for c in cards)

    laid, rest = plan(hand, table, burned, keep_discard=True)
    if view["bank"]:
        # After a bank take the discard removes the worst card; the new card is unseen.
        worst = choose_discard(rest, burned)
        rest_cost = cost(rest) - (card_value(worst) if worst else 0)
        bank_score = laid - w * rest_cost + DRAW_VALUE
    else:
        bank_score = -cost(hand)  # `stop`: the round ends now with this hand
    best: tuple[float, Action] | None = None
    for entry in view["takes"] or []:
        choice = entry["best"]
        if choice is None:
            continue
        after = entry["after"]
        leave = _leave_choice(after, choice["cards"], hand, burned) if entry["must_leave"] else None
        taken = [entry["target"], *[c for c in after if c != leave]]
        pool = _remove([*hand, *taken], choice["cards"])
        placement: Placement = (tuple(choice["cards"]), choice["on"], choice["value"])
        new_table = legal(table, placement)
        if new_table is None:
            continue
        new_burned = burned | burned_cards(new_table)
        more, left = plan(pool, new_table, new_burned, keep_discard=False)
        weight = 1.0 if not view["bank"] else w
        kept = [c for c in left if c in taken]  # the taken cards still in hand (every card is unique, R500-01)
        if view["bank"] and cost(kept) > DEEP_RATIO * (choice["value"] + more):
            continue
        score = choice["value"] + more - weight * cost(left)
        if best is None or score > best[0]:
            action = TakeMarket(pos=entry["pos"], leave=leave, lays=(Lay(cards=placement[0], on=placement[1]),))
            best = (score, action)
    if best is not None and best[0] > bank_score + MARKET_MARGIN:
        return best[1]
    return TakeBank() if view["bank"] else Stop()


def _lay_or_none(view: dict[str, Any], keep_discard: bool) -> Action | None:
    found = best_placement(view["hand"], view["table"], set(view["burned"]), keep_discard, view["you"])
    if found is None:
        return None
    cards, on, _ = found[0]
    return Lay(cards=cards, on=on)


def choose_action(view: dict[str, Any], rng: Random) -> Action:
    phase = view["phase"]
    if phase == "take":
        return _take(view)
    if phase == "market":
        return _lay_or_none(view, keep_discard=False) or End()
    lay = _lay_or_none(view, keep_discard=True)
    if lay is not None:
        return lay
    card = choose_discard(view["hand"], set(view["burned"]))
    return Discard(card=card) if card is not None else End()


# ---- the greedy baseline ---------------------------------------------------------------------------


def choose_greedy_action(view: dict[str, Any], rng: Random) -> Action:
    """Always the bank; lays every meld it finds, biggest first; discards its highest card."""
    phase = view["phase"]
    if phase == "take":
        return TakeBank() if view["bank"] else Stop()
    if phase == "market":
        return End()
    hand = view["hand"]
    burned = set(view["burned"])
    for p in sorted(candidates(hand, view["table"], burned), key=lambda p: (len(p[0]), p[2]), reverse=True):
        rest = _remove(hand, p[0])
        if rest and all(c == JOKER for c in rest):
            continue
        if legal(view["table"], p) is not None:
            return Lay(cards=p[0], on=p[1])
    naturals = [c for c in hand if c != JOKER]
    if not naturals:
        return End()
    return Discard(card=max(naturals, key=lambda c: (card_value(c), rank_of(c))))
