"""Canasta table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator

from rules.core.engine import GameOptions
from rules.core.options import hints_field, one_of, seat_or_random, timer_seconds

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
    hints: bool = hints_field()

    @field_validator("turn_timer_s", mode="wrap")
    @classmethod
    def _timer_range(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return timer_seconds(value, handler, MIN_TIMER_S, MAX_TIMER_S)

    @field_validator("ledger_per_round", mode="wrap")
    @classmethod
    def _ledger_values(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return one_of(value, handler, (0, 1000))  # 0 turns the ledger off

    @field_validator("first_dealer", mode="wrap")
    @classmethod
    def _dealer_seat(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str | int:
        return seat_or_random(value, handler, hi=4)
