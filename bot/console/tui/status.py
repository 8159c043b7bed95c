"""The status line of the full-screen table: whose turn, each seat's count and score, your opening
against its threshold (in the games that have one), and the turn timer counting down. Built from the
views the engines give every surface; the seconds left are the terminal's own (the injected clock).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.i18n import t
from bot.core.render.common import names
from storage import TableRecord

WARN_S = 10  # the countdown warns in its last seconds (or its last fifth, when that is shorter)


@dataclass(frozen=True)
class Status:
    """`text` without the countdown, which the screen adds each second from `deadline`."""

    text: str
    deadline: float | None  # epoch seconds: the turn timer of the seat on turn (None: no timer)
    timer_s: int  # the table's turn timer (0: off)
    mine: bool  # it is your turn
    lang: str = "en"


def status_of(rec: TableRecord, view: dict[str, Any], seat: int | None, lang: str) -> Status:
    if rec.state is None or not view:
        return Status("", None, 0, False, lang)
    shown = names(rec, seat, lang)
    parts: list[str] = []
    turn = view.get("turn")
    if rec.status != "playing":
        parts.append(t("tui.status.over", lang))
    elif isinstance(turn, int):
        parts.append(t("tui.status.your_turn", lang) if turn == seat else t("tui.status.turn", lang, name=shown[turn]))
    if isinstance(view.get("round"), int):
        parts.append(t("tui.status.round", lang, n=view["round"]))
    parts.append(_scores(view, shown, lang))
    if seat is not None and (opening := _opening(view, seat, lang)):
        parts.append(opening)
    timer = int(rec.options.get("turn_timer_s") or 0)
    deadline = rec.deadline if rec.status == "playing" and timer else None
    return Status(" · ".join(p for p in parts if p), deadline, timer, rec.status == "playing" and turn == seat,
                  lang)


def _scores(view: dict[str, Any], shown: list[str], lang: str) -> str:
    """`You 14·0 AI 1 12·35`: each seat's tiles or cards in hand, then its score (team games: the teams'
    scores after the seats' counts)."""
    sizes = view.get("rack_sizes") or view.get("hand_sizes") or []
    totals = view.get("totals") or []
    teams = view.get("teams")
    seats = []
    for i, name in enumerate(shown):
        size = sizes[i] if i < len(sizes) else None
        score = totals[i] if not teams and i < len(totals) else None
        bits = "·".join(str(x) for x in (size, score) if x is not None)
        seats.append(f"{name} {bits}".strip())
    line = t("tui.status.seats", lang, seats=", ".join(seats))
    if teams and totals:
        line += " · " + t("tui.status.teams", lang, scores=" : ".join(str(x) for x in totals))
    return line


def _opening(view: dict[str, Any], seat: int, lang: str) -> str:
    """Your opening against its threshold, while you have not opened: the draft's value (Rummikub)
    or the best opening your hand holds now."""
    if view.get("game") == "rummikub" and view.get("opened") and not view["opened"][seat]:
        draft = view.get("draft")
        got = draft.get("new_value") if isinstance(draft, dict) else None
        return t("tui.status.opening", lang, got=got if got is not None else view.get("best_opening", 0),
                 need=view.get("initial_meld_min"))
    if view.get("game") == "rummy101" and view.get("status") and view["status"][seat] == "unopened":
        best, need = view.get("best_opening") or {}, view.get("thresholds") or {}
        return t("tui.status.opening", lang, got=best.get("series", 0), need=need.get("series"))
    if view.get("game") == "canasta" and isinstance(view.get("team"), int) and not view["opened"][view["team"]]:
        return t("tui.status.opening", lang, got=view.get("best_opening", 0), need=view["thresholds"][view["team"]])
    return ""


def countdown(status: Status, now: float) -> tuple[str, bool]:
    """The timer part of the status line and whether it warns (its last seconds, or run out)."""
    if status.deadline is None:
        return "", False
    left = max(0, int(status.deadline - now + 0.999))
    if left == 0:
        return t("tui.status.time_up", status.lang), True
    minutes, seconds = divmod(left, 60)
    return f"⏱ {minutes}:{seconds:02d}", left <= min(WARN_S, max(1, status.timer_s // 5))
