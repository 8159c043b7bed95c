"""What every Rummikub AI ends its turn with (rules/rummikub/ai.py, greedy.py): a layout as a `Play`
that `validate_play` accepts, the table left untouched, or a draw (a pass once the pool is empty).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core.engine import Action
from rules.core.errors import IllegalAction
from rules.rummikub.actions import Draw, MeldSpec, Pass, Play
from rules.rummikub.validate import validate_play


def play_or_none(view: dict[str, Any], layout: list[dict[str, Any]], opened: bool) -> Play | None:
    try:
        validate_play(view["table"], view["rack"], layout, opened, view["initial_meld_min"])
    except IllegalAction:
        return None
    return Play(melds=tuple(MeldSpec(tiles=tuple(m["tiles"]), prefix=m["prefix"]) for m in layout))


def untouched(table: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"tiles": list(m["tiles"]), "prefix": m.get("prefix")} for m in table]


def no_play(view: dict[str, Any]) -> Action:
    return Draw() if view["pool"] > 0 else Pass()


def is_opened(view: dict[str, Any]) -> bool:
    return bool(view["opened"][view["you"]])
