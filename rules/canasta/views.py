"""What a seat may see (CAN-10): both teams' melds with their canasta markers, zones, thresholds, the
top discard and counts; its own hand with the numbers that help decide. Never another hand (a
partner's included), the stock order or the seed."""

from __future__ import annotations

from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import format_action
from rules.canasta.ai import best_opening, take_option
from rules.canasta.scoring import TEAMS, team_of
from rules.canasta.stock import stock_count
from rules.core.engine import State
from rules.core.memo import content_cache
from rules.core.state import clone


def public_view(state: State) -> dict[str, Any]:
    """What everyone sees (CAN-10): both teams' melds, zones, thresholds, the top discard, counts."""
    over = state["round_over"]
    v: dict[str, Any] = {
        "game": "canasta",
        "round": state["round"],
        "match_length": state["options"]["match_length"],
        "seats": len(state["hands"]),
        "teams": [list(t) for t in TEAMS],
        "dealer": state["dealer"],
        "starter": state["starter"],
        "turn": None if over else state["turn"],
        "phase": state["phase"] if over is None else None,
        "first_turn": state["first_turn"],
        "melds": [
            [meld_view(int(n), tiles) for n, tiles in sorted(state["melds"][team].items(), key=_meld_order)]
            for team in range(2)
        ],
        "bonus": [m.sorted_tiles(z) for z in state["bonus"]],
        "opened": list(state["opened"]),
        "thresholds": list(state["thresholds"]),
        "totals": list(state["totals"]),
        "history": clone(state["history"]),
        "top": state["pile"][-1] if state["pile"] else None,
        "pile_size": len(state["pile"]),
        "stock": stock_count(state),
        "exhausted": state["exhausted"],
        "hand_sizes": [len(h) for h in state["hands"]],
        "joker_button": state["options"]["joker_button"] == "on",
        "joker_used": list(state["joker_used"]),
        "round_over": clone(over) if over else None,
        "match_over": state["match_over"],
        "match_winners": list(state["match_winners"]),
        "ledger": list(state["ledger"]),
    }
    return v


def seat_view(state: State, seat: int, public: dict[str, Any], hints: bool = True) -> dict[str, Any]:
    """`seat`'s team and hand; with `hints`, the numbers that help a human decide (the AI works them
    out itself). `public` is the public view with "you" set to `seat`."""
    team = team_of(seat)
    hand = m.sorted_tiles(state["hands"][seat])
    part: dict[str, Any] = {"team": team, "hand": hand}
    if not hints:
        return part
    # UX "numbers that help decide": before the team opens, the best opening in this hand.
    part["best_opening"] = None if state["opened"][team] else _best_opening(tuple(hand))
    # ... and a pile take this hand can make now (CAN-40..43), as a ready command: only the seat on
    # turn, so it is worked out for one seat per outcome at most.
    take = take_option({**public, **part}) if public["turn"] == seat and public["phase"] == "draw" else None
    part["take_hint"] = format_action(take) if take else None
    return part


@content_cache(1 << 14)
def _best_opening(hand: tuple[str, ...]) -> int:
    # Keyed by this hand's tiles alone (sorted): most outcomes leave most hands as they were.
    return best_opening(list(hand))


def build_view(state: State, seat: int | None, hints: bool = True) -> dict[str, Any]:
    """What `seat` may see (None: a spectator). Never another hand (a partner's included), the stock
    order or the seed."""
    v = public_view(state)
    v["you"] = seat
    if seat is not None:
        v.update(seat_view(state, seat, v, hints))
    return v


def meld_view(number: int, tiles: list[str]) -> dict[str, Any]:
    """One team meld for display: naturals first, then wilds; canasta type and the one-to-go mark."""
    kind = m.canasta_kind(number, tiles)
    twos = number == m.TWOS_MELD
    wilds = [t for t in tiles if t == m.JOKER] if twos else [t for t in tiles if t in m.WILD_TILES]
    return {
        "number": number,
        "tiles": m.sorted_tiles(tiles) if twos else sorted(tiles, key=m.meld_display_key),
        "size": len(tiles),
        "wilds": m.sorted_tiles(wilds),
        "canasta": kind,
        "one_to_go": len(tiles) == m.CANASTA_SIZE - 1,
        "value": m.meld_score(number, tiles),
    }


def _meld_order(item: tuple[str, list[str]]) -> int:
    return int(item[0])
