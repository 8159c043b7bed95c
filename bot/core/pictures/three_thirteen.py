"""Three-Thirteen pictures: the round, the wild rank (named in the header and every wild card edged
in gold, its rank and suit still printed), the discard pile's top card, stock, totals; the hand with
the engine's best melds and the deadwood."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.pictures.common import player_lines, turn_line
from bot.core.pictures.pieces import Piece, card
from bot.core.pictures.sheet import Sheet
from bot.core.render.common import said
from bot.core.render.three_thirteen import _rank_key, _summary, _wild_text
from bot.core.render.three_thirteen import player_lines as text_player_lines

JOKER = "JK"


def wild_card(code: str, view: dict[str, Any]) -> Piece:
    """A card, edged as wild when it is of this round's wild rank (T13: the round's rank) or a joker."""
    return card(code, wild=code == JOKER or code[:-1] == view["wild"])


def table(view: dict[str, Any], names: list[str], lang: str, sheet: Sheet) -> Sheet:
    sheet.text(t("three_thirteen.table.header", lang, game=t("game.three_thirteen", lang), round=view["round"],
                 rounds=view["rounds"], cards=view["hand_size"], wild=_wild_text(view, lang)), bold=True)
    piles = t("three_thirteen.table.piles", lang, top=view["discard_top"] or "—", pile=view["discard_size"],
              stock=view["stock"])
    if view["discard_top"]:
        sheet.pieces([[wild_card(view["discard_top"], view)]], label=piles)
    else:
        sheet.text(piles)
    turn_line(sheet, view["turn"], names, lang)
    if view["out"] is not None and view["round_over"] is None:
        sheet.text(said("three_thirteen.table.out", lang, view["out"], None, name=names[view["out"]],
                        left=view["last_turns_left"]), bold=True)
    lines = text_player_lines(view, names, lang)
    player_lines(sheet, lines, view["turn"], lang)
    if view["round_over"] is not None:
        sheet.gap()
        sheet.text(_summary(view["round"], view["round_over"], view["totals"], names, None, lang))
    return sheet


def hand(view: dict[str, Any], lang: str, by_number: bool = False) -> Sheet:
    sheet = Sheet()
    cards = sorted(view["hand"], key=_rank_key) if by_number else view["hand"]
    sheet.text(t("three_thirteen.hand.title", lang, count=len(cards), wild=_wild_text(view, lang)), bold=True)
    sheet.pieces([[wild_card(c, view) for c in cards]])
    if view["melds"]:
        label = t("three_thirteen.hand.melds", lang, melds="").strip()
        sheet.pieces([[wild_card(c, view) for c in meld] for meld in view["melds"]], label=label)
    if view["deadwood_cards"]:
        label = t("pictures.deadwood", lang, value=view["deadwood"])
        sheet.pieces([[wild_card(c, view) for c in view["deadwood_cards"]]], label=label)
    else:
        sheet.text(t("three_thirteen.hand.no_deadwood", lang).strip())
    if view["turn"] == view["you"]:
        top = view["discard_top"] or "—"
        if view["phase"] == "draw":
            key = "three_thirteen.hand.draw" if view["can_draw_stock"] else "three_thirteen.hand.take_only"
            sheet.text(t(key, lang, top=top), bold=True)
        elif view["taken"]:
            sheet.text(t("three_thirteen.hand.discard_taken", lang, card=view["taken"]), bold=True)
        else:
            sheet.text(t("three_thirteen.hand.discard", lang, card=view.get("drawn") or "?"), bold=True)
    return sheet
