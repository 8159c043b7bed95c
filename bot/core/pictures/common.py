"""Picture parts every game draws the same way: whose turn, the players' lines."""

from __future__ import annotations

from bot.core.i18n import t
from bot.core.pictures.sheet import Sheet


def turn_line(sheet: Sheet, turn: int | None, names: list[str], lang: str, key: str = "table.turn",
              **params: object) -> None:
    """Whose turn, without the seconds left: a picture is cached per table version, and the clock
    moves between versions (the message text around the picture carries the time)."""
    if turn is not None:
        sheet.text(t(key, lang, name=names[turn], **params), bold=True)


def player_lines(sheet: Sheet, lines: list[str], turn: int | None, lang: str) -> None:
    """The players' lines from the text renderer's sentences, the seat to act in bold with a marker."""
    sheet.gap(4)
    sheet.text(t("table.players", lang))
    for seat, line in enumerate(lines):
        mine = seat == turn
        sheet.text(("▶ " + line.strip()) if mine else "   " + line.strip(), bold=mine)
