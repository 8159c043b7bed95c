"""Three-Thirteen table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator

from rules.core.engine import GameOptions
from rules.core.options import hints_field, seat_or_random, timer_seconds

MIN_TIMER_S, MAX_TIMER_S = 30, 600
MAX_ROUNDS = 11


class ThreeThirteenOptions(GameOptions):
    jokers: Literal[0, 2, 4] = Field(0, description="jokers added to the two decks (T13-01)")
    ace_high: bool = Field(False, description="Q-K-A runs allowed and an unmelded ace costs 15 (D-09)")
    rounds: int = Field(MAX_ROUNDS, ge=1, le=MAX_ROUNDS, description="plays rounds 1..R (D-11)")
    turn_timer_s: int = Field(0, description="turn timer in seconds; 0 turns it off (T13-29)")
    first_dealer: Literal["random"] | int = Field("random", description="seat that deals round 1 (T13-12)")
    hints: bool = hints_field()

    @field_validator("turn_timer_s", mode="wrap")
    @classmethod
    def _timer_range(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return timer_seconds(value, handler, MIN_TIMER_S, MAX_TIMER_S)

    @field_validator("first_dealer", mode="wrap")
    @classmethod
    def _dealer_positive(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str | int:
        return seat_or_random(value, handler)
