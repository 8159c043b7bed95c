"""Rummikub table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, ValidatorFunctionWrapHandler, field_validator

from rules.core.engine import GameOptions
from rules.core.options import hints_field, seat_or_random, timer_seconds

MIN_TIMER_S, MAX_TIMER_S = 15, 300


class RummikubOptions(GameOptions):
    turn_timer_s: int = Field(60, description="turn timer in seconds; 0 turns it off")
    timeout_penalty_tiles: int = Field(3, ge=0, le=3, description="tiles drawn when the timer expires")
    initial_meld_min: int = Field(30, ge=0, le=50, description="points needed for the initial meld")
    jokers: int = Field(2, ge=0, le=2, description="jokers in the set")
    joker_rack_penalty: int = Field(30, ge=0, le=50, description="value of a joker left on a rack")
    empty_pool_end: Literal["blocked", "one_more_turn"] = Field(
        "blocked", description="how a game ends once the pool is empty"
    )
    match_games: int = Field(1, ge=1, le=10, description="games in the match")
    allow_draw: bool = Field(False, description="tied leaders share the win instead of an extra game")
    first_player: Literal["random"] | int = Field("random", description="seat that starts game 1")
    hints: bool = hints_field()

    @field_validator("turn_timer_s", mode="wrap")
    @classmethod
    def _timer_range(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> int:
        return timer_seconds(value, handler, MIN_TIMER_S, MAX_TIMER_S)

    @field_validator("first_player", mode="wrap")
    @classmethod
    def _first_player_positive(cls, value: Any, handler: ValidatorFunctionWrapHandler) -> str | int:
        return seat_or_random(value, handler)
