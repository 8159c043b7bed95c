"""A seat's hand controls, platform-neutral: the items to pick, the legal moves for the picks and the
two-step table-item move, all from the engine's legal moves (`engine.moves(view)` through
bot.core.grammar) and the stored hand screen. Telegram lays them out as inline buttons, Discord as
selects and buttons; both encode presses with bot.core.codec and hand them back to `press`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.core.grammar import controls as grammar_controls
from bot.core.grammar import hand_items, move_template
from bot.core.i18n import has, t
from bot.core.presenter.hand_ui import HandUI
from rules import get_engine
from rules.core.moves import MoveTemplate


@dataclass(frozen=True)
class Item:
    """One hand item to pick (a tile or a card), at `index` in the seat's hand items."""

    index: int
    label: str
    selected: bool


@dataclass(frozen=True)
class Action:
    """A move button: template `index` of the seat's moves, its enumerated `option` (None if none),
    whether it sends the picked items (encoded `cmd <seat> <index> <mask> [<option>]`)."""

    index: int
    option: int | None
    label: str
    with_items: bool


@dataclass(frozen=True)
class Choice:
    """A table item that can be moved, or where the picked one can go (an option of the move's slot)."""

    option: int
    label: str
    new: bool = False  # the destination "a new meld"


@dataclass(frozen=True)
class HandControls:
    """`playing`: the match goes on (else nothing to press). Off turn only sorting is offered.
    `move_index` is the template of the two-step move when the game has one available now; while
    `choosing`, `pieces` are the table items to pick; once `moving` is set, `targets` are where it goes."""

    playing: bool
    my_turn: bool
    items: tuple[Item, ...] = ()
    actions: tuple[Action, ...] = ()
    move_index: int | None = None
    move_label: str = ""
    pieces: tuple[Choice, ...] = ()
    targets: tuple[Choice, ...] = ()
    choosing: bool = False
    moving: int | None = None
    picks: tuple[int, ...] = ()  # the selected items, in the order picked


def label_of(key: str, verb: str, lang: str) -> str:
    """A move's name in the player's language (the verb itself only where no catalog has it)."""
    return t(key, lang) if has(key, lang) else verb


def action_label(base: str, detail: str, with_items: bool) -> str:
    """`add →8` for a move into an option with the picks, `take 3` for a plain option, `lay ✓` for the picks."""
    if detail:
        return f"{base} →{detail}" if with_items else f"{base} {detail}"
    return f"{base} ✓" if with_items else base


def templates_of(game: str, view: dict[str, Any]) -> list[MoveTemplate]:
    return get_engine(game).moves(view)


def hand_controls(game: str, view: dict[str, Any], seat: int, ui: HandUI, lang: str, playing: bool,
                  templates: list[MoveTemplate] | None = None) -> HandControls:
    if not playing:
        return HandControls(False, False)
    if view.get("turn") != seat:
        return HandControls(True, False)
    templates = templates if templates is not None else templates_of(game, view)
    found = move_template(templates)
    move_index = move_label = None
    pieces: tuple[Choice, ...] = ()
    if found is not None:
        move_index, tpl = found
        move_label = label_of(tpl.label_key, tpl.verb, lang)
        source, target = tpl.open_slots()
        pieces = tuple(Choice(k, source.label(o)) for k, o in enumerate(source.options))
        if ui.moving is not None and ui.moving < len(source.options):
            targets = tuple(Choice(k, t("tg.btn.to_new", lang) if o == "new" else target.label(o), o == "new")
                            for k, o in enumerate(target.options))
            return HandControls(True, True, move_index=move_index, move_label=move_label, pieces=pieces,
                                targets=targets, moving=ui.moving)
        if ui.choosing:
            return HandControls(True, True, move_index=move_index, move_label=move_label, pieces=pieces,
                                choosing=True)
    hand = hand_items(view)
    picks = [i for i in ui.picks if i < len(hand)]
    items = tuple(Item(i, item, i in picks) for i, item in enumerate(hand))
    actions = tuple(
        Action(c.index, c.option,
               action_label(label_of(c.label_key, c.verb, lang), c.detail, c.with_items), c.with_items)
        for c in grammar_controls(templates, [hand[i] for i in picks]))
    return HandControls(True, True, items, actions, move_index, move_label or "", pieces if not picks else (),
                        picks=tuple(picks))
