"""Rummikub pictures: the table's melds numbered as `add 3 …` and the text number them, the players
with their rack sizes and totals; the rack grouped as the text groups it, and the draft with each
meld marked valid (green, ✓ value) or not (red, ✗ reason)."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from bot.core.i18n import t
from bot.core.pictures.common import player_lines, turn_line
from bot.core.pictures.pieces import Piece, tile
from bot.core.pictures.sheet import Block, Sheet, Tone


def meld_pieces(meld: dict[str, Any]) -> list[Piece]:
    return [tile(code) for code in meld["tiles"]]


def rack_groups(tiles: list[str], by_number: bool) -> list[list[Piece]]:
    """The text's grouping (bot/core/render/rummikub.py format_rack): by colour, or by number."""
    def key(code: str) -> str:
        if by_number:
            return code[1:] if code != "j" else "j"
        return code[0]

    return [[tile(c) for c in group] for _, group in groupby(tiles, key=key)]


def _caption(meld: dict[str, Any], lang: str) -> str:
    kind = t(f"meld.{meld['type']}", lang)
    prefix = "G: " if meld.get("prefix") == "G" else ""
    return f"{prefix}{kind} {meld['value']}"


def table(view: dict[str, Any], names: list[str], lang: str, sheet: Sheet) -> Sheet:
    header = "table.header_extra" if view["round"] > view["match_games"] else "table.header"
    sheet.text(t(header, lang, game=t("game.rummikub", lang), round=view["round"], rounds=view["match_games"],
                 pool=view["pool"]), bold=True)
    turn_line(sheet, view["turn"], names, lang)
    sheet.gap()
    if view["table"]:
        sheet.blocks([Block(str(n), meld_pieces(m), [_caption(m, lang)])
                      for n, m in enumerate(view["table"], start=1)])
    else:
        sheet.text(t("table.empty", lang), muted=True)
    if view["round_over"] is None:
        if view["passes_left"] is not None:
            sheet.text(t("table.pool_empty_blocked", lang, left=view["passes_left"]))
        elif view["turns_left"] is not None:
            sheet.text(t("table.pool_empty_one_more", lang, left=view["turns_left"]))
    lines = []
    for seat, name in enumerate(names):
        opened = t("table.opened" if view["opened"][seat] else "table.not_opened", lang)
        lines.append(t("table.player_line", lang, seat=seat + 1, name=name, tiles=view["rack_sizes"][seat],
                       opened=opened, total=view["totals"][seat]))
    player_lines(sheet, lines, view["turn"], lang)
    return sheet


def hand(view: dict[str, Any], lang: str, by_number: bool = False) -> Sheet:
    sheet = Sheet()
    rack = view["rack_by_number"] if by_number else view["rack"]
    sheet.text(t("hand.title", lang, count=len(rack)), bold=True)
    sheet.pieces(rack_groups(rack, by_number))
    you = view["you"]
    if not view["opened"][you]:
        sheet.text(t("hand.not_opened", lang, required=view["initial_meld_min"]))
        if view.get("best_opening") is not None:
            sheet.text(t("hand.best_opening", lang, value=view["best_opening"], required=view["initial_meld_min"]))
    draft = view.get("draft")
    if draft:
        sheet.gap()
        sheet.text(t("hand.draft", lang))
        blocks = []
        for n, meld in enumerate(draft["melds"], start=1):
            tone: Tone
            if meld["valid"]:
                mark, tone = t("hand.draft_valid", lang, value=meld["value"]), "ok"
            else:
                mark = t("hand.draft_invalid", lang, reason=t(f"meld_reason.{meld['reason']}", lang))
                tone = "bad"
            blocks.append(Block(str(n), meld_pieces(meld), [mark], tone))
        sheet.blocks(blocks)
        sheet.pieces(rack_groups(draft["rack"], False), label=t("hand.draft_rack", lang, tiles="").rstrip())
        if not view["opened"][you]:
            sheet.text(t("hand.draft_new_value", lang, value=draft["new_value"], required=view["initial_meld_min"]))
    if view["turn"] == you:
        sheet.text(t("hand.your_turn", lang), bold=True)
    return sheet
