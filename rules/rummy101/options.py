"""Rummy 101 table options (spec §9) with their defaults and ranges."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from rules.core.engine import GameOptions

MIN_TIMER_S, MAX_TIMER_S = 30, 600


class Rummy101Options(GameOptions):
    threshold_mode: Literal["fixed", "increasing"] = Field("fixed", description="opening thresholds (R101-38)")
    joker_button: Literal["off", "on"] = Field("off", description="the Joker button, once per player per round")
    match_rounds: Literal[1, 3, 5, 7, 9, 11] = Field(3, description="rounds in the match (R101-60)")
    allow_draw: bool = Field(False, description="tied leaders share the win instead of an extra round")
    turn_timer_s: int = Field(120, description="turn timer in seconds; 0 turns it off")
    first_player: Literal["random"] | int = Field("random", description="seat that starts round 1")

    @field_validator("turn_timer_s")
    @classmethod
    def _timer_range(cls, value: int) -> int:
        if value != 0 and not MIN_TIMER_S <= value <= MAX_TIMER_S:
            raise ValueError(f"must be 0 (off) or {MIN_TIMER_S}..{MAX_TIMER_S}")
        return value

    @field_validator("first_player")
    @classmethod
    def _first_player_positive(cls, value: str | int) -> str | int:
        if isinstance(value, int) and value < 1:
            raise ValueError("must be 'random' or a seat number from 1")
        return value
