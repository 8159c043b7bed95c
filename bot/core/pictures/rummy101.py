"""Rummy 101 pictures: melds numbered as `add 4 …` names them, each joker with the tile it stands
for, owners and values; the discard (and whether it may be taken), thresholds, statuses; the hand
grouped as the text groups it, with the best opening before opening."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.pictures.common import player_lines, turn_line
from bot.core.pictures.pieces import Piece, tile
from bot.core.pictures.rummikub import rack_groups
from bot.core.pictures.sheet import Block, Sheet
from bot.core.render.rummy101 import _opening_counts


def shown_piece(shown: str) -> Piece:
    """`j=r7` (a joker in a run) or `j=11` (in a set): the joker tile with what it represents."""
    if shown.startswith("j="):
        return tile("j", note=shown[2:])
    return tile(shown)


def meld_block(meld: dict[str, Any], names: list[str], lang: str) -> Block:
    kind = t(f"rummy101.kind.{meld['kind']}", lang)
    return Block(str(meld["n"]), [shown_piece(s) for s in meld["shown"]], [f"{kind} {meld['value']}",
                                                                          names[meld["owner"]]])


def table(view: dict[str, Any], names: list[str], lang: str, sheet: Sheet) -> Sheet:
    header = "rummy101.table.header_extra" if view["round"] > view["match_rounds"] else "rummy101.table.header"
    sheet.text(t(header, lang, game=t("game.rummy101", lang), round=view["round"], rounds=view["match_rounds"],
                 stock=view["stock"]), bold=True)
    mode = t(f"rummy101.table.mode_{view['threshold_mode']}", lang)
    sheet.text(t("rummy101.table.thresholds", lang, **_opening_counts(view["thresholds"], lang), mode=mode))
    if view["joker_button"] == "on":
        used = [names[s] for s, u in enumerate(view["joker_used"]) if u]
        sheet.text(t("rummy101.table.joker_button", lang,
                     used=", ".join(used) or t("rummy101.table.nobody", lang)))
    turn = view["turn"]
    turn_line(sheet, turn, names, lang)
    top = view["discard_top"]
    if top is None:
        sheet.text(t("rummy101.table.discard_empty", lang))
    else:
        key = "rummy101.table.discard_takable" if view["can_take"] else "rummy101.table.discard"
        sheet.pieces([[tile(top)]], label=t(key, lang, tile=top))
    if view["last_stock"] and view["round_over"] is None:
        sheet.text(t("rummy101.table.last_stock", lang), bold=True)
    if view["table"]:
        sheet.blocks([meld_block(m, names, lang) for m in view["table"]])
    else:
        sheet.text(t("rummy101.table.empty", lang), muted=True)
    lines = [
        t("rummy101.table.player_line", lang, seat=seat + 1, name=name, tiles=view["hand_sizes"][seat],
          status=t(f"rummy101.status.{view['status'][seat]}", lang), total=view["totals"][seat])
        for seat, name in enumerate(names)
    ]
    player_lines(sheet, lines, turn, lang)
    return sheet


def hand(view: dict[str, Any], lang: str, by_number: bool = False) -> Sheet:
    sheet = Sheet()
    tiles = view["hand_by_number"] if by_number else view["hand"]
    sheet.text(t("rummy101.hand.title", lang, count=len(tiles)), bold=True)
    sheet.pieces(rack_groups(tiles, by_number))
    you = view["you"]
    status = view["status"][you]
    if status == "unopened":
        sheet.text(t("rummy101.hand.not_opened", lang, **_opening_counts(view["thresholds"], lang)))
        if view.get("best_opening") is not None:
            sheet.text(t("rummy101.hand.best_opening", lang, **_opening_counts(view["best_opening"], lang)))
    else:
        sheet.text(t("rummy101.hand.opened", lang, status=t(f"rummy101.status.{status}", lang)))
    if view["turn"] == you:
        if view["phase"] == "draw":
            if view["can_take"]:
                sheet.text(t("rummy101.hand.can_take", lang, tile=view["discard_top"]))
            sheet.text(t("rummy101.hand.your_turn_draw", lang), bold=True)
        else:
            sheet.text(t("rummy101.hand.your_turn_play", lang), bold=True)
    return sheet
