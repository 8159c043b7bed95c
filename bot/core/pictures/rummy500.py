"""Rummy 500 pictures: the market in order with its positions (`#1` next to the bank, as `take 3`
counts), burned cards marked, structures by ID (`S2`, as `lay … on S2`) with owners and each
joker's identity; the hand with what each market take would bring."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.pictures.common import player_lines, turn_line
from bot.core.pictures.pieces import Piece, card
from bot.core.pictures.sheet import Block, Sheet
from bot.core.render.rummy500 import _hand_text, _owners_text, _take_line, card_text


def structure_pieces(s: dict[str, Any]) -> list[Piece]:
    """Cards of a structure; a joker carries its identity (`7C`) or, for a set joker still open, `8?`."""
    out = []
    for i, code in enumerate(s["cards"]):
        rank = s["rank"] if s["kind"] == "set" else s["low"] + i
        shown = card_text(code, s["jokers"].get(str(i)), rank)
        out.append(card(code, note=shown[3:]) if shown.startswith("JK=") else card(code))
    return out


def structure_block(s: dict[str, Any], names: list[str], lang: str) -> Block:
    kind = t(f"rummy500.kind.{s['kind']}", lang)
    caption = f"{kind} {s['value']}"
    if s["kind"] == "set" and s.get("branch"):
        caption += " " + t("rummy500.table.has_branch", lang, branch=f"S{s['branch']}")
    elif s["kind"] == "run" and s.get("branch_of"):
        caption += " " + t("rummy500.table.branch_of", lang, set=f"S{s['branch_of']}")
    lines = [caption, _owners_text(s, names)]
    lines += [t("rummy500.table.pending", lang, cards=" / ".join(c)).lstrip("· ")
              for c in s["jokers"].values() if len(c) > 1]
    return Block(f"S{s['id']}", structure_pieces(s), lines)


def table(view: dict[str, Any], names: list[str], lang: str, sheet: Sheet) -> Sheet:
    sheet.text(t("rummy500.table.header", lang, game=t("game.rummy500", lang), round=view["round"],
                 bank=view["bank"], target=view["target_score"]), bold=True)
    turn_line(sheet, view["turn"], names, lang)
    sheet.gap()
    if view["market"]:
        sheet.text(t("pictures.market", lang))
        burned = set(view["burned"])
        sheet.blocks([Block(f"#{i}", [card(c)], (), "bad" if c in burned else "plain")
                      for i, c in enumerate(view["market"], start=1)])
    else:
        sheet.text(t("rummy500.table.market_empty", lang), muted=True)
    if view["table"]:
        sheet.text(t("rummy500.table.structures", lang))
        sheet.blocks([structure_block(s, names, lang) for s in view["table"]])
    else:
        sheet.text(t("rummy500.table.empty", lang), muted=True)
    if view["burned"]:
        sheet.text(t("rummy500.table.burned", lang, cards=" ".join(view["burned"])))
    if view["bank"] == 0 and view["round_over"] is None:
        sheet.text(t("rummy500.table.bank_empty", lang), bold=True)
    lines = [
        t("rummy500.table.player_line", lang, seat=seat + 1, name=name, cards=view["hand_sizes"][seat],
          laid=view["laid"][seat], total=view["totals"][seat],
          dealer=t("rummy500.table.dealer", lang) if seat == view["dealer"] else "")
        for seat, name in enumerate(names)
    ]
    player_lines(sheet, lines, view["turn"], lang)
    return sheet


def hand_groups(cards: list[str], by_number: bool) -> list[list[Piece]]:
    """The text's grouping (by suit, jokers together; or one row by rank)."""
    return [[card(c) for c in group.split()] for group in _hand_text(cards, by_number).split("  ") if group]


def hand(view: dict[str, Any], lang: str, by_number: bool = False) -> Sheet:
    sheet = Sheet()
    cards = view["hand"]
    sheet.text(t("rummy500.hand.title", lang, count=t("count.cards", lang, n=len(cards)),
                 value=t("count.points", lang, n=view["hand_value"])), bold=True)
    sheet.pieces(hand_groups(cards, by_number))
    if view["turn"] == view["you"]:
        phase = view["phase"]
        if phase == "take":
            sheet.text(t("rummy500.hand.phase_take", lang), bold=True)
            for entry in view["takes"] or []:
                sheet.text("  " + _take_line(entry, lang))
            if view["bank"] == 0:
                sheet.text(t("rummy500.hand.bank_empty", lang))
        elif phase == "bank":
            if view.get("drawn"):
                sheet.pieces([[card(view["drawn"])]], label=t("rummy500.hand.drawn", lang, card=view["drawn"]))
            sheet.text(t("rummy500.hand.phase_bank", lang, bonus=view["go_out_bonus"]), bold=True)
        elif phase == "market":
            sheet.text(t("rummy500.hand.phase_market", lang), bold=True)
    return sheet
