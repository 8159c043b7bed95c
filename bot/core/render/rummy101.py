"""Rummy 101 text: numbered melds with owners and joker representations, the top discard and whether
it may be taken, opening statuses and thresholds, and — before opening — the best opening in hand."""

from __future__ import annotations

from itertools import groupby
from typing import Any

from bot.core.i18n import t
from bot.core.render.common import join_items, said
from rules import Event


def format_hand(tiles: list[str], by_number: bool = False) -> str:
    """Tiles grouped by colour (or by number), groups two spaces apart; the colour letter stays on
    every tile so nothing depends on seeing colour."""
    key = _number_of if by_number else _colour_of
    return "  ".join(join_items(group) for _, group in groupby(tiles, key=key))


def _number_of(tile: str) -> str:
    return tile[1:] if tile != "j" else "j"


def _colour_of(tile: str) -> str:
    return tile[0]


def _meld_text(meld: dict[str, Any]) -> str:
    body = join_items(meld["shown"])
    return f"({body})" if meld["kind"] == "pair" else f"[{body}]"


def render_table(
    view: dict[str, Any], names: list[str], lang: str, seconds_left: int | None, viewer: int | None = None
) -> str:
    game = t("game.rummy101", lang)
    header = "rummy101.table.header_extra" if view["round"] > view["match_rounds"] else "rummy101.table.header"
    lines = [t(header, lang, game=game, round=view["round"], rounds=view["match_rounds"], stock=view["stock"])]
    th = view["thresholds"]
    mode = t(f"rummy101.table.mode_{view['threshold_mode']}", lang)
    lines.append(t("rummy101.table.thresholds", lang, **_opening_counts(th, lang), mode=mode))
    if view["joker_button"] == "on":
        used = [names[s] for s, u in enumerate(view["joker_used"]) if u]
        lines.append(t("rummy101.table.joker_button", lang, used=", ".join(used) or t("rummy101.table.nobody", lang)))
    turn = view["turn"]
    if turn is not None:
        phase = t(f"rummy101.table.phase_{view['phase']}", lang)
        if seconds_left is None:
            lines.append(t("rummy101.table.turn_phase", lang, name=names[turn], phase=phase))
        else:
            lines.append(t("rummy101.table.turn_phase_deadline", lang, name=names[turn], phase=phase, seconds=seconds_left))
    top = view["discard_top"]
    if top is None:
        lines.append(t("rummy101.table.discard_empty", lang))
    else:
        key = "rummy101.table.discard_takable" if view["can_take"] else "rummy101.table.discard"
        lines.append(t(key, lang, tile=top))
    if view["last_stock"] and view["round_over"] is None:
        lines.append(t("rummy101.table.last_stock", lang))
    if view["table"]:
        lines.append(t("rummy101.table.melds", lang))
        for meld in view["table"]:
            lines.append(
                t("rummy101.table.meld_line", lang, n=meld["n"], tiles=_meld_text(meld),
                  kind=t(f"rummy101.kind.{meld['kind']}", lang), value=meld["value"], owner=names[meld["owner"]])
            )
    else:
        lines.append(t("rummy101.table.empty", lang))
    lines.append(t("table.players", lang))
    for seat, name in enumerate(names):
        lines.append(
            t("rummy101.table.player_line", lang, seat=seat + 1, name=name, tiles=view["hand_sizes"][seat],
              status=t(f"rummy101.status.{view['status'][seat]}", lang), total=view["totals"][seat])
        )
    return "\n".join(lines)


def _opening_counts(counts: dict[str, int], lang: str) -> dict[str, str]:
    """Points and pairs as counted words ("74 points" / "74 очка", "1 pair"): two counts, one sentence."""
    return {"series": t("count.points", lang, n=counts["series"]), "pairs": t("count.pairs", lang, n=counts["pairs"])}


def render_hand(view: dict[str, Any], lang: str, by_number: bool = False) -> str:
    hand = view["hand_by_number"] if by_number else view["hand"]
    lines = [t("rummy101.hand.title", lang, count=len(hand)), "  " + format_hand(hand, by_number)]
    you = view["you"]
    status = view["status"][you]
    th = view["thresholds"]
    if status == "unopened":
        lines.append(t("rummy101.hand.not_opened", lang, **_opening_counts(th, lang)))
        best = view.get("best_opening")
        if best is not None:
            lines.append(t("rummy101.hand.best_opening", lang, **_opening_counts(best, lang)))
    else:
        lines.append(t("rummy101.hand.opened", lang, status=t(f"rummy101.status.{status}", lang)))
    if view["turn"] == you:
        if view["phase"] == "draw":
            take = view.get("take_hint")
            if take:
                lines.append(t("rummy101.hand.can_take", lang, tile=view["discard_top"], command=take))
            # Offer only what is possible now: the take when a use exists, the joker when on and unused.
            joker = view["joker_button"] == "on" and not view["joker_used"][you]
            key = {(True, True): "", (True, False): "_take", (False, True): "_joker", (False, False): "_only"}
            lines.append(t("rummy101.hand.your_turn_draw" + key[(bool(take), joker)], lang))
        else:
            lines.append(t("rummy101.hand.your_turn_play", lang))
    return "\n".join(lines)


def render_event(event: Event, names: list[str], viewer: int | None, lang: str) -> str | None:
    d = event.data
    seat = d.get("seat")
    name = names[seat] if seat is not None else ""
    match event.type:
        case "TileDrawn":
            return said("rummy101.event.TileDrawn", lang, seat, viewer, name=name, stock=d["stock"])
        case "TileReceived":
            return t("rummy101.event.TileReceived", lang, tile=d["tile"])
        case "JokerButtonPressed":
            return said("rummy101.event.JokerButtonPressed", lang, seat, viewer, name=name)
        case "DiscardTaken":
            return said("rummy101.event.DiscardTaken", lang, seat, viewer, name=name, tile=d["tile"])
        case "Opened":
            kind = t(f"rummy101.event.opened_{d['kind']}", lang)
            return said("rummy101.event.Opened", lang, seat, viewer, name=name, kind=kind, score=d["score"],
                        melds=_melds(d["shown"]))
        case "MeldsLaid":
            return said("rummy101.event.MeldsLaid", lang, seat, viewer, name=name, melds=_melds(d["shown"]))
        case "TilesAdded":
            return said("rummy101.event.TilesAdded", lang, seat, viewer, name=name, tiles=join_items(d["tiles"]),
                        meld=d["meld"])
        case "JokerSwapped":
            return said("rummy101.event.JokerSwapped", lang, seat, viewer, name=name, tile=d["tile"], meld=d["meld"])
        case "Discarded":
            return said("rummy101.event.Discarded", lang, seat, viewer, name=name, tile=d["tile"])
        case "TimedOut":
            return said("rummy101.event.TimedOut", lang, seat, viewer, name=name)
        case "StockEmptied":
            return said("rummy101.event.StockEmptied", lang, seat, viewer, name=name)
        case "RoundScored":
            return _round_summary(d, names, viewer, lang)
        case "MatchEnded":
            return t("event.MatchEnded", lang, names=", ".join(names[w] for w in d["winners"]))
        case "TieBreakNeeded":
            return t("rummy101.event.TieBreakNeeded", lang, names=", ".join(names[w] for w in d["leaders"]))
        case "NextRound":
            return said("rummy101.event.NextRound", lang, seat, viewer, round=d["round"], name=name)
    return None  # TurnStarted: the refreshed table and hand say it


def _melds(shown: list[list[str]]) -> str:
    return " ".join(f"[{join_items(m)}]" for m in shown)


def _round_summary(d: dict[str, Any], names: list[str], viewer: int | None, lang: str) -> str:
    if d["reason"] == "finish":
        winner = d["winners"][0]
        how = said("rummy101.event.round_finish", lang, winner, viewer, name=names[winner])
        if d["joker_finish"]:
            how += t("rummy101.event.finish_joker", lang)
        if d["one_turn"]:
            how += t("rummy101.event.finish_one_turn", lang)
    else:
        how = t("rummy101.event.round_stock", lang)
    lines = [t("rummy101.event.RoundScored", lang, round=d["round"], how=how)]
    for seat, name in enumerate(names):
        lines.append(
            t("rummy101.event.round_line", lang, name=name, status=t(f"rummy101.status.{d['statuses'][seat]}", lang),
              hand=join_items(d["revealed"][seat]) or "—", value=d["values"][seat], score=d["scores"][seat],
              total=d["totals"][seat])
        )
    return "\n".join(lines)
