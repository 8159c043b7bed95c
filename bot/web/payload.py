"""What a page is sent: the presenter's table and hand for one seat (or the public), its legal-move
controls for the items it has picked, and the seat's own view for the page to draw — built from
that seat's view only, so a page never holds another seat's tiles."""

from __future__ import annotations

from typing import Any

from bot.core.grammar import hand_items
from bot.core.i18n import t
from bot.core.presenter import HandUI, Presenter, hand_controls, staging_lines
from bot.core.presenter.games import moves_of, view_of
from bot.web.board import board, item_piece
from bot.web.offers import Offers, legal_offers
from storage import TableRecord


async def payload(presenter: Presenter, rec: TableRecord, seat: int | None, lang: str,
                  picks: tuple[int, ...] = (), now: float | None = None,
                  staged: tuple[tuple[int, ...], ...] = ()) -> dict[str, Any]:
    """`now` is the server's clock, so the page counts the turn's time down from the deadline
    whatever the device's clock says. `picks` and `staged` are the page's own hand screen."""
    view = view_of(rec, seat)
    public = view if seat is None else view_of(rec, None)
    panel = presenter.table(rec, lang, public)
    names = [s.name for s in rec.seats]
    out: dict[str, Any] = {
        "table": rec.id, "game": rec.game, "version": rec.version, "status": rec.status, "lang": lang,
        "seat": seat, "names": names, "title": panel.title, "body": panel.body,
        "lines": list(panel.lines), "turn": panel.turn, "deadline": panel.deadline, "now": now, "view": view,
        # The table as pieces, from the public view only (None for Rummikub, which the page arranges).
        "board": None, "hand": None,
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
    # Only the buttons the engine would accept (bot/web/offers.py), placed on a pile or the market too.
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
