"""The fewest keys that make a move at the full screen: the hand pane's letters and digits when the
move is one of its buttons (a suggested move's key; picks, then the button; or the two-step
table-item move), else the command typed on the command line with Tab taking each completion that
leads towards it. The hint shows its move this way; the tests play whole matches by these keys and
the bench counts them.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from bot.console.tui.hand import control_rows, lay_out
from bot.core.codec import CodecError, mask_of
from bot.core.grammar import hand_items
from bot.core.presenter import HandPanel, HandUI, hand_controls
from bot.core.presenter.games import MoveTemplate
from bot.core.presses import Command, MoveTo, decoded

COMMAND_KEY = ":"
ENTER = "enter"
TAB = "tab"


def _same(a: str, b: str) -> bool:
    return " ".join(a.lower().split()) == " ".join(b.lower().split())


def _keys_of(hand: HandPanel, order: tuple[int, ...], lang: str) -> dict[str, str]:
    """action → key, as the hand pane lays them out."""
    return {action: key for key, action in lay_out(control_rows(hand, order, lang), 200, False).keys.items()}


def button_keys(hand: HandPanel, order: tuple[int, ...], templates: list[MoveTemplate], command: str,
                lang: str) -> list[str] | None:
    """The hand pane's keys for `command` from a screen with no picks, or None when no button makes it."""
    view: dict[str, Any] = hand.view or {}
    seat, game = hand.seat, hand.table.game
    base = _keys_of(hand, order, lang)
    c = hand.controls
    for s in c.suggestions:  # the engine's suggested move (the AI's play): one key
        if _same(s.command, command) and f"app.suggest({s.index})" in base:
            return [base[f"app.suggest({s.index})"]]
    for k, a in enumerate(c.actions):  # a move that needs no pick
        if not a.with_items and _made(game, HandUI(), view, templates, Command(a.index, "0", a.option), command):
            return [base[f"app.press({k})"]] if f"app.press({k})" in base else None
    items = hand_items(view)
    wanted = command.replace(",", " ").split()
    picks: list[int] = []
    for word in wanted:
        free = [i for i, item in enumerate(items) if item == word and i not in picks]
        if free:
            picks.append(free[0])
    if picks:
        ui = HandUI(picks=tuple(picks))
        picked = hand_controls(game, view, seat, ui, lang, True, templates)
        for k, a in enumerate(picked.actions):
            if a.with_items and _made(game, ui, view, templates, Command(a.index, mask_of(picks), a.option), command):
                after = _keys_of(replace(hand, controls=picked), order, lang)
                keys = [base.get(f"app.pick({i})") for i in picks] + [after.get(f"app.press({k})")]
                return [key for key in keys if key] if all(keys) else None
    if c.move_index is not None and not c.picks:
        start = base.get(f"app.press({len(c.actions)})")
        source, target = templates[c.move_index].open_slots()
        for piece in range(len(source.options)):
            for dest in range(len(target.options)):
                try:
                    made = decoded(game, view, templates, HandUI(), MoveTo(c.move_index, piece, dest))
                except CodecError:
                    continue
                if isinstance(made, str) and _same(made, command) and start and piece < 10 and dest < 10:
                    return [start, "1234567890"[piece], "1234567890"[dest]]
    return None


def _made(game: str, ui: HandUI, view: dict[str, Any], templates: list[MoveTemplate], pressed: Command,
          command: str) -> bool:
    """Whether `pressed` on screen `ui` sends `command` (decoded as the service decodes it)."""
    try:
        made = decoded(game, view, templates, ui, pressed)
    except CodecError:
        return False
    return isinstance(made, str) and _same(made, command)


def typed_keys(command: str, complete: Any) -> list[str]:
    """`:`, the command typed with Tab wherever the completion (`complete(value) -> str | None`)
    leads towards it, then Enter."""
    keys = [COMMAND_KEY]
    value = ""
    while value != command:
        suggestion = complete(value) if value else None
        if suggestion and len(suggestion) > len(value) and command.lower().startswith(suggestion.lower()):
            keys.append(TAB)
            value = command[:len(suggestion)]
            continue
        keys.append(command[len(value)])
        value += command[len(value)]
    keys.append(ENTER)
    return keys


def keys_for(hand: HandPanel | None, order: tuple[int, ...], templates: list[MoveTemplate], command: str,
             lang: str, complete: Any) -> list[str]:
    """The shorter of the hand pane's keys and the typed command's."""
    typed = typed_keys(command, complete)
    if hand is None:
        return typed
    buttons = button_keys(hand, order, templates, command, lang)
    return buttons if buttons is not None and len(buttons) <= len(typed) else typed
