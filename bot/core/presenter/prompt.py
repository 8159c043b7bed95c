"""The legal moves as a typing prompt (the terminal's): one short line of commands to type, built
from the same hand controls and move templates as every button, so it offers only what the engine
reads and nothing the engine refuses outright.

A control that needs no pick is written out as the command it sends (`draw`, `take bank`); a move
over hand items, or one whose slot has several options, is its template with the open slots named
in the player's language (`discard <card>`, `add <meld> <tiles>`). Commands are the game's grammar,
which is the same in every language; only the slot names are translated.
"""

from __future__ import annotations

from typing import Any

from bot.core.grammar import command
from bot.core.i18n import has, t
from bot.core.presenter.controls import hand_controls
from bot.core.presenter.hand_ui import HandUI
from rules.core.moves import MoveTemplate, Slot

SEPARATOR = " · "
MORE = "…"
WIDTH = 72  # the moves part of the prompt: room is left on an 80-column line for what is typed
HINT = "hint"


def _slot_text(game: str, verb: str, slot: Slot, lang: str) -> str:
    if slot.kind == "word":
        return slot.text
    if slot.kind in ("meld", "position", "choice") and len(slot.options) == 1:
        return slot.options[0]  # nothing to choose: the command as it will be typed
    if slot.kind == "items":
        many = "many" if slot.max > 1 else "one"
        return t(f"prompt.slot.{many}.{game}", lang)
    if slot.kind == "meld" and "new" in slot.options:
        return t("prompt.slot.meld_or_new", lang)
    if slot.kind == "piece" and has(f"prompt.slot.piece.{verb}", lang):
        return t(f"prompt.slot.piece.{verb}", lang)  # a table item is written two ways: `k6 1`, `1 3`
    return t(f"prompt.slot.{slot.kind}", lang)


def shape(game: str, template: MoveTemplate, lang: str) -> str:
    """The template as a command with its open slots named: `lay <cards> on <meld>`."""
    return " ".join([template.verb, *(_slot_text(game, template.verb, s, lang) for s in template.slots)])


def typed_moves(game: str, view: dict[str, Any], seat: int, templates: list[MoveTemplate], lang: str,
                hints: bool = False) -> list[str]:
    """What `seat` can type now, in the engine's order; empty when it is not the seat's turn.
    `hints`: the table's hints option is on, so `hint` is offered too."""
    controls = hand_controls(game, view, seat, HandUI(), lang, True, templates, suggest=False)
    if not controls.my_turn:
        return []
    plain: dict[int, list[str]] = {}
    for action in controls.actions:  # no picks: these are the moves that need none
        plain.setdefault(action.index, []).append(command(templates, action.index, action.option, []))
    out: list[str] = []
    for index, tpl in enumerate(templates):
        if index in plain:
            texts = plain[index]
            out.append(texts[0] if len(texts) == 1 else shape(game, tpl, lang))
        elif tpl.available is not False and any(s.kind in ("items", "melds", "piece") for s in tpl.open_slots()):
            # Undecided (`open <melds>` before opening) is offered: some filling may be legal.
            out.append(shape(game, tpl, lang))
    if hints:
        out.append(HINT)
    return list(dict.fromkeys(out))


def prompt_line(moves: list[str], width: int = WIDTH) -> str:
    """The moves on one line of at most `width` characters: whole moves in order, then `…` when some
    are left out (`help` lists them all). `hint`, when offered, is kept at the end."""
    tail = [HINT] if moves and moves[-1] == HINT else []
    body = moves[: len(moves) - len(tail)]
    room = width - sum(len(SEPARATOR + x) for x in tail)
    shown: list[str] = []
    for k, move in enumerate(body):
        more = len(SEPARATOR + MORE) if k < len(body) - 1 else 0
        if len(SEPARATOR.join([*shown, move])) + more > room:
            shown.append(MORE)
            break
        shown.append(move)
    return SEPARATOR.join(shown + tail)
