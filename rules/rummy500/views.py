"""What a seat may see (R500-06): the table with owners and joker identities, burned cards, the
market with positions, bank count, hand sizes and scores; for the seat itself its hand and, when it
is to take, what each market take would bring (UX.md, "Numbers that help decide")."""

from __future__ import annotations

import json
from collections.abc import Collection
from typing import Any

from rules.core.cards import JOKER, sorted_cards
from rules.core.engine import State
from rules.core.memo import content_cache
from rules.rummy500 import melds
from rules.rummy500.search import target_placements

TAKES_CACHE = 1 << 12


def structure_view(s: melds.Struct, identities: dict[tuple[int, int], list[str]], laid: list[int]) -> dict[str, Any]:
    """One structure for a view; adds its cards' values to `laid` (per seat) on the way."""
    jokers = {}
    if JOKER in s["cards"]:
        for i, c in enumerate(s["cards"]):
            if c == JOKER:
                jokers[str(i)] = identities.get((s["id"], i), [])
    value = 0
    for _, owner, v in melds.counted_cards(s):
        value += v
        laid[owner] += v
    out: dict[str, Any] = {"id": s["id"], "kind": s["kind"], "cards": list(s["cards"]), "owners": list(s["owners"]),
                           "jokers": jokers, "value": value}
    if s["kind"] == "set":
        out.update(rank=s["rank"], base=s["base"], branch=s["branch"])
    else:
        out.update(suit=s["suit"], low=s["low"], shared=s["shared"], branch_of=s["branch_of"])
    return out


def market_takes(state: State, seat: int, burned: Collection[str] | None = None) -> list[dict[str, Any]]:
    """For each market position: the target, the cards after it, whether it is burned, and the best
    legal placement of the target with the hand plus the cards that would come along (R500-30/31).
    `burned` is the table's burned cards when the caller has worked them out already.

    Worked out once per content (the market, this hand in its order, the table, the options): the
    search is most of a view's cost, and every view of an unchanged position (the group's, a
    re-render, the AI's own) asks again. The key holds only what this seat may see."""
    table = state["table"]
    if burned is None:
        _, burned, _ = melds.joker_info(table)
    options = state["options"]
    return json.loads(_market_takes(tuple(state["market"]), tuple(state["hands"][seat]),
                                    json.dumps(table, sort_keys=True), tuple(sorted(burned)),
                                    bool(options["market_leave_one"]), options["joker_hand_penalty"]))


@content_cache(TAKES_CACHE)
def _market_takes(market: tuple[str, ...], hand: tuple[str, ...], table_json: str, burned: tuple[str, ...],
                  leave_one: bool, jk: int) -> str:
    table = json.loads(table_json)
    out = []
    for p, target in enumerate(market):
        after = market[p + 1 :]
        entry: dict[str, Any] = {"pos": p + 1, "target": target, "after": list(after), "burned": target in burned,
                                 "must_leave": bool(leave_one and after), "best": None}
        if not entry["burned"]:
            best = None
            for cards, on, value in target_placements(target, [*hand, target, *after], table, set(burned)):
                used_after = [c for c in cards if c in after]
                if leave_one and after and len(used_after) == len(after):
                    continue  # one card after the target must stay in the market
                if best is None or value > best[2]:
                    best = (cards, on, value)
            if best is not None:
                kept = [c for c in after if c not in best[0]]
                leave = None
                if entry["must_leave"]:
                    # The hint leaves the costliest card: the rest is what really comes into the hand.
                    leave = max(kept, key=lambda c: melds.card_value(c, jk))
                    kept.remove(leave)
                entry["best"] = {"cards": list(best[0]), "on": best[1], "value": best[2], "leave": leave,
                                 "to_hand": kept, "to_hand_value": melds.hand_value(kept, jk)}
        out.append(entry)
    return json.dumps(out)


def public_view(state: State, turn: int | None) -> dict[str, Any]:
    """What everyone sees: never a hand while a round is in play, never the bank order or the seed."""
    opts = state["options"]
    _, burned, idents = melds.joker_info(state["table"])
    identities = {(sid, i): cands for sid, i, cands in idents}
    over = state["round_over"]
    laid = [0] * state["seats"]
    v: dict[str, Any] = {
        "game": "rummy500",
        "round": state["round"],
        "seats": state["seats"],
        "dealer": state["dealer"],
        "turn": turn,
        "phase": state["phase"],
        "first": state["first"],
        "bank": len(state["bank"]),
        "market": list(state["market"]),
        "table": [structure_view(s, identities, laid) for s in state["table"]],
        "burned": sorted_cards(burned),
        "hand_sizes": [len(h) for h in state["hands"]],
        "laid": laid,
        "totals": list(state["totals"]),
        "target_score": opts["target_score"],
        "market_leave_one": opts["market_leave_one"],
        "go_out_bonus": opts["go_out_bonus"],
        "joker_hand_penalty": opts["joker_hand_penalty"],
        "round_over": dict(over) if over else None,
        "match_over": state["match_over"],
        "match_winners": list(state["match_winners"]),
    }
    return v


def seat_view(state: State, seat: int, public: dict[str, Any]) -> dict[str, Any]:
    """`seat`'s hand and its value; on turn, the card it drew and what each market take would bring
    (only the seat to take pays for that search, with the burned cards the public part found)."""
    hand = state["hands"][seat]
    on_turn = public["turn"] == seat
    return {
        "hand": sorted_cards(hand),
        "hand_value": melds.hand_value(hand, state["options"]["joker_hand_penalty"]),
        "drawn": state["drawn"] if on_turn else None,
        "takes": market_takes(state, seat, public["burned"]) if on_turn and state["phase"] == "take" else None,
    }
