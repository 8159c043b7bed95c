"""The presses that make a given move on a seat's hand screen, through the presenter's controls only
(issue 25's tap-completeness): a suggested move (one press), or picks, staged melds and a move
button, or the two-step table-item move — each route played through `presenter.press` and
`hand_controls` and accepted only when the command it sends parses to the very same action.

A pick is one press per item (Telegram's toggles, the page's taps); staging a meld is one press; the
move button is one. Used by bench/bench_taps.py and tests/bot/test_taps.py.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from bot.core.codec import CodecError, mask_of
from bot.core.grammar import ENUMERATED, hand_items, is_move
from bot.core.presenter import press
from bot.core.presenter.controls import hand_controls
from bot.core.presenter.hand_ui import HandUI
from rules import Action, IllegalAction, get_engine
from rules.core.moves import Filling, MoveTemplate, Slot, compose


@dataclass(frozen=True)
class Plan:
    """How a move is made: `route` ("suggestion", "controls", "move") and the presses in order."""

    route: str
    presses: tuple[str, ...]


@dataclass(frozen=True)
class Target:
    """The move looked for. With `state` (the table the move is made on), a command counts as making
    it when it leaves the same state (`j` for `j=k10` where the meld says which, the tiles of a run
    in another order); without, only the very same action counts."""

    game: str
    action: Action
    state: dict[str, Any] | None = None
    seat: int = 0

    def made_by(self, text: str) -> bool:
        engine = get_engine(self.game)
        try:
            sent = engine.parse(text)
            if sent == self.action or self.state is None:
                return sent == self.action
            return engine.apply(self.state, self.seat, sent)[0] == engine.apply(self.state, self.seat, self.action)[0]
        except IllegalAction:
            return False


def plan_move(game: str, view: dict[str, Any], seat: int, action: Action, suggest: bool = True,
              state: dict[str, Any] | None = None) -> Plan | None:
    """The shortest way found to make `action` by presses, or None when no control sends it.
    `suggest` False: without the suggested moves (picks, staging and move buttons only); `state`:
    a command that leaves the same table counts too (see `Target`)."""
    target = Target(game, action, state, seat)
    templates = get_engine(game).moves(view)
    controls = hand_controls(game, view, seat, HandUI(), "en", True, templates, suggest=suggest)
    for s in controls.suggestions:
        if target.made_by(press.suggestion(game, view, s.index)):
            return Plan("suggestion", (f"sug {s.index}",))
    plans = [p for index, tpl in enumerate(templates) if tpl.available is not False
             for p in _template_plans(target, view, templates, index, tpl)]
    return min(plans, key=lambda p: len(p.presses), default=None)


def _template_plans(target: Target, view: dict[str, Any], templates: list[MoveTemplate], index: int,
                    tpl: MoveTemplate) -> Iterator[Plan]:
    slots = tpl.open_slots()
    if is_move(tpl):
        source, dest = slots
        for k, d in product(range(len(source.options)), range(len(dest.options))):
            if target.made_by(press.move_to(templates, index, k, d)):
                yield Plan("move", ("mvs", f"mvt {k}", f"mv {d}"))
        return
    if all(s.kind in ENUMERATED for s in slots):
        for choice in product(*(s.options for s in slots)):
            if target.made_by(compose(tpl, list(choice))):
                plan = _press_through(target, view, templates, index, tpl, list(choice))
                if plan is not None:
                    yield plan
        return
    words = get_engine(target.game).format(target.action).split()
    if not words or words[0] != tpl.verb:
        return
    for filling in _fillings(tpl.slots, words[1:]):
        plan = _press_through(target, view, templates, index, tpl, filling)
        if plan is not None:
            yield plan


def _fillings(slots: Sequence[Slot], words: list[str]) -> Iterator[list[Filling]]:
    """Every way the words read as these slots (items and melds spans, options as written)."""
    if not slots:
        if not words:
            yield []
        return
    slot, rest = slots[0], slots[1:]
    if slot.kind == "word":
        if words and words[0] == slot.text:
            yield from _fillings(rest, words[1:])
        return
    if slot.kind in ENUMERATED or slot.kind == "piece":
        for option in slot.options:
            size = len(option.split())
            if words[:size] == option.split():
                yield from ([option, *f] for f in _fillings(rest, words[size:]))
        return
    for n in range(1, len(words) + 1):
        span = words[:n]
        if slot.kind == "items":
            if slot.min <= n <= slot.max:
                yield from ([span, *f] for f in _fillings(rest, words[n:]))
            continue
        groups = " ".join(span).split(" | ")
        if all(g.strip() for g in groups):
            yield from ([[g.split() for g in groups], *f] for f in _fillings(rest, words[n:]))


def _press_through(target: Target, view: dict[str, Any], templates: list[MoveTemplate], index: int,
                   tpl: MoveTemplate, filling: list[Filling]) -> Plan | None:
    """Make the filling by presses (picks, staging, the move button) and check what it sends."""
    hand = hand_items(view)
    presses: list[str] = []
    ui = HandUI()
    option: int | None = None
    last: list[str] = []
    try:
        for slot, fill in zip(tpl.open_slots(), filling, strict=True):
            if slot.kind == "items":
                last = list(fill)  # type: ignore[arg-type]
            elif slot.kind == "melds":
                groups = [list(g) for g in fill]  # type: ignore[union-attr]
                for item in slot.join:  # the join items are the template's own: not picked
                    if item not in groups[-1]:
                        return None
                    groups[-1].remove(item)
                if not groups[-1]:
                    return None
                for group in groups[:-1]:
                    ui = _pick(ui, view, hand, group, presses)
                    ui = press.stage(ui, view, templates)
                    presses.append("stage")
                last = groups[-1]
            elif isinstance(fill, str):
                option = slot.options.index(fill)
        ui = _pick(ui, view, hand, last, presses)
    except (CodecError, LookupError):
        return None
    controls = hand_controls(target.game, view, target.seat, ui, "en", True, templates, suggest=False)
    button = next((a for a in controls.actions if a.index == index and a.option == option), None)
    if button is None:
        return None
    mask = mask_of(list(ui.picks)) if button.with_items and ui.picks else "0"
    try:
        text = press.command(ui, view, templates, index, mask, option)
    except CodecError:
        return None
    if not target.made_by(text):
        return None
    return Plan("controls", (*presses, f"cmd {index}" + ("" if option is None else f" {option}")))


def _pick(ui: HandUI, view: dict[str, Any], hand: list[str], words: list[str], presses: list[str]) -> HandUI:
    """Pick each item in order, one press each (`LookupError` when the hand does not hold it)."""
    for word in words:
        taken = set(ui.picks) | ui.staged_items
        # A joker declared in the command (`j=k10`, Rummy 101's notation) is the hand's `j` when picked.
        free = [k for k, item in enumerate(hand) if item in (word, word.split("=")[0]) and k not in taken]
        if not free:
            raise LookupError(word)
        i = free[0]
        ui = press.pick(ui, view, [*ui.picks, i])
        presses.append(f"pick {i}")
    return ui
