"""Rummy 500 table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator

from rules.core.engine import GameOptions
from rules.core.options import hints_field, seat_or_random, timer_seconds

MIN_TIMER_S, MAX_TIMER_S = 30, 600


class Rummy500Options(GameOptions):
    target_score: int = Field(500, ge=100, le=1000, description="total that ends the match (R500-71)")
    go_out_bonus: int = Field(10, ge=0, le=50, description="bonus for going out without a discard (R500-63)")
    jokers: int = Field(2, ge=0, le=2, description="jokers in the deck (R500-01)")
    hand_size: int = Field(9, ge=7, le=10, description="cards dealt to each player; the dealer gets one more")
    market_leave_one: bool = Field(True, description="one card after the market target stays (R500-30)")
    joker_hand_penalty: int = Field(15, ge=0, le=50, description="value of a joker left in hand (R500-56)")
    allow_draw: bool = Field(False, description="tied leaders share the win instead of another round")
    turn_timer_s: int = Field(0, description="turn timer in seconds; 0 turns it off (R500-27)")
    first_dealer: Literal["random"] | int = Field("random", description="dealer of round 1 (seat 1..n)")
    hints: bool = hints_field()

    @field_validator("turn_timer_s", mode="wrap")
    @classmethod
    def _timer_range(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return timer_seconds(value, handler, MIN_TIMER_S, MAX_TIMER_S)

    @field_validator("first_dealer", mode="wrap")
    @classmethod
    def _dealer_positive(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str | int:
        return seat_or_random(value, handler)
