"""Rummy 500 text: the market with positions, structures with IDs, owners and joker identities,
burned cards; the hand with what each market take would bring (UX.md, "Numbers that help decide")."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.render.common import join_items, said
from rules import Event

_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_SUITS = "SHDC"


def card_text(card: str, identity: list[str] | None = None, rank: int | None = None) -> str:
    """`JK=7C` for a fixed joker, `JK=8?` for a pending set joker (R500-02); other cards as they are."""
    if card != "JK" or identity is None:
        return card
    if len(identity) == 1:
        return f"JK={identity[0]}"
    return f"JK={_RANKS[rank - 1]}?" if rank else "JK=?"


def structure_cards(s: dict[str, Any]) -> str:
    parts = []
    for i, card in enumerate(s["cards"]):
        rank = s["rank"] if s["kind"] == "set" else s["low"] + i
        parts.append(card_text(card, s["jokers"].get(str(i)), rank))
    return join_items(parts)


def _owners_text(s: dict[str, Any], names: list[str]) -> str:
    """Who laid what: `Ann AD 2D · Bob 3D 4D 5D` (every card scores for whoever laid it, R500-45)."""
    by_owner: dict[int, list[str]] = {}
    for card, owner in zip(s["cards"], s["owners"], strict=True):
        if s["kind"] == "run" and card == s.get("shared"):
            continue  # the branch's first card belongs to its set
        by_owner.setdefault(owner, []).append(card)
    return " · ".join(f"{names[o]} {join_items(cs)}" for o, cs in by_owner.items())


def _structure_line(s: dict[str, Any], names: list[str], lang: str) -> str:
    kind = t(f"rummy500.kind.{s['kind']}", lang)
    note = ""
    if s["kind"] == "set" and s.get("branch"):
        note = " " + t("rummy500.table.has_branch", lang, branch=f"S{s['branch']}")
    elif s["kind"] == "run" and s.get("branch_of"):
        note = " " + t("rummy500.table.branch_of", lang, set=f"S{s['branch_of']}")
    line = t("rummy500.table.structure", lang, id=f"S{s['id']}", cards=structure_cards(s), kind=kind,
             value=s["value"], owners=_owners_text(s, names))
    pending = [(i, c) for i, c in s["jokers"].items() if len(c) > 1]
    for _, cands in pending:
        note += " " + t("rummy500.table.pending", lang, cards=" / ".join(cands))
    return line + note


def format_market(market: list[str]) -> str:
    return "  ".join(f"#{i} {c}" for i, c in enumerate(market, start=1))


def render_table(
    view: dict[str, Any], names: list[str], lang: str, seconds_left: int | None, viewer: int | None = None
) -> str:
    lines = [t("rummy500.table.header", lang, game=t("game.rummy500", lang), round=view["round"], bank=view["bank"],
               target=view["target_score"])]
    turn = view["turn"]
    if turn is not None:
        if seconds_left is None:
            lines.append(t("table.turn", lang, name=names[turn]))
        else:
            lines.append(t("table.turn_deadline", lang, name=names[turn], seconds=seconds_left))
    if view["market"]:
        lines.append(t("rummy500.table.market", lang, cards=format_market(view["market"])))
    else:
        lines.append(t("rummy500.table.market_empty", lang))
    if view["table"]:
        lines.append(t("rummy500.table.structures", lang))
        lines += [_structure_line(s, names, lang) for s in view["table"]]
    else:
        lines.append(t("rummy500.table.empty", lang))
    if view["burned"]:
        lines.append(t("rummy500.table.burned", lang, cards=join_items(view["burned"])))
    if view["bank"] == 0 and view["round_over"] is None:
        lines.append(t("rummy500.table.bank_empty", lang))
    lines.append(t("table.players", lang))
    for seat, name in enumerate(names):
        dealer = t("rummy500.table.dealer", lang) if seat == view["dealer"] else ""
        lines.append(t("rummy500.table.player_line", lang, seat=seat + 1, name=name, cards=view["hand_sizes"][seat],
                       laid=view["laid"][seat], total=view["totals"][seat], dealer=dealer))
    return "\n".join(lines)


def _hand_text(cards: list[str], by_number: bool) -> str:
    if by_number:
        ordered = sorted(cards, key=lambda c: (99, 0) if c == "JK" else (_RANKS.index(c[:-1]), _SUITS.index(c[-1])))
        return join_items(ordered)
    groups: dict[str, list[str]] = {}
    for c in cards:
        groups.setdefault("J" if c == "JK" else c[-1], []).append(c)
    return "  ".join(join_items(g) for g in groups.values())


def _take_line(entry: dict[str, Any], lang: str) -> str:
    head = f"#{entry['pos']} {entry['target']}"
    if entry["burned"]:
        return t("rummy500.hand.take_burned", lang, head=head)
    best = entry["best"]
    if best is None:
        return t("rummy500.hand.take_none", lang, head=head)
    on = f" on S{best['on']}" if best["on"] else ""
    text = t("rummy500.hand.take_best", lang, head=head, lay=f"lay {join_items(best['cards'])}{on}",
             value=best["value"])
    leave = best.get("leave")
    if best["to_hand"]:
        text += " " + t("rummy500.hand.take_brings", lang, cards=join_items(best["to_hand"]), value=best["to_hand_value"])
    if leave:
        text += " " + t("rummy500.hand.take_stays", lang, card=leave)
    return text


def render_hand(view: dict[str, Any], lang: str, by_number: bool = False) -> str:
    hand = view["hand"]
    lines = [t("rummy500.hand.title", lang, count=t("count.cards", lang, n=len(hand)),
               value=t("count.points", lang, n=view["hand_value"])),
             "  " + (_hand_text(hand, by_number) or "—")]
    you = view["you"]
    if view["turn"] == you:
        phase = view["phase"]
        if phase == "take":
            lines.append(t("rummy500.hand.phase_take", lang))
            for entry in view["takes"] or []:
                lines.append("  " + _take_line(entry, lang))
            if view["bank"] == 0:
                lines.append(t("rummy500.hand.bank_empty", lang))
        elif phase == "bank":
            if view.get("drawn"):
                lines.append(t("rummy500.hand.drawn", lang, card=view["drawn"]))
            lines.append(t("rummy500.hand.phase_bank", lang, bonus=view["go_out_bonus"]))
        elif phase == "market":
            lines.append(t("rummy500.hand.phase_market", lang))
    return "\n".join(lines)


def render_event(event: Event, names: list[str], viewer: int | None, lang: str) -> str | None:
    d = event.data
    seat = d.get("seat")
    name = names[seat] if seat is not None else ""
    match event.type:
        case "CardDrawn":
            return said("rummy500.event.CardDrawn", lang, seat, viewer, name=name)
        case "CardsReceived":
            return t("rummy500.event.CardsReceived", lang, cards=join_items(d["cards"]))
        case "MarketTaken":
            key = "rummy500.event.MarketTaken_leave" if d["leave"] else "rummy500.event.MarketTaken"
            return said(key, lang, seat, viewer, name=name, target=d["target"], pos=d["pos"],
                        cards=join_items(d["taken"]), leave=d["leave"] or "")
        case "CardsLaid":
            where = f"S{d['on']}" if d["on"] else ", ".join(f"S{i}" for i in d["created"])
            key = "rummy500.event.CardsLaid_on" if d["on"] else "rummy500.event.CardsLaid"
            return said(key, lang, seat, viewer, name=name, cards=join_items(d["cards"]), where=where, value=d["value"])
        case "Discarded":
            return said("rummy500.event.Discarded", lang, seat, viewer, name=name, card=d["card"])
        case "NoDiscard":
            return said("rummy500.event.NoDiscard", lang, seat, viewer, name=name)
        case "Stopped":
            return said("rummy500.event.Stopped", lang, seat, viewer, name=name)
        case "TimedOut":
            return said("rummy500.event.TimedOut", lang, seat, viewer, name=name)
        case "RoundScored":
            return _round_summary(d, names, viewer, lang)
        case "MatchEnded":
            return t("event.MatchEnded", lang, names=", ".join(names[w] for w in d["winners"]))
        case "TieBreakNeeded":
            return t("rummy500.event.TieBreakNeeded", lang, names=", ".join(names[w] for w in d["leaders"]))
        case "NextRound":
            return said("rummy500.event.NextRound", lang, seat, viewer, round=d["round"], name=name)
    return None  # TurnStarted, TurnEnded: the refreshed table says it


def _round_summary(d: dict[str, Any], names: list[str], viewer: int | None, lang: str) -> str:
    if d["reason"] == "out":
        winner = d["winners"][0]
        how = said(f"rummy500.event.out_{d['how']}", lang, winner, viewer, name=names[winner])
    else:
        how = t("rummy500.event.round_stopped", lang)
    lines = [t("rummy500.event.RoundScored", lang, round=d["round"], how=how)]
    for seat, name in enumerate(names):
        lines.append(t("rummy500.event.round_line", lang, name=name, laid=d["laid"][seat],
                       hand=join_items(d["revealed"][seat]) or "—", hand_value=d["hand_values"][seat],
                       bonus=d["bonus"][seat], score=d["scores"][seat], total=d["totals"][seat]))
    return "\n".join(lines)
