"""Round scoring, thresholds and match end (CAN-37, CAN-45, CAN-60..67)."""

from __future__ import annotations

from typing import Any

from rules.canasta.melds import (
    BONUS_THREE_VALUE,
    GOING_OUT_BONUS,
    canasta_kind,
    hand_penalty,
    meld_score,
    sorted_tiles,
    value,
)
from rules.core.engine import Event, State
from rules.core.state import clone

SEATS = 4
TEAMS = ((0, 2), (1, 3))


def team_of(seat: int) -> int:
    """Team A (0) = seats 0+2, Team B (1) = seats 1+3 (CAN-06)."""
    return seat % 2


def threshold(total: int) -> int:
    """CAN-37 / D-06: the opening count a team needs, from its match total at round start."""
    if total < 0:
        return 15
    if total < 1500:
        return 50
    if total < 3000:
        return 90
    if total < 7000:
        return 120
    return 150


def team_breakdown(
    melds: dict[str, list[str]], bonus: list[str], opened: bool, hands: list[list[str]], went_out: bool
) -> dict[str, Any]:
    """CAN-60/61: every part of one team's round score, so a renderer can show the sum."""
    meld_tiles = sum(value(t) for tiles in melds.values() for t in tiles)
    canastas = sum(meld_score(int(n), tiles) for n, tiles in melds.items()) - meld_tiles
    threes = (BONUS_THREE_VALUE if opened else -BONUS_THREE_VALUE) * len(bonus)
    hands_value = sum(hand_penalty(h) for h in hands)
    out = GOING_OUT_BONUS if went_out else 0
    return {
        "melds": meld_tiles,
        "canastas": canastas,
        "canasta_count": sum(1 for n, tiles in melds.items() if canasta_kind(int(n), tiles)),
        "bonus_threes": threes,
        "going_out": out,
        "hands": -hands_value,
        "score": meld_tiles + canastas + threes + out - hands_value,
    }


def score_round(state: dict[str, Any], out_seat: int | None) -> list[dict[str, Any]]:
    return [
        team_breakdown(
            state["melds"][team],
            state["bonus"][team],
            state["opened"][team],
            [state["hands"][s] for s in seats],
            out_seat is not None and team_of(out_seat) == team,
        )
        for team, seats in enumerate(TEAMS)
    ]


def leading_team(totals: list[int]) -> int | None:
    if totals[0] == totals[1]:
        return None
    return 0 if totals[0] > totals[1] else 1


def match_decision(options: dict[str, Any], round_number: int, totals: list[int]) -> str:
    """'continue', 'tie_break' (another round), 'won' or 'drawn' after a round (CAN-65/66)."""
    length = options["match_length"]
    due = max(totals) >= 10000 if length == "target 10000" else round_number >= int(length.split()[0])
    if not due:
        return "continue"
    if leading_team(totals) is not None:
        return "won"
    return "drawn" if options["allow_draw"] else "tie_break"


def end_round(state: State, events: list[Event], out_seat: int | None) -> None:
    """The round is over (a player went out, or the stock ran dry): score it, and end the match
    when it is decided (CAN-60..67)."""
    teams = score_round(state, out_seat)
    scores = [teams[0]["score"], teams[1]["score"]]
    state["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
    state["history"].append(scores)
    lead = leading_team(scores)
    winners = [] if lead is None else list(TEAMS[lead])  # CAN-64 / D-22
    decision = match_decision(state["options"], state["round"], state["totals"])
    state["turn"] = None
    state["round_over"] = {
        "reason": "out" if out_seat is not None else "stock",
        "out": out_seat,
        "scores": scores,
        "winners": winners,
        "teams": teams,
        "hands": [sorted_tiles(h) for h in state["hands"]],
        "drawn": decision == "drawn",
    }
    events.append(
        Event(
            "RoundScored",
            {
                "round": state["round"],
                "reason": state["round_over"]["reason"],
                "out": out_seat,
                "scores": scores,
                "teams": clone(teams),
                "winners": winners,
                "hands": clone(state["round_over"]["hands"]),
                "totals": list(state["totals"]),
            },
        )
    )
    if decision in ("won", "drawn"):
        state["match_over"] = True
        per_round = state["options"]["ledger_per_round"] * state["round"]
        if decision == "won":
            best = leading_team(state["totals"])
            assert best is not None
            state["match_winners"] = list(TEAMS[best])
            state["ledger"] = [per_round if team_of(s) == best else -per_round for s in range(SEATS)]
        else:
            state["match_winners"] = list(range(SEATS))  # a drawn match: both teams share it
            state["ledger"] = [0] * SEATS
        events.append(
            Event("MatchEnded", {"winners": list(state["match_winners"]), "totals": list(state["totals"]),
                                 "drawn": decision == "drawn", "ledger": list(state["ledger"])})
        )
    elif decision == "tie_break":
        events.append(Event("TieBreakNeeded", {"totals": list(state["totals"])}))
