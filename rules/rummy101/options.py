"""Rummy 101 table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator

from rules.core.engine import GameOptions
from rules.core.options import hints_field, seat_or_random, timer_seconds

MIN_TIMER_S, MAX_TIMER_S = 30, 600


class Rummy101Options(GameOptions):
    threshold_mode: Literal["fixed", "increasing"] = Field("fixed", description="opening thresholds (R101-38)")
    joker_button: Literal["off", "on"] = Field("off", description="the Joker button, once per player per round")
    match_rounds: Literal[1, 3, 5, 7, 9, 11] = Field(3, description="rounds in the match (R101-60)")
    allow_draw: bool = Field(False, description="tied leaders share the win instead of an extra round")
    turn_timer_s: int = Field(120, description="turn timer in seconds; 0 turns it off")
    first_player: Literal["random"] | int = Field("random", description="seat that starts round 1")
    hints: bool = hints_field()

    @field_validator("turn_timer_s", mode="wrap")
    @classmethod
    def _timer_range(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return timer_seconds(value, handler, MIN_TIMER_S, MAX_TIMER_S)

    @field_validator("first_player", mode="wrap")
    @classmethod
    def _first_player_positive(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str | int:
        return seat_or_random(value, handler)
