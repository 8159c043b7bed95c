"""Canasta table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from rules.core.engine import GameOptions

MIN_TIMER_S, MAX_TIMER_S = 30, 600
TARGET = 10_000


class CanastaOptions(GameOptions):
    match_length: Literal["1 round", "3 rounds", "target 10000"] = Field(
        "3 rounds", description="rounds in the match, or play to 10000 (CAN-65)"
    )
    joker_button: Literal["off", "on"] = Field("off", description="each player may create one joker a round (CAN-53)")
    allow_draw: bool = Field(False, description="a tied match is drawn instead of an extra round (CAN-66)")
    turn_timer_s: int = Field(120, description="turn timer in seconds; 0 turns it off (CAN-54)")
    first_dealer: Literal["random"] | int = Field("random", description="seat 1-4 that deals round 1 (CAN-07)")
    ledger_per_round: int = Field(1000, description="ledger points per round played; 0 turns it off (CAN-67)")

    @field_validator("turn_timer_s")
    @classmethod
    def _timer_range(cls, value: int) -> int:
        if value != 0 and not MIN_TIMER_S <= value <= MAX_TIMER_S:
            raise ValueError(f"must be 0 (off) or {MIN_TIMER_S}..{MAX_TIMER_S}")
        return value

    @field_validator("ledger_per_round")
    @classmethod
    def _ledger_values(cls, value: int) -> int:
        if value not in (0, 1000):
            raise ValueError("must be 0 (off) or 1000")
        return value

    @field_validator("first_dealer")
    @classmethod
    def _dealer_seat(cls, value: str | int) -> str | int:
        if isinstance(value, int) and not 1 <= value <= 4:
            raise ValueError("must be 'random' or a seat number 1-4")
        return value
