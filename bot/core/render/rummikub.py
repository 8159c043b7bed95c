"""Rummikub text: numbered melds, racks grouped by colour, the draft with valid/invalid marks."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from bot.core.i18n import t
from bot.core.render.common import join_items, said
from rules import Event


def format_meld(meld: dict[str, Any]) -> str:
    body = join_items(meld["tiles"])
    return f"G:{body}" if meld.get("prefix") == "G" else body


def format_rack(tiles: list[str], by_number: bool = False) -> str:
    """Tiles grouped by colour (or by number), groups two spaces apart; the colour letter stays on
    every tile so nothing depends on seeing colour."""
    key = _number_of if by_number else _colour_of
    return "  ".join(join_items(group) for _, group in groupby(tiles, key=key))


def _number_of(tile: str) -> str:
    return tile[1:] if tile != "j" else "j"


def _colour_of(tile: str) -> str:
    return tile[0]


def render_table(
    view: dict[str, Any], names: list[str], lang: str, seconds_left: int | None, viewer: int | None = None
) -> str:
    game = t("game.rummikub", lang)
    extra = view["round"] > view["match_games"]
    header = "table.header_extra" if extra else "table.header"
    lines = [t(header, lang, game=game, round=view["round"], rounds=view["match_games"], pool=view["pool"])]
    turn = view["turn"]
    if turn is not None:
        if seconds_left is None:
            lines.append(t("table.turn", lang, name=names[turn]))
        else:
            lines.append(t("table.turn_deadline", lang, name=names[turn], seconds=seconds_left))
    if view["table"]:
        lines.append(t("table.melds", lang))
        for n, meld in enumerate(view["table"], start=1):
            lines.append(
                t("table.meld_line", lang, n=n, tiles=format_meld(meld), kind=t(f"meld.{meld['type']}", lang),
                  value=meld["value"])
            )
    else:
        lines.append(t("table.empty", lang))
    if view["round_over"] is None:
        if view["passes_left"] is not None:
            lines.append(t("table.pool_empty_blocked", lang, left=view["passes_left"]))
        elif view["turns_left"] is not None:
            lines.append(t("table.pool_empty_one_more", lang, left=view["turns_left"]))
    lines.append(t("table.players", lang))
    for seat, name in enumerate(names):
        opened = t("table.opened" if view["opened"][seat] else "table.not_opened", lang)
        lines.append(
            t("table.player_line", lang, seat=seat + 1, name=name, tiles=view["rack_sizes"][seat], opened=opened,
              total=view["totals"][seat])
        )
    return "\n".join(lines)


def render_hand(view: dict[str, Any], lang: str, by_number: bool = False) -> str:
    rack = view["rack_by_number"] if by_number else view["rack"]
    lines = [t("hand.title", lang, count=len(rack)), "  " + format_rack(rack, by_number)]
    you = view["you"]
    if not view["opened"][you]:
        lines.append(t("hand.not_opened", lang, required=view["initial_meld_min"]))
        if view.get("best_opening") is not None:
            lines.append(t("hand.best_opening", lang, value=view["best_opening"], required=view["initial_meld_min"]))
    draft = view.get("draft")
    if draft:
        lines.append(t("hand.draft", lang))
        lines += [_draft_line(n, meld, lang) for n, meld in enumerate(draft["melds"], start=1)]
        lines.append(t("hand.draft_rack", lang, tiles=format_rack(draft["rack"]) or "—"))
        if not view["opened"][you]:
            lines.append(t("hand.draft_new_value", lang, value=draft["new_value"], required=view["initial_meld_min"]))
    if view["turn"] == you:
        lines.append(t("hand.your_turn", lang))
    return "\n".join(lines)


def _draft_line(n: int, meld: dict[str, Any], lang: str) -> str:
    if meld["valid"]:
        mark = t("hand.draft_valid", lang, value=meld["value"])
    else:
        mark = t("hand.draft_invalid", lang, reason=t(f"meld_reason.{meld['reason']}", lang))
    return t("hand.draft_line", lang, n=n, tiles=format_meld(meld), mark=mark)


def render_event(event: Event, names: list[str], viewer: int | None, lang: str) -> str | None:
    d = event.data
    seat = d.get("seat")
    name = names[seat] if seat is not None else ""
    match event.type:
        case "MeldsPlayed":
            key = "event.MeldsPlayed_opened" if d["opened_now"] else "event.MeldsPlayed"
            head = said(key, lang, seat, viewer, name=name, count=len(d["added"]), tiles=join_items(d["added"]))
            return "\n".join([head, *_change_lines(d.get("changes"), lang)])
        case "DraftChanged":
            return _draft_step(d, lang)
        case "TileDrawn":
            if d["reason"] == "timeout":
                return said("event.TileDrawn_timeout", lang, seat, viewer, name=name, count=d["count"])
            return said("event.TileDrawn", lang, seat, viewer, name=name)
        case "TilesReceived":
            return t("event.TilesReceived", lang, tiles=join_items(d["tiles"]))
        case "Passed":
            return said("event.Passed", lang, seat, viewer, name=name)
        case "TimedOut":
            return said("event.TimedOut_pass", lang, seat, viewer, name=name) if d["penalty"] == 0 else None
        case "PoolEmptied":
            return t("event.PoolEmptied", lang)
        case "RoundScored":
            return _round_summary(d, names, viewer, lang)
        case "MatchEnded":
            return t("event.MatchEnded", lang, names=", ".join(names[w] for w in d["winners"]))
        case "TieBreakNeeded":
            return t("event.TieBreakNeeded", lang, names=", ".join(names[w] for w in d["leaders"]))
        case "NextRound":
            return said("event.NextRound", lang, seat, viewer, round=d["round"], name=name)
    return None  # TurnStarted: the refreshed table says it


def _round_summary(d: dict[str, Any], names: list[str], viewer: int | None, lang: str) -> str:
    if d["reason"] == "out":
        winner = d["winners"][0]
        how = said("event.round_out", lang, winner, viewer, name=names[winner])
    else:
        how = t("event.round_empty_pool", lang)
    lines = [t("event.RoundScored", lang, round=d["round"], how=how)]
    for seat, name in enumerate(names):
        lines.append(
            t("event.round_line", lang, name=name, rack=join_items(d["racks"][seat]) or "—", value=d["values"][seat],
              score=d["scores"][seat], total=d["totals"][seat])
        )
    return "\n".join(lines)


def _numbered(melds: list[dict[str, Any]], lang: str) -> str:
    return " · ".join(t("event.change_meld", lang, n=m["n"], tiles=format_meld(m)) for m in melds)


def _change_lines(changes: dict[str, Any] | None, lang: str) -> list[str]:
    """What a play changed, meld by meld, in the numbers of the table shown after it."""
    if not changes:
        return []  # an event stored before plays carried their changes
    lines = [t("event.change_new", lang, n=m["n"], tiles=format_meld(m)) for m in changes["new"]]
    for m in changes["extended"]:
        key = "event.change_extended" if m["n"] == m["was"] else "event.change_extended_moved"
        lines.append(t(key, lang, n=m["n"], was=m["was"], added=join_items(m["added"]), tiles=format_meld(m)))
    moved = changes["rearranged"]
    if moved:
        before, after = _numbered(moved["before"], lang), _numbered(moved["after"], lang)
        if moved["from_rack"]:
            lines.append(t("event.change_rearranged_rack", lang, before=before, after=after,
                           tiles=join_items(moved["from_rack"])))
        else:
            lines.append(t("event.change_rearranged", lang, before=before, after=after))
    lines += [t("event.change_joker", lang, was=j["was"], n=j["n"], tile=j["tile"]) for j in changes["jokers"]]
    if changes["renumbered"]:
        lines.append(t("event.change_renumbered", lang))
    return lines


def _draft_step(d: dict[str, Any], lang: str) -> str:
    """One draft command's note: only the melds it changed and the rack, not the whole draft."""
    if d.get("reset"):
        lines = [t("event.DraftChanged_reset", lang)]
    else:
        lines = [t("event.DraftChanged", lang)]
        lines += [_draft_line(m["n"], m, lang) for m in d.get("changed", [])]
        lines += [t("event.DraftChanged_gone", lang, n=n) for n in d.get("removed", [])]
    if "rack" in d:
        lines.append(t("hand.draft_rack", lang, tiles=format_rack(d["rack"]) or "—"))
    if "new_value" in d and not d.get("opened", True):
        lines.append(t("hand.draft_new_value", lang, value=d["new_value"], required=d["required"]))
    return "\n".join(lines)
