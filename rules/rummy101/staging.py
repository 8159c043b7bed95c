"""Rummy 101's judge of staged melds (issue 25): each meld by the engine's own meld check (R101-2x)
and the batch by the checks `apply` makes of an opening (R101-30..33) or of melds laid after it
(R101-33/36/37), from one seat's view only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.core.errors import IllegalAction
from rules.core.staging import StagedMeld, StageReport, Unit
from rules.rummy101 import melds as M
from rules.rummy101.uses import PAIRS, SERIES, UNOPENED, check_meld_types, check_pairs, opening_kind, opening_score


def stage_report(view: dict[str, Any], groups: Sequence[Sequence[str]]) -> StageReport:
    seat = view.get("you")
    if seat is None or not groups:
        return StageReport()
    staged: list[StagedMeld] = []
    records: list[M.Meld] = []
    first_bad: IllegalAction | None = None
    for i, group in enumerate(groups, start=1):
        try:
            record = M.analyse(list(group))
        except M.InvalidMeld as err:
            staged.append(StagedMeld(False, 0, f"rummy101_{err.reason}"))
            first_bad = first_bad or IllegalAction("E_INVALID_MELD", index=i, meld=list(group),
                                                   reason=f"rummy101_{err.reason}")
            continue
        records.append(record)
        staged.append(StagedMeld(True, M.meld_value(record)))
    melds = tuple(staged)
    status = view["status"][seat]
    thresholds = view["thresholds"]
    pairs = bool(records) and opening_kind_or_none(records) == PAIRS
    unit: Unit = "pairs" if pairs and status != SERIES else "points"
    total = len(records) if unit == "pairs" else sum(m.value for m in melds)
    target = (thresholds["pairs"] if pairs else thresholds["series"]) if status == UNOPENED else None
    try:
        if first_bad is not None:
            raise first_bad
        if status == UNOPENED:
            opening_kind(records)
            check_pairs(view.get("table") or [], seat, records)
            opening_score(records, thresholds)
        else:
            check_pairs(view.get("table") or [], seat, records)
            check_meld_types(records, [list(g) for g in groups], status, PAIRS in view["status"])
    except IllegalAction as err:
        return StageReport.refused(melds, total, target, unit, err)
    return StageReport(melds, total, target, unit)


def opening_kind_or_none(records: list[M.Meld]) -> str | None:
    """SERIES or PAIRS, None for a mix (which the batch check refuses)."""
    try:
        return opening_kind(records)
    except IllegalAction:
        return None
