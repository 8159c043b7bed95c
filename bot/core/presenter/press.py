"""What a press on a hand control means, the same on every platform: a new hand screen (picks, staged
melds, a table item chosen), or the command text of a move (a control, a suggestion) (built by bot.core.grammar's `compose`, never from words). Anything that
no longer fits the seat's moves is a `CodecError` (a refusal naming a stale or broken button)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.core.codec import CodecError, indices_of
from bot.core.grammar import command as grammar_command
from bot.core.grammar import hand_items, move_command, move_template, ordered_pick, staging_template
from bot.core.presenter.games import suggested
from bot.core.presenter.hand_ui import HandUI
from rules.core.moves import MoveTemplate


def pick(ui: HandUI, view: dict[str, Any], chosen: list[int]) -> HandUI:
    """The seat's whole selection is now `chosen`; what stays keeps its place in the pick order (where
    a joker stands in a meld is the player's choice), what is new comes last. A staged item is not
    on the hand to pick (a button showing it is stale)."""
    size = len(hand_items(view))
    if any(not 0 <= i < size or i in ui.staged_items for i in chosen):
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
    if chosen & ui.staged_items:
        raise CodecError("bad command")
    order = [i for i in ui.picks if i in chosen]
    picked = [items[i] for i in order + sorted(chosen - set(order))]
    try:
        return grammar_command(templates, index, option, picked, staged_words(ui, items))
    except ValueError as err:
        raise CodecError("bad command") from err


def staged_words(ui: HandUI, items: list[str]) -> list[list[str]]:
    """The staged melds as item words; `CodecError` when one points past the hand (a stale screen)."""
    if any(i >= len(items) for i in ui.staged_items):
        raise CodecError("stale staging")
    return [[items[i] for i in group] for group in ui.staged]


# ---- staging (issue 25) ------------------------------------------------------------------------


def stage(ui: HandUI, view: dict[str, Any], templates: list[MoveTemplate]) -> HandUI:
    """The picks, in pick order, become the next staged meld (for the move with a `melds` slot)."""
    items = hand_items(view)
    picks = tuple(i for i in ui.picks if i < len(items) and i not in ui.staged_items)
    if not picks or staging_template(templates) is None:
        raise CodecError("nothing to stage")
    staged_words(ui, items)
    return replace(ui, picks=(), staged=(*ui.staged, picks), choosing=False, moving=None)


def unstage(ui: HandUI, number: int) -> HandUI:
    """Staged meld `number` (from 1) goes back to the hand, unpicked."""
    if not 1 <= number <= len(ui.staged):
        raise CodecError("no such staged meld")
    return replace(ui, staged=ui.staged[:number - 1] + ui.staged[number:])


def clear(ui: HandUI) -> HandUI:
    """Every staged meld back to the hand, and the picks dropped."""
    return replace(ui, picks=(), staged=())


def suggestion(game: str, view: dict[str, Any], index: int) -> str:
    """The command of suggestion `index`, recomputed from the view (the engine's list is
    deterministic for a view); `CodecError` when the table no longer offers it."""
    found = suggested(game, view)
    if not 0 <= index < len(found):
        raise CodecError("stale suggestion")
    return found[index][0]


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
