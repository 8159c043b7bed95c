"""A full Rummy 500 state from one seat's view, its hidden zones dealt at random (rules/core/search_pimc.py).

The seat sees its hand, the market, the table, the bank's size and every hand's size; the other
hands and the bank are dealt from the rest of the deck. The deck's joker count is not in the view
but follows from the card count (52 plus the jokers).
"""

from __future__ import annotations

from random import Random
from typing import Any

from rules.core.cards import card_deck
from rules.core.engine import State
from rules.core.search_pimc import deal_hidden, unseen
from rules.rummy500 import melds
from rules.rummy500.options import Rummy500Options

# Keys a view adds to a table structure that the state's structures do not hold.
_VIEW_ONLY = ("jokers", "value")


def table_of(view: dict[str, Any]) -> list[melds.Struct]:
    return [{k: v for k, v in s.items() if k not in _VIEW_ONLY} for s in view["table"]]


def unseen_cards(view: dict[str, Any]) -> list[str]:
    """The cards `view`'s seat cannot see: the deck less its hand, the market and the table."""
    table = table_of(view)
    seen = [*view["hand"], *view["market"], *melds.table_cards(table)]
    total = len(seen) + view["bank"] + sum(n for s, n in enumerate(view["hand_sizes"]) if s != view["you"])
    return unseen(card_deck(jokers=total - 52), seen)


def determinize(view: dict[str, Any], rng: Random) -> State:
    """A state `view`'s seat could be in: what it sees as it is, the other hands and the bank dealt
    from `unseen_cards` at random, with the sizes the view shows."""
    me = view["you"]
    table = table_of(view)
    pool = unseen_cards(view)
    others = [s for s in range(view["seats"]) if s != me]
    zones = deal_hidden(pool, [view["hand_sizes"][s] for s in others] + [view["bank"]], None, rng)
    hands: list[list[str]] = [[] for _ in range(view["seats"])]
    hands[me] = list(view["hand"])
    for s, zone in zip(others, zones, strict=False):
        hands[s] = zone
    options = Rummy500Options(target_score=view["target_score"], go_out_bonus=view["go_out_bonus"],
                              jokers=len(pool) + len(view["hand"]) + len(view["market"])
                              + len(melds.table_cards(table)) - 52,
                              market_leave_one=view["market_leave_one"],
                              joker_hand_penalty=view["joker_hand_penalty"]).model_dump()
    return {
        "game": "rummy500",
        "options": options,
        "seed": 0,
        "deck": None,
        "seats": view["seats"],
        "round": view["round"],
        "dealer": view["dealer"],
        "totals": list(view["totals"]),
        "history": [],
        "match_over": view["match_over"],
        "match_winners": list(view["match_winners"]),
        "turn": view["turn"],
        "phase": view["phase"],
        "first": view["first"],
        "drawn": view["drawn"],
        "hands": hands,
        "bank": zones[-1],
        "market": list(view["market"]),
        "table": table,
        "next_id": 1 + max((s["id"] for s in table), default=0),
        "round_over": None,
    }
