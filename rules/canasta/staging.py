"""Tile Canasta's judge of staged melds (issue 25), from one seat's view only: each meld by the
checks `apply` makes (CAN-20..24), and the batch as an opening (the team's threshold, CAN-30), as
melds of an opened team, or — while drawing with a pair for the top discard — as a pile take whose
first staged meld is the tiles that join the top (CAN-40..43)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.canasta import melds as m
from rules.canasta.laying import (
    check_numbers,
    check_take_pair,
    check_valid,
    meld_ref,
    new_meld_problem,
    take_problem,
)
from rules.core.errors import IllegalAction
from rules.core.staging import StagedMeld, StageReport


def stage_report(view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
    team = view.get("team")
    if team is None or not groups:
        return StageReport()
    own = {str(meld["number"]): list(meld["tiles"]) for meld in view["melds"][team]}
    opened = bool(view["opened"][team])
    top = view.get("top")
    taking = view.get("phase") == "draw" and top is not None and m.is_natural(top)
    melds = list(groups[1:]) if taking else list(groups)
    staged: list[StagedMeld] = []
    if taking:
        assert top is not None
        problem = take_problem(top, groups[0], own.get(str(m.num(top))))
        staged.append(StagedMeld(problem is None, m.count_value([top, *groups[0]]) if problem is None else 0, problem))
    for meld in melds:
        problem = new_meld_problem(m.meld_number(meld), meld)
        staged.append(StagedMeld(problem is None, m.count_value(meld) if problem is None else 0, problem))
    total = sum(s.value for s in staged)
    target = None if opened else int(view["thresholds"][team])
    out = tuple(staged)
    try:
        # In `apply`'s order (rules/canasta/laying.py): the pair for the top, the numbers, the tiles
        # joining the top, each meld, the threshold.
        if taking and top is not None:
            check_take_pair(top, view["hand"], groups[0])
        numbers = check_numbers(own, team, melds, taken=m.num(top) if taking and top is not None else None)
        if taking and top is not None and not staged[0].valid:
            meld = [top, *groups[0]] if staged[0].reason == "canasta_wrong_number" else \
                own.get(str(m.num(top)), []) + [top, *groups[0]]
            raise IllegalAction("E_INVALID_MELD", meld=meld, reason=staged[0].reason,
                                index=meld_ref(team, m.num(top)))
        check_valid(team, numbers, melds)
        if target is not None and total < target:
            raise IllegalAction("E_THRESHOLD", value=total, required=target)
    except IllegalAction as err:
        return StageReport.refused(out, total, target, "points", err)
    return StageReport(out, total, target)
