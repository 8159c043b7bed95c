"""What every Three-Thirteen policy here needs: the legal discards, going out, and the deadwood of
the hand plus one card; all from one seat's view (`engine.view`)."""

from __future__ import annotations

from typing import Any

from rules.three_thirteen.deadwood import arrange, card_value, deadwood, fully_melded, is_wild, rank_of


def discardable(view: dict[str, Any]) -> list[str]:
    """Cards the rules let this seat discard now (T13-22: not the card just taken, unless a copy)."""
    hand = view["hand"]
    taken = view["taken"]
    return [c for c in hand if c != taken or hand.count(c) > 1]


def going_out(view: dict[str, Any]) -> str | None:
    """A discard that leaves zero deadwood, the most valuable such card first.

    Removing card c leaves at least D - value(c) (put c back as a loose card), and exactly that when
    c is loose in the best arrangement; so only cards worth at least D can go out, and a loose one
    only when it is worth exactly D.
    """
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand, total, loose = view["hand"], view["deadwood"], view["deadwood_cards"]
    options = sorted(set(discardable(view)), key=lambda c: (-card_value(c, wild, ace_high), c))  # never set order
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


def run_windows(card: str, ace_high: bool) -> int:
    """How many 3-card runs can hold this rank (K: 1, Q: 2, 3..J: 3; aces 1, or 2 with ace_high)."""
    r = rank_of(card)
    top = 14 if ace_high else 13
    spots = [r] + ([14] if ace_high and r == 1 else [])
    return sum(1 for p in spots for start in range(p - 2, p + 1) if start >= 1 and start + 2 <= top)


def near(card: str, other: str) -> bool:
    """Could share a meld without two wilds: same rank, or same suit within a 5-rank window."""
    r, o = rank_of(card), rank_of(other)
    if r == o:
        return True
    if card[-1] != other[-1]:
        return False
    return abs(r - o) < 5 or (r == 1 and o > 9) or (o == 1 and r > 9)


def with_card(view: dict[str, Any], card: str) -> tuple[int, list[str]]:
    """Deadwood and loose cards of the hand plus `card`. When the card cannot meld with anything in
    the hand (nothing near it, fewer than two wilds), it simply joins the loose cards: no search."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = view["hand"]
    naturals = [c for c in hand if not is_wild(c, wild)]
    if len(hand) - len(naturals) < 2 and not any(near(card, c) for c in naturals):
        return view["deadwood"] + card_value(card, wild, ace_high), [*view["deadwood_cards"], card]
    arr = arrange([*hand, card], wild, ace_high)
    return arr.deadwood, list(arr.deadwood_cards)


def fallback(view: dict[str, Any], allowed: set[str]) -> str:
    """No loose natural to throw: the card whose loss hurts least (exact deadwood of what is kept)."""
    wild, ace_high = view["wild_rank"], view["ace_high"]
    hand = view["hand"]

    def after(card: str) -> tuple[int, int, str]:
        rest = list(hand)
        rest.remove(card)
        return (deadwood(rest, wild, ace_high), is_wild(card, wild), card)

    return min(sorted(allowed), key=after)
