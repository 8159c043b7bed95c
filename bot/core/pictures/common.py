"""Picture parts every game draws the same way: whose turn (or an ended table's result), the players'
lines."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.pictures.sheet import Sheet
from rules import get_engine
from storage import TableRecord


def turn_line(sheet: Sheet, turn: int | None, names: list[str], lang: str) -> None:
    """Whose turn, without the seconds left nor the phase: a picture is cached per table version, the
    clock moves between versions (the message around the picture carries the time), and the group's
    table is edited once a turn is over, so a phase named there would be stale after the first step."""
    if turn is not None:
        sheet.text(t("table.turn", lang, name=names[turn]), bold=True)


def ended_line(sheet: Sheet, rec: TableRecord, names: list[str], lang: str) -> None:
    """An ended table's result in place of whose turn it was: the match's winners, or that the table
    was ended before its match was over."""
    result = get_engine(rec.game).result(rec.state) if rec.state is not None else None
    if rec.status == "finished" and result is not None and result.match_over and result.match_winners:
        won = ", ".join(names[s] for s in result.match_winners)
        sheet.text(t("pictures.match_won", lang, names=won), bold=True)
    elif rec.status == "finished":
        sheet.text(t("pictures.match_over", lang), bold=True)
    else:
        sheet.text(t("lobby.abandoned", lang), bold=True)


def player_lines(sheet: Sheet, lines: list[str], turn: int | None, lang: str) -> None:
    """The players' lines from the text renderer's sentences, the seat to act in bold with a marker."""
    sheet.gap(4)
    sheet.text(t("table.players", lang))
    for seat, line in enumerate(lines):
        mine = seat == turn
        sheet.text(("▶ " + line.strip()) if mine else "   " + line.strip(), bold=mine)
