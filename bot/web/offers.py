"""Only the moves the engine would accept: each hand button that sends the picked items is tried
on the stored table (nothing committed, bot/core/presenter/games.refusal) and kept only if it would
be accepted. When the picks make no move at all, the engine's own reason is worded for one line.

The move templates offer what may be legal (Canasta's `add` to every meld a tile of the hand fits);
only the engine knows whether these picks fit that meld, so the page asks it, never a rule here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.grammar import command, hand_items, staging_template
from bot.core.i18n import has, t
from bot.core.presenter import HandControls
from bot.core.presenter.controls import Action
from bot.core.presenter.games import refusal
from bot.core.render.common import render_error
from rules.core.errors import IllegalAction
from rules.core.moves import MoveTemplate
from storage import TableRecord


@dataclass(frozen=True)
class Offers:
    actions: tuple[Action, ...]  # the hand's buttons the engine would accept now
    why_not: str  # when the picks make no move: the engine's reason, worded; else ""


def _tried(rec: TableRecord, seat: int, templates: list[MoveTemplate], index: int, option: int | None,
           picked: list[str], staged: list[list[str]]) -> IllegalAction | None:
    try:
        text = command(templates, index, option, picked, staged)
    except ValueError:
        return IllegalAction("E_PARSE", token="", expected="")
    return refusal(rec, seat, text)


def legal_offers(rec: TableRecord, seat: int, view: dict[str, Any], templates: list[MoveTemplate],
                 c: HandControls, staged: Sequence[Sequence[int]], lang: str) -> Offers:
    """`c`: the seat's hand controls for its picks (`c.picks`) and `staged` melds, on its turn."""
    items = hand_items(view)
    picked = [items[i] for i in c.picks if i < len(items)]
    staged_words = [[items[i] for i in group if i < len(items)] for group in staged]
    kept: list[Action] = []
    refused: list[IllegalAction] = []
    for a in c.actions:
        if not a.with_items:
            kept.append(a)
            continue
        err = _tried(rec, seat, templates, a.index, a.option, picked, staged_words)
        if err is None:
            kept.append(a)
        else:
            refused.append(err)
    why = ""
    if (picked or staged_words) and not any(a.with_items for a in kept):
        if not refused:
            refused = _reasons(rec, seat, templates, picked, staged_words)
        if refused:
            why = _worded(refused[0], lang, rec.game)
    return Offers(tuple(kept), why)


def _worded(err: IllegalAction, lang: str, game: str) -> str:
    """A meld's problem as the meld and the catalog's reason ("r7 b11: a meld needs at least 3
    tiles"), not the chat's sentence about a typed command; any other refusal as the chats word it."""
    reason = err.params.get("reason")
    key = f"meld_reason.{reason}"
    if isinstance(reason, str) and has(key, lang):
        text = t(key, lang)
        if text.startswith("(") and text.endswith(")"):  # the catalog words it to sit in a sentence
            text = text[1:-1]
        meld = err.params.get("meld")
        meld = " ".join(meld) if isinstance(meld, list) else meld
        return f"{meld}: {text}" if meld else text
    return render_error(err, lang, game)


def _reasons(rec: TableRecord, seat: int, templates: list[MoveTemplate], picked: list[str],
             staged: list[list[str]]) -> list[IllegalAction]:
    """No button took these picks at all: what the engine says to the move staged melds are for (or
    else to the first move that takes hand items), filled with them."""
    stager = staging_template(templates)
    order = [stager[0]] if stager else []
    order += [i for i, tpl in enumerate(templates)
              if tpl.available is not False and i not in order
              and any(s.kind in ("items", "melds") for s in tpl.open_slots())
              and all(s.kind in ("items", "melds") for s in tpl.open_slots())]
    for index in order[:1]:
        err = _tried(rec, seat, templates, index, None, picked, staged)
        if err is not None:
            return [err]
    return []

