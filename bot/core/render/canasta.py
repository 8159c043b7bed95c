"""Tile Canasta text: both teams' melds by number, compact for long melds with the one-to-go and
CANASTA markers (CAN-33 / D-20), bonus-three zones, thresholds, and the team score breakdown."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.render.common import join_items, said
from rules import Event
from rules.canasta.melds import CANASTA_SIZE

TEAM_LETTERS = "AB"
COMPACT_FROM = 6  # CAN-33: melds of more than 5 tiles are shown compactly


def meld_ref(team: int, number: int) -> str:
    return f"{TEAM_LETTERS[team]}:{number}s"


def format_meld(team: int, meld: dict[str, Any], lang: str) -> str:
    """`A:8s [r8 b8 k8 r2] · 35`, or compact `A:8s ×6 (wilds: r2) · 50 · ▲ one to go`."""
    marker = ""
    if meld["canasta"]:
        marker = t("canasta.meld.canasta", lang, kind=t(f"canasta.kind.{meld['canasta']}", lang))
    elif meld["one_to_go"]:
        marker = t("canasta.meld.one_to_go", lang)
    ref = meld_ref(team, meld["number"])
    if meld["size"] < COMPACT_FROM:
        return t("canasta.meld.full", lang, ref=ref, tiles=join_items(meld["tiles"]), value=meld["value"],
                 marker=marker)
    wilds = t("canasta.meld.wilds", lang, tiles=join_items(meld["wilds"])) if meld["wilds"] else ""
    return t("canasta.meld.compact", lang, ref=ref, size=meld["size"], wilds=wilds, value=meld["value"],
             marker=marker)


def render_table(
    view: dict[str, Any], names: list[str], lang: str, seconds_left: int | None, viewer: int | None = None
) -> str:
    game = t("game.canasta", lang)
    top = t("canasta.table.top", lang, tile=view["top"]) if view["top"] else ""
    common = {"game": game, "round": view["round"], "stock": view["stock"], "pile": view["pile_size"], "top": top}
    length = view["match_length"]
    if length == "target 10000":
        lines = [t("canasta.table.header_target", lang, **common)]
    else:
        rounds = int(length.split()[0])
        key = "canasta.table.header_extra" if view["round"] > rounds else "canasta.table.header"
        lines = [t(key, lang, rounds=rounds, **common)]
    turn = view["turn"]
    if turn is not None:
        phase = t(f"canasta.phase.{view['phase']}", lang)
        if seconds_left is None:
            lines.append(t("canasta.table.turn", lang, name=names[turn], phase=phase))
        else:
            lines.append(t("canasta.table.turn_deadline", lang, name=names[turn], phase=phase, seconds=seconds_left))
    else:
        lines.append(t("canasta.table.round_over", lang))
    for team in range(2):
        lines.extend(_team_lines(view, team, names, lang))
    if view["exhausted"] and view["round_over"] is None:
        lines.append(t("canasta.table.exhausted", lang))
    lines.append(t("canasta.table.players", lang))
    for seat, name in enumerate(names):
        joker = t("canasta.table.joker_used", lang) if view["joker_used"][seat] else ""
        lines.append(t("canasta.table.player_line", lang, seat=seat + 1, name=name, team=TEAM_LETTERS[seat % 2],
                       tiles=view["hand_sizes"][seat], joker=joker))
    return "\n".join(lines)


def _team_lines(view: dict[str, Any], team: int, names: list[str], lang: str) -> list[str]:
    members = ", ".join(names[s] for s in view["teams"][team])
    if view["opened"][team]:
        status = t("canasta.table.opened", lang)
    else:
        status = t("canasta.table.not_opened", lang, threshold=view["thresholds"][team])
    lines = [t("canasta.table.team", lang, team=TEAM_LETTERS[team], names=members, total=view["totals"][team],
               status=status)]
    zone = view["bonus"][team]
    if zone:
        value = (100 if view["opened"][team] else -100) * len(zone)
        lines.append(t("canasta.table.threes", lang, tiles=join_items(zone), value=value))
    if view["melds"][team]:
        lines.extend(format_meld(team, meld, lang) for meld in view["melds"][team])
    else:
        lines.append(t("canasta.table.no_melds", lang))
    return lines


def format_hand(tiles: list[str]) -> str:
    """Tiles grouped by number (two spaces between groups), jokers last; colour letters kept."""
    groups: list[list[str]] = []
    for tile in tiles:
        key = tile[1:] if tile != "j" else "j"
        if groups and (groups[-1][0][1:] if groups[-1][0] != "j" else "j") == key:
            groups[-1].append(tile)
        else:
            groups.append([tile])
    return "  ".join(join_items(g) for g in groups)


def render_hand(view: dict[str, Any], lang: str, by_number: bool = False) -> str:
    hand, team = view["hand"], view["team"]
    letter = TEAM_LETTERS[team]
    lines = [t("canasta.hand.title", lang, count=len(hand), team=letter), "  " + (format_hand(hand) or "—")]
    if view["opened"][team]:
        lines.append(t("canasta.hand.opened", lang, team=letter))
    else:
        lines.append(t("canasta.hand.not_opened", lang, team=letter, threshold=view["thresholds"][team],
                       best=view.get("best_opening") or 0))
    if any(meld["canasta"] for meld in view["melds"][team]):
        lines.append(t("canasta.hand.can_go_out", lang))
    else:
        lines.append(t("canasta.hand.no_canasta", lang))
    if view["turn"] == view["you"]:
        if view["phase"] == "draw":
            if view.get("take_hint"):
                lines.append(t("canasta.hand.can_take", lang, command=view["take_hint"]))
            if view["joker_button"] and not view["joker_used"][view["you"]]:
                lines.append(t("canasta.hand.joker_available", lang))
            lines.append(t("canasta.hand.your_turn_draw", lang))
        else:
            lines.append(t("canasta.hand.your_turn_play", lang))
    return "\n".join(lines)


def render_event(event: Event, names: list[str], viewer: int | None, lang: str) -> str | None:
    d = event.data
    seat = d.get("seat")
    name = names[seat] if seat is not None else ""
    match event.type:
        case "TileDrawn":
            key = "canasta.event.TileDrawn_auto" if d["reason"] == "auto" else "canasta.event.TileDrawn"
            return said(key, lang, seat, viewer, name=name, stock=d["stock"])
        case "BonusThrees":
            return said("canasta.event.BonusThrees", lang, seat, viewer, name=name, tiles=join_items(d["tiles"]),
                        team=TEAM_LETTERS[d["team"]])
        case "TilesReceived":
            return t("canasta.event.TilesReceived", lang, tiles=join_items(d["tiles"])) if d["tiles"] else None
        case "PileTaken":
            key = "canasta.event.PileTaken_opened" if d["opened_now"] else "canasta.event.PileTaken"
            return said(key, lang, seat, viewer, name=name, tiles=join_items(d["tiles"]),
                        ref=meld_ref(d["team"], d["number"]), count=d["taken"], team=TEAM_LETTERS[d["team"]])
        case "JokerCreated":
            return said("canasta.event.JokerCreated", lang, seat, viewer, name=name)
        case "MeldsLaid":
            melds = " ".join(f"[{join_items(m)}]" for m in d["melds"])
            key = "canasta.event.MeldsLaid_opened" if d["opened_now"] else "canasta.event.MeldsLaid"
            return said(key, lang, seat, viewer, name=name, melds=melds, value=d["value"], team=TEAM_LETTERS[d["team"]])
        case "TilesAdded":
            return _tiles_added(d, seat, name, viewer, lang)
        case "Discarded":
            key = "canasta.event.Discarded_out" if d["out"] else "canasta.event.Discarded"
            return said(key, lang, seat, viewer, name=name, tile=d["tile"])
        case "StockExhausted":
            key = "canasta.event.StockExhausted_at_once" if d["at_once"] else "canasta.event.StockExhausted"
            return t(key, lang)
        case "AutoPlayed":
            return said("canasta.event.AutoPlayed", lang, seat, viewer, name=name)
        case "RoundScored":
            return _round_summary(d, names, viewer, lang)
        case "MatchEnded":
            return _match_summary(d, names, lang)
        case "TieBreakNeeded":
            return t("canasta.event.TieBreakNeeded", lang, total=d["totals"][0])
        case "NextRound":
            return said("canasta.event.NextRound", lang, seat, viewer, round=d["round"], name=name)
    return None  # TurnStarted: the refreshed table says it


def _tiles_added(d: dict[str, Any], seat: int | None, name: str, viewer: int | None, lang: str) -> str:
    """CANASTA! is announced once, by the add that reaches 7 tiles; the event's `canasta` is the meld's
    kind now (CAN-31), so a meld that already was one only grows ("a canasta (mixed) of 9 tiles")."""
    params = {"name": name, "tiles": join_items(d["tiles"]), "ref": meld_ref(d["team"], d["number"]),
              "size": d["size"]}
    if not d["canasta"]:
        return said("canasta.event.TilesAdded", lang, seat, viewer, **params)
    kind = t(f"canasta.kind.{d['canasta']}", lang)
    became = d["size"] - len(d["tiles"]) < CANASTA_SIZE
    key = "canasta.event.TilesAdded_canasta" if became else "canasta.event.TilesAdded_grown"
    return said(key, lang, seat, viewer, kind=kind, **params)


def _round_summary(d: dict[str, Any], names: list[str], viewer: int | None, lang: str) -> str:
    if d["out"] is not None:
        how = said("canasta.event.round_out", lang, d["out"], viewer, name=names[d["out"]])
    else:
        how = t("canasta.event.round_stock", lang)
    lines = [t("canasta.event.RoundScored", lang, round=d["round"], how=how)]
    for team, parts in enumerate(d["teams"]):
        lines.append(t("canasta.event.team_line", lang, team=TEAM_LETTERS[team], melds=parts["melds"],
                       canastas=parts["canastas"], threes=parts["bonus_threes"], out=parts["going_out"],
                       hands=-parts["hands"], score=parts["score"], total=d["totals"][team]))
        for seat in (team, team + 2):
            lines.append(t("canasta.event.hand_line", lang, name=names[seat], tiles=join_items(d["hands"][seat]) or "—"))
    return "\n".join(lines)


def _match_summary(d: dict[str, Any], names: list[str], lang: str) -> str:
    if d["drawn"]:
        lines = [t("canasta.event.MatchEnded_drawn", lang)]
    else:
        team = d["winners"][0] % 2
        lines = [t("canasta.event.MatchEnded", lang, team=TEAM_LETTERS[team],
                   names=", ".join(names[s] for s in d["winners"]))]
    if any(d["ledger"]):
        line = ", ".join(f"{names[s]} {v:+d}" for s, v in enumerate(d["ledger"]))
        lines.append(t("canasta.event.ledger", lang, line=line))
    return "\n".join(lines)
