"""What a press on a hand control means, the same on every platform: a new hand screen, or the
command text of a move (built by bot.core.grammar's `compose`, never from words). Anything that
no longer fits the seat's moves is a `CodecError` (a refusal naming a stale or broken button)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.codec import CodecError, indices_of
from bot.core.grammar import command as grammar_command
from bot.core.grammar import hand_items, move_command, move_template, ordered_pick
from bot.core.presenter.hand_ui import HandUI
from rules.core.moves import MoveTemplate


def pick(ui: HandUI, view: dict[str, Any], chosen: list[int]) -> HandUI:
    """The seat's whole selection is now `chosen`; what stays keeps its place in the pick order (where
    a joker stands in a meld is the player's choice), what is new comes last."""
    size = len(hand_items(view))
    if any(not 0 <= i < size for i in chosen):
        raise CodecError("bad pick")
    return replace(ui, picks=tuple(ordered_pick(list(ui.picks), list(dict.fromkeys(chosen)))), choosing=False,
                   moving=None)


def pick_part(ui: HandUI, view: dict[str, Any], span: range, chosen: list[int]) -> HandUI:
    """A select holding only the items of `span` was changed: the picks outside it stay."""
    if any(i not in span for i in chosen):
        raise CodecError("bad pick")
    return pick(ui, view, [i for i in ui.picks if i not in span] + chosen)


def command(ui: HandUI, view: dict[str, Any], templates: list[MoveTemplate], index: int, mask: str,
            option: int | None) -> str:
    """`cmd <index> <mask> [<option>]`: the move of template `index`, filled with the items of `mask`
    in the order they were picked (items not in the stored picks, e.g. after a restart, come last)."""
    items = hand_items(view)
    chosen = set(indices_of(mask, len(items)))
    order = [i for i in ui.picks if i in chosen]
    picked = [items[i] for i in order + sorted(chosen - set(order))]
    try:
        return grammar_command(templates, index, option, picked)
    except ValueError as err:
        raise CodecError("bad command") from err


def start_move(ui: HandUI, templates: list[MoveTemplate]) -> HandUI:
    if move_template(templates) is None:
        raise CodecError("bad move")
    return replace(ui, picks=(), choosing=True, moving=None)


def choose_piece(ui: HandUI, templates: list[MoveTemplate], piece: int) -> HandUI:
    found = move_template(templates)
    if found is None or not 0 <= piece < len(found[1].open_slots()[0].options):
        raise CodecError("bad move")
    return replace(ui, picks=(), choosing=False, moving=piece)


def back(ui: HandUI) -> HandUI:
    return replace(ui, choosing=False, moving=None)


def move_to(templates: list[MoveTemplate], index: int, piece: int, dest: int) -> str:
    """`mv <index> <piece> <dest>`: the table item at option `piece` goes to destination `dest`."""
    found = move_template(templates)
    if found is None or found[0] != index:
        raise CodecError("bad move")
    try:
        return move_command(found[1], piece, dest)
    except ValueError as err:
        raise CodecError("bad move") from err
