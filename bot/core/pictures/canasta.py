"""Tile Canasta pictures: each team's melds by number, referenced as commands name them (`A:8s`),
every tile shown, with the canasta (gold, ★ CANASTA kind) and one-to-go (orange, ▲) markers of the
text (CAN-33 / D-20); bonus threes, thresholds and totals; the hand grouped by number."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.pictures.common import player_lines, turn_line
from bot.core.pictures.pieces import Piece, tile
from bot.core.pictures.sheet import Block, Sheet, Tone
from bot.core.render.canasta import TEAM_LETTERS, meld_ref


def _marker(meld: dict[str, Any], lang: str) -> tuple[str, Tone]:
    if meld["canasta"]:
        kind = t(f"canasta.kind.{meld['canasta']}", lang)
        return t("canasta.meld.canasta", lang, kind=kind).strip(" ·"), "canasta"
    if meld["one_to_go"]:
        return t("canasta.meld.one_to_go", lang).strip(" ·"), "close"
    return "", "plain"


def meld_block(team: int, meld: dict[str, Any], lang: str) -> Block:
    marker, tone = _marker(meld, lang)
    caption = [str(meld["value"])] + ([marker] if marker else [])
    return Block(meld_ref(team, meld["number"]), [tile(c) for c in meld["tiles"]], caption, tone)


def bonus_block(view: dict[str, Any], team: int, lang: str) -> Block:
    """A team's bonus threes laid aside (CAN-40, CAN-45), captioned with what they count now: +100 each
    once the team has opened, -100 each before."""
    zone = view["bonus"][team]
    value = (100 if view["opened"][team] else -100) * len(zone)
    return Block("", [tile(c) for c in zone], [t("pictures.threes", lang, value=value)], "plain")


def _team(sheet: Sheet, view: dict[str, Any], team: int, names: list[str], lang: str) -> None:
    members = ", ".join(names[s] for s in view["teams"][team])
    if view["opened"][team]:
        status = t("canasta.table.opened", lang)
    else:
        status = t("canasta.table.not_opened", lang, threshold=view["thresholds"][team])
    sheet.gap(4)
    sheet.text(t("canasta.table.team", lang, team=TEAM_LETTERS[team], names=members, total=view["totals"][team],
                 status=status), bold=True)
    if view["bonus"][team]:
        block = bonus_block(view, team, lang)
        sheet.pieces([block.pieces], label=block.caption[0])
    if view["melds"][team]:
        sheet.blocks([meld_block(team, m, lang) for m in view["melds"][team]])
    else:
        sheet.text(t("canasta.table.no_melds", lang).strip(), muted=True)


def table(view: dict[str, Any], names: list[str], lang: str, sheet: Sheet) -> Sheet:
    game = t("game.canasta", lang)
    common = {"game": game, "round": view["round"], "stock": view["stock"], "pile": view["pile_size"], "top": ""}
    length = view["match_length"]
    if length == "target 10000":
        sheet.text(t("canasta.table.header_target", lang, **common), bold=True)
    else:
        rounds = int(length.split()[0])
        key = "canasta.table.header_extra" if view["round"] > rounds else "canasta.table.header"
        sheet.text(t(key, lang, rounds=rounds, **common), bold=True)
    turn = view["turn"]
    turn_line(sheet, turn, names, lang)
    if view["round_over"] is not None:
        sheet.text(t("canasta.table.round_over", lang), bold=True)
    if view["top"]:
        sheet.pieces([[tile(view["top"])]], label=t("pictures.top", lang))
    for team in range(2):
        _team(sheet, view, team, names, lang)
    if view["exhausted"] and view["round_over"] is None:
        sheet.text(t("canasta.table.exhausted", lang), bold=True)
    lines = [
        t("canasta.table.player_line", lang, seat=seat + 1, name=name, team=TEAM_LETTERS[seat % 2],
          tiles=view["hand_sizes"][seat], joker=t("canasta.table.joker_used", lang) if view["joker_used"][seat] else "")
        for seat, name in enumerate(names)
    ]
    player_lines(sheet, lines, turn, lang)
    return sheet


def hand_groups(tiles: list[str]) -> list[list[Piece]]:
    """By number, as the text groups them (bot/core/render/canasta.py format_hand)."""
    groups: list[list[Piece]] = []
    last = None
    for code in tiles:
        key = code[1:] if code != "j" else "j"
        if groups and key == last:
            groups[-1].append(tile(code))
        else:
            groups.append([tile(code)])
        last = key
    return groups


def hand(view: dict[str, Any], lang: str, by_number: bool = False) -> Sheet:
    sheet = Sheet()
    tiles, team = view["hand"], view["team"]
    letter = TEAM_LETTERS[team]
    sheet.text(t("canasta.hand.title", lang, count=len(tiles), team=letter), bold=True)
    if tiles:
        sheet.pieces(hand_groups(tiles))
    else:
        sheet.text("—")
    if view["opened"][team]:
        sheet.text(t("canasta.hand.opened", lang, team=letter))
    else:
        sheet.text(t("canasta.hand.not_opened", lang, team=letter, threshold=view["thresholds"][team],
                     best=view.get("best_opening") or 0))
    key = "canasta.hand.can_go_out" if any(m["canasta"] for m in view["melds"][team]) else "canasta.hand.no_canasta"
    sheet.text(t(key, lang))
    if view["turn"] == view["you"]:
        if view["phase"] == "draw":
            if view.get("take_hint"):
                sheet.text(t("canasta.hand.can_take", lang, command=view["take_hint"]))
            if view["joker_button"] and not view["joker_used"][view["you"]]:
                sheet.text(t("canasta.hand.joker_available", lang))
            sheet.text(t("canasta.hand.your_turn_draw", lang), bold=True)
        else:
            sheet.text(t("canasta.hand.your_turn_play", lang), bold=True)
    return sheet
