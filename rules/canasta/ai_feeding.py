"""How likely a Canasta discard lets the next seat, always an opponent, take the pile (CAN-40..43).

Only what the discarding seat may know (its view, CAN-10): its own hand, both teams' melds, the top
discard, the hand sizes and counts. A natural of number n on top can be taken by a player who holds
two naturals of n; the seat has not seen the copies of n outside its hand, the melds and the top,
so it treats them as spread evenly over every tile it has not seen (the stock, the other hands,
the pile below the top) and asks how likely the next opponent's hand holds two of them
(hypergeometric). An unopened opponent team whose take could not reach its threshold on the three
tiles alone needs an opening batch besides (CAN-43), which lowers the chance.
The opponents' own meld of n does not: their partner may have laid it after the next seat had
collected its pair (seen in the bench's feeding discards), so it was tried as a discount and dropped.
"""

from __future__ import annotations

from math import comb
from typing import Any

from rules.canasta import melds as m

View = dict[str, Any]
NATURAL_COPIES = 8  # every natural number: four colours, two copies each (CAN-01)
SHORT_OPENING_FACTOR = 0.4  # unopened opponents whose take needs more than the three tiles to open


def holds_two(unseen_copies: int, unseen_tiles: int, hand: int) -> float:
    """P(a hand of `hand` tiles dealt from `unseen_tiles` holds ≥2 of `unseen_copies` given tiles)."""
    if unseen_copies < 2 or hand < 2 or unseen_tiles <= 0:
        return 0.0
    hand = min(hand, unseen_tiles)
    total = comb(unseen_tiles, hand)
    none = comb(unseen_tiles - unseen_copies, hand)
    one = unseen_copies * comb(unseen_tiles - unseen_copies, hand - 1)
    return max(0.0, 1 - (none + one) / total)


def feed_risk(view: View, tile: str) -> float:
    """The chance that discarding `tile` now lets the next seat take the pile (0 for a blocking tile)."""
    if not m.is_natural(tile):
        return 0.0  # a two, joker or block three on top blocks the pile (CAN-41)
    you = view["you"]
    nxt = (you + 1) % 4
    their_team = 1 - view["team"]
    n = m.num(tile)
    seen = sum(1 for t in view["hand"] if m.is_natural(t) and m.num(t) == n)
    for team_melds in view["melds"]:
        for meld in team_melds:
            if meld["number"] == n:
                seen += sum(1 for t in meld["tiles"] if m.is_natural(t))
    top = view["top"]
    if top is not None and m.is_natural(top) and m.num(top) == n:
        seen += 1
    sizes = view["hand_sizes"]
    unseen_tiles = view["stock"] + sum(sizes[s] for s in range(4) if s != you) + max(view["pile_size"] - 1, 0)
    risk = holds_two(NATURAL_COPIES - seen, unseen_tiles, sizes[nxt])
    if not view["opened"][their_team] and 3 * m.value(tile) < view["thresholds"][their_team]:
        risk *= SHORT_OPENING_FACTOR
    return risk
