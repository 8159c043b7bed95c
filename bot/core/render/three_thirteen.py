"""Three-Thirteen text: the table (round, wild rank, top discard, stock, totals), the private hand
grouped into the engine's best melds with its deadwood, and the round summary revealing every hand."""

from __future__ import annotations

from typing import Any

from bot.core.i18n import t
from bot.core.render.common import join_items, said
from rules import Event


def format_melds(melds: list[list[str]]) -> str:
    return " ".join(f"[{join_items(m)}]" for m in melds)


def _wild_text(view: dict[str, Any], lang: str) -> str:
    key = "three_thirteen.wild_jokers" if view["jokers"] else "three_thirteen.wild"
    return t(key, lang, wild=view["wild"])


def player_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """One line per seat: its cards, total, and whether it deals or went out (text and pictures)."""
    lines = []
    for seat, name in enumerate(names):
        marks = []
        if seat == view["dealer"]:
            marks.append(t("three_thirteen.table.dealer", lang))
        if seat == view["out"]:
            marks.append(t("three_thirteen.table.went_out", lang))
        lines.append(t("three_thirteen.table.player_line", lang, seat=seat + 1, name=name,
                       cards=view["hand_sizes"][seat], total=view["totals"][seat],
                       marks=(" · " + ", ".join(marks)) if marks else ""))
    return lines


def render_table(
    view: dict[str, Any], names: list[str], lang: str, seconds_left: int | None, viewer: int | None = None
) -> str:
    lines = [
        t("three_thirteen.table.header", lang, game=t("game.three_thirteen", lang), round=view["round"],
          rounds=view["rounds"], cards=view["hand_size"], wild=_wild_text(view, lang)),
        t("three_thirteen.table.piles", lang, top=view["discard_top"] or "—", pile=view["discard_size"],
          stock=view["stock"]),
    ]
    turn = view["turn"]
    if turn is not None:
        if seconds_left is None:
            lines.append(t("table.turn", lang, name=names[turn]))
        else:
            lines.append(t("table.turn_deadline", lang, name=names[turn], seconds=seconds_left))
    if view["out"] is not None and view["round_over"] is None:
        lines.append(said("three_thirteen.table.out", lang, view["out"], viewer, name=names[view["out"]],
                          left=view["last_turns_left"]))
    lines.append(t("table.players", lang))
    lines += player_lines(view, names, lang)
    if view["round_over"] is not None:
        over = view["round_over"]
        lines.append(_summary(view["round"], over, view["totals"], names, viewer, lang))
    return "\n".join(lines)


def render_hand(view: dict[str, Any], lang: str, by_number: bool = False) -> str:
    hand = view["hand"]
    if by_number:
        hand = sorted(hand, key=_rank_key)
    lines = [
        t("three_thirteen.hand.title", lang, count=len(hand), wild=_wild_text(view, lang)),
        "  " + join_items(hand),
    ]
    if view["melds"]:
        lines.append(t("three_thirteen.hand.melds", lang, melds=format_melds(view["melds"])))
    best = view.get("best_discard")
    if view["deadwood_cards"]:
        lines.append(t("three_thirteen.hand.deadwood", lang, cards=join_items(view["deadwood_cards"]),
                       value=view["deadwood"]))
    elif best is not None and not best["out"]:
        # All melds, but a card must still go and each one breaks a meld: "no deadwood" would mislead.
        lines.append(t("three_thirteen.hand.all_melds_but", lang, card=best["card"], value=best["deadwood"]))
    else:
        lines.append(t("three_thirteen.hand.no_deadwood", lang))
    if best is not None and best["out"]:
        lines.append(t("three_thirteen.hand.goes_out", lang, card=best["card"]))
    if view["turn"] == view["you"]:
        if view["phase"] == "draw":
            if view["can_draw_stock"]:
                lines.append(t("three_thirteen.hand.draw", lang, top=view["discard_top"] or "—"))
            else:
                lines.append(t("three_thirteen.hand.take_only", lang, top=view["discard_top"] or "—"))
        elif view["taken"]:
            lines.append(t("three_thirteen.hand.discard_taken", lang, card=view["taken"]))
        else:
            lines.append(t("three_thirteen.hand.discard", lang, card=view.get("drawn") or "?"))
    return "\n".join(lines)


_RANK_ORDER = {r: i for i, r in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"])}


def _rank_key(card: str) -> tuple[int, str]:
    return (_RANK_ORDER.get(card[:-1], 99), card[-1])


def render_event(event: Event, names: list[str], viewer: int | None, lang: str) -> str | None:
    d = event.data
    seat = d.get("seat")
    name = names[seat] if seat is not None else ""
    match event.type:
        case "CardDrawn":
            if d["source"] == "stock":
                return said("three_thirteen.event.drew_stock", lang, seat, viewer, name=name)
            return said("three_thirteen.event.took_discard", lang, seat, viewer, name=name, card=d["card"])
        case "CardReceived":
            return t("three_thirteen.event.you_drew", lang, card=d["card"])
        case "CardDiscarded":
            return said("three_thirteen.event.discarded", lang, seat, viewer, name=name, card=d["card"])
        case "StockRebuilt":
            return t("three_thirteen.event.stock_rebuilt", lang, stock=d["stock"])
        case "WentOut":
            return said("three_thirteen.event.went_out", lang, seat, viewer, name=name, melds=format_melds(d["melds"]))
        case "TimedOut":
            return said("three_thirteen.event.timed_out", lang, seat, viewer, name=name)
        case "TurnStarted":
            return said("three_thirteen.event.last_turn", lang, seat, viewer, name=name) if d.get("last_turn") else None
        case "RoundScored":
            return _summary(d["round"], d, d["totals"], names, viewer, lang)
        case "MatchEnded":
            if d["winners"]:
                winner = d["winners"][0]
                return said("three_thirteen.event.match_won", lang, winner, viewer, name=names[winner],
                            total=d["totals"][winner])
            tied = d["tied"]
            return t("three_thirteen.event.match_tied", lang, names=", ".join(names[s] for s in tied),
                     total=d["totals"][tied[0]])
    return None


def _summary(
    round_number: int, over: dict[str, Any], totals: list[int], names: list[str], viewer: int | None, lang: str
) -> str:
    """Every hand revealed with the engine's melds and deadwood (T13-42/43)."""
    lines = [said("three_thirteen.summary.title", lang, over["out"], viewer, round=round_number, name=names[over["out"]])]
    for seat, name in enumerate(names):
        shown = over["revealed"][seat]
        loose = " ".join(f"{c}({v})" for c, v in zip(shown["deadwood_cards"], shown["deadwood_values"], strict=True))
        lines.append(
            t("three_thirteen.summary.line", lang, name=name, melds=format_melds(shown["melds"]) or "—",
              loose=loose or "—", deadwood=over["deadwood"][seat], score=over["scores"][seat], total=totals[seat])
        )
    return "\n".join(lines)
