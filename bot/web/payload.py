"""What a page is sent: the presenter's table and hand for one seat (or the public), its legal-move
controls for the items it has picked, and the seat's own view for the page to draw — built from
that seat's view only, so a page never holds another seat's tiles."""

from __future__ import annotations

from typing import Any

from bot.core.ai_seats import seat_name
from bot.core.grammar import hand_items
from bot.core.i18n import t
from bot.core.presenter import HandUI, Presenter, hand_controls, staging_lines
from bot.core.presenter.games import Told, moves_of, view_of
from bot.core.presenter.offers import Offers, legal_offers
from bot.core.render import render_events
from bot.web.board import CARD_GAMES, board, item_piece
from bot.web.story import Story
from storage import TableRecord

LINES = 8  # the newest event lines in `lines`


async def payload(presenter: Presenter, rec: TableRecord, seat: int | None, lang: str,
                  picks: tuple[int, ...] = (), now: float | None = None,
                  staged: tuple[tuple[int, ...], ...] = (), story: Story | None = None) -> dict[str, Any]:
    """`now` is the server's clock, so the page counts the turn's time down from the deadline
    whatever the device's clock says. `picks` and `staged` are the page's own hand screen; `story`
    tells the newest moves (none without it)."""
    view = view_of(rec, seat)
    public = view if seat is None else view_of(rec, None)
    panel = presenter.table(rec, lang, public)
    names = [s.name for s in rec.seats]
    recent = await story.recent(rec) if story is not None else []
    told = told_of(rec, recent, seat, lang)
    out: dict[str, Any] = {
        "table": rec.id, "game": rec.game, "version": rec.version, "status": rec.status, "lang": lang,
        "seat": seat, "names": names, "title": panel.title, "body": panel.body,
        "lines": [line for step in told for line in step["lines"]][-LINES:],
        "turn": panel.turn, "deadline": panel.deadline, "now": now, "view": view,
        "turn_s": rec.options.get("turn_timer_s") or None,  # a turn's whole time: the page warns near its end
        # The table as pieces, from the public view only (None for Rummikub, which the page arranges).
        "board": None, "hand": None,
        "story": told, "players": players(rec, public, seat, lang), "result": result_of(rec, recent, seat, lang),
    }
    hand, templates = None, None
    if seat is not None and rec.state is not None:
        if rec.status == "playing" and view.get("turn") == seat:
            templates = moves_of(rec, view)  # once, on turn only: the hand's buttons and the board's taps
        hand = await presenter.hand(rec, seat, lang, view, templates=templates, suggest=False)
    if hand is None:
        out["board"] = board(rec.game, public, names, lang)
        return out
    assert seat is not None
    c = hand_controls(rec.game, view, seat, HandUI(picks=picks, staged=staged), lang, rec.status == "playing",
                      templates)
    held = {i: k for k, group in enumerate(staged, start=1) for i in group}
    # Only the buttons the engine would accept (bot/core/presenter/offers.py), placed on a pile or the market too.
    offers = legal_offers(rec, seat, view, templates, c, staged, lang) if templates is not None and c.my_turn \
        else Offers(c.actions, "")
    out["board"] = board(rec.game, public, names, lang, templates, offers.actions)
    out["hand"] = {
        "body": hand.body, "note": hand.note, "my_turn": c.my_turn, "picks": list(c.picks),
        # Shown off turn too (the controls then offer no picks): the page always draws the hand.
        "items": [{"index": i, "label": item, "selected": i in c.picks, "piece": item_piece(rec.game, item, view),
                   "staged": held.get(i)}
                  for i, item in enumerate(hand_items(view))],
        "actions": [{"index": a.index, "option": a.option, "label": a.label, "with_items": a.with_items}
                    for a in offers.actions],
        "why_not": offers.why_not,
        # Staging (issue 25): the page keeps the staged melds and sends them with the move; the
        # engine's word on them comes back here, worded.
        "can_stage": c.can_stage,
        "staged": [{"number": m.number, "items": list(m.items), "valid": m.valid, "value": m.value,
                    "label": t("stage.btn.unstage", lang, number=m.number) + " " + " ".join(m.items)}
                   for m in (c.staging.melds if c.staging else ())],
        "staging": list(staging_lines(c.staging, lang)),
        "stage_label": t("stage.btn.stage", lang),
        "clear_label": t("stage.btn.clear", lang),
        "suggestions": [{"index": s.index, "label": s.label} for s in c.suggestions],
    }
    return out


def told_of(rec: TableRecord, recent: list[Told], seat: int | None, lang: str) -> list[dict[str, Any]]:
    """The newest moves as this seat may know them (the chats' narration, the seat's own private
    events included, nobody else's): who moved, the lines, whether a turn's time ran out."""
    out = []
    for entry in recent:
        lines = render_events(rec, list(entry.step.events), seat, lang)
        timeout = next((e.data.get("seat") for e in entry.step.events if e.type == "TimedOut"), None)
        if lines or timeout is not None:
            out.append({"seq": entry.seq, "seat": entry.step.seat, "lines": lines, "timeout": timeout})
    return out


def players(rec: TableRecord, public: dict[str, Any], seat: int | None, lang: str) -> list[dict[str, Any]]:
    """Everyone at the table as the public sees them: tiles or cards held, score, whose turn."""
    counts = public.get("rack_sizes") or public.get("hand_sizes") or []
    totals = public.get("totals") or []
    teams = public.get("teams")
    team_of = {s: i for i, team in enumerate(teams) for s in team} if teams else {}
    piece = "cards" if rec.game in CARD_GAMES else "tiles"
    out = []
    for i, s in enumerate(rec.seats):
        count = counts[i] if i < len(counts) else None
        at = team_of.get(i, i)
        out.append({
            "seat": i, "name": seat_name(s, lang), "you": i == seat, "ai": s.kind == "ai", "away": s.away,
            "turn": rec.status == "playing" and public.get("turn") == i,
            "count": count, "held": None if count is None else t(f"count.{piece}", lang, n=count),
            "score": totals[at] if at < len(totals) else None, "team": team_of.get(i),
        })
    return out


def result_of(rec: TableRecord, recent: list[Told], seat: int | None, lang: str) -> dict[str, Any] | None:
    """The newest round's result among the recent moves (the next round is dealt at once, so only the
    story still holds it), or the match's: who won, each seat's round score and total."""
    ended = next((e for e in reversed(recent) if e.result is not None), None)
    if ended is None or ended.result is None:
        return None
    r = ended.result
    names = [seat_name(s, lang) for s in rec.seats]
    scored = next((e.data for e in ended.step.events if e.type == "RoundScored"), {})
    winners = r.match_winners if r.match_over else r.winners
    won = ", ".join(names[w] for w in winners)
    if r.match_over:
        head = t("web.match_won", lang, names=won) if won else t("web.match_drawn", lang)
    else:
        head = t("web.round_won", lang, round=scored.get("round", ""), names=won) if won \
            else t("web.round_over", lang, round=scored.get("round", ""))
    return {
        "seq": ended.seq, "match": r.match_over, "headline": head,
        "lines": render_events(rec, [e for e in ended.step.events if e.type == "RoundScored"], seat, lang),
        "rows": [{"name": names[i], "round": r.round_scores[i], "total": r.totals[i], "won": i in winners,
                  "you": i == seat} for i in range(len(names))],
        "heads": [t("web.player", lang), t("web.round_score", lang), t("web.total", lang)],
        "next": t("web.rematch_how" if r.match_over else "web.next_round", lang),
    }
