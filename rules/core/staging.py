"""Staged melds judged by the engine (issue 25): a player builds a compound move (an opening of
several melds, a pile take with melds) one meld at a time on the hand screen, and the engine says
of each meld whether it is valid and what it counts, and of the batch how far it is from the
threshold — with the same checks and reason codes as `apply`, so the screen never holds a rule.

`stage_report(view, groups)` reads one seat's view only; `groups` are the staged melds as item
words (the hand's tiles), in order. What a batch is for follows from the view: an opening before
the seat (or its team) has opened, melds after, a take of the discard while drawing.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from rules.core.errors import IllegalAction

Unit = Literal["points", "pairs"]


@dataclass(frozen=True)
class StagedMeld:
    """One staged meld: `valid` as the game's meld check says, `value` what it counts (0 when
    invalid), `reason` the game's meld reason code when invalid (`meld_reason.<reason>` words it)."""

    valid: bool
    value: int = 0
    reason: str | None = None


@dataclass(frozen=True)
class StageReport:
    """The staged batch: each meld, the running `total` (points, or the pairs count when `unit` is
    "pairs") against `target` (None: no threshold applies now), and the first batch `problem` the
    engine would refuse with (its reason code and `params`), None when the batch checks pass.
    Checks that need more than the staged melds (the hand floor, the rest of the command) are left
    to `apply`, which judges the move when it is sent."""

    melds: tuple[StagedMeld, ...] = ()
    total: int = 0
    target: int | None = None
    unit: Unit = "points"
    problem: str | None = None
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def ready(self) -> bool:
        return bool(self.melds) and self.problem is None and all(m.valid for m in self.melds)

    @classmethod
    def refused(cls, melds: tuple[StagedMeld, ...], total: int, target: int | None, unit: Unit,
                err: IllegalAction) -> StageReport:
        return cls(melds, total, target, unit, err.code, dict(err.params))
