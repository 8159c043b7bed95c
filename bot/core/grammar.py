"""Hand controls for every chat adapter, built only from the engine's legal moves (no game rule here).

`engine.moves(view)` lists the game's move templates (rules/core/moves.py) with which are legal now;
this module turns the ones a button can fill into controls, and a pressed control back into command
text through `compose`, the only way a button builds text. A template with no slots is a plain
button; one with an items slot needs picked items (in pick order) that fit it; one with an enumerated
slot (a meld in the game's numbering, a market position, a literal) is one button per option; a
table item and its destination (`move`) is the two-step move; a `melds` slot takes the staged melds
and then the picks as its last meld (issue 25). The rest (a whole Rummikub layout) is typed or
built in the draft.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.moves import Filling, MoveTemplate, Slot, compose

ENUMERATED = ("meld", "position", "choice")


@dataclass(frozen=True)
class Control:
    """One hand button: template `index` in `moves(view)`, the option picked in its enumerated
    slot (None if it has none), whether it sends the picked items, and its label parts."""

    index: int
    option: int | None
    label_key: str
    verb: str
    detail: str = ""
    with_items: bool = False


def _shape(tpl: MoveTemplate) -> tuple[Slot | None, Slot | None, list[Slot]]:
    """The template's items slot, its one enumerated slot, and any other open slot."""
    open_slots = tpl.open_slots()
    items = next((s for s in open_slots if s.kind in ("items", "melds")), None)
    choice = next((s for s in open_slots if s.kind in ENUMERATED), None)
    rest = [s for s in open_slots if s is not items and s is not choice]
    return items, choice, rest


def is_move(tpl: MoveTemplate) -> bool:
    """A table item and where it goes: the two-step move flow."""
    kinds = [s.kind for s in tpl.open_slots()]
    return kinds == ["piece", "meld"]


def controls(templates: list[MoveTemplate], picked: list[str], staged: Sequence[Sequence[str]] = ()) -> list[Control]:
    """The buttons for these templates, the items picked so far and the melds staged (legal or
    undecided moves only)."""
    out: list[Control] = []
    for index, tpl in enumerate(templates):
        if tpl.available is False or is_move(tpl):
            continue
        items, choice, rest = _shape(tpl)
        if rest:
            continue  # e.g. a split point: typed
        if items is not None and not _holds(items, picked, staged):
            continue
        with_items = items is not None and bool(picked or items.min)
        if items is None and tpl.available is None:
            continue
        if choice is None:
            out.append(Control(index, None, tpl.label_key, tpl.verb, with_items=with_items))
            continue
        for k, option in enumerate(choice.options):
            out.append(Control(index, k, tpl.label_key, tpl.verb, choice.label(option), with_items))
    return out


def stages(slot: Slot) -> bool:
    """Whether hand items can fill this slot meld by meld (a Rummikub layout holds the table too:
    the engine says so with empty `fits`)."""
    return slot.kind == "melds" and slot.fits != ()


def staging_template(templates: list[MoveTemplate]) -> tuple[int, MoveTemplate] | None:
    """The move staged melds are for now: the first one with a `melds` slot that hand items fill
    and that is not refused outright (each game has at most one in a phase)."""
    for index, tpl in enumerate(templates):
        slot = next((s for s in tpl.open_slots() if s.kind == "melds"), None)
        if slot is not None and stages(slot) and tpl.available is not False:
            return index, tpl
    return None


def melds_filling(slot: Slot, picked: Sequence[str], staged: Sequence[Sequence[str]]) -> list[list[str]]:
    """The melds a `melds` slot is filled with: every staged meld, then the picks as the last one."""
    return [list(g) for g in staged] + ([list(picked)] if picked else [])


def _holds(slot: Slot, picked: list[str], staged: Sequence[Sequence[str]] = ()) -> bool:
    if slot.kind == "melds":
        used = [*picked, *(i for g in staged for i in g)]
        return stages(slot) and bool(used) and (slot.fits is None or set(used) <= set(slot.fits))
    if not picked:
        return slot.min == 0
    return slot.can_hold(picked)


def command(templates: list[MoveTemplate], index: int, option: int | None, picked: list[str],
            staged: Sequence[Sequence[str]] = ()) -> str:
    """The text a pressed control stands for; `ValueError` when it no longer fits the templates."""
    if not 0 <= index < len(templates):
        raise ValueError("no such move")
    tpl = templates[index]
    filled: list[Filling] = []
    for slot in tpl.open_slots():
        if slot.kind == "items":
            filled.append(list(picked))
        elif slot.kind == "melds":
            filled.append(melds_filling(slot, picked, staged))
        elif slot.kind in ENUMERATED and option is not None and 0 <= option < len(slot.options):
            filled.append(slot.options[option])
        else:
            raise ValueError("the move needs a filling this button does not have")
    return compose(tpl, filled)


def move_template(templates: list[MoveTemplate]) -> tuple[int, MoveTemplate] | None:
    """The available two-step move (a table item, then its destination), if the game has one."""
    return next(((i, t) for i, t in enumerate(templates) if is_move(t) and t.available), None)


def move_command(tpl: MoveTemplate, piece: int, dest: int) -> str:
    """`move` with the table item at option `piece` going to destination option `dest`."""
    source, target = tpl.open_slots()
    if not (0 <= piece < len(source.options) and 0 <= dest < len(target.options)):
        raise ValueError("no such table item or destination")
    return compose(tpl, [source.options[piece], target.options[dest]])


def hand_items(view: dict[str, Any]) -> list[str]:
    """The items a player picks from: the draft's rack while drafting, else the rack or hand."""
    draft = view.get("draft")
    if isinstance(draft, dict) and isinstance(draft.get("rack"), list):
        return list(draft["rack"])
    for key in ("rack", "hand", "cards"):
        if isinstance(view.get(key), list):
            return list(view[key])
    return []


def ordered_pick(previous: list[int], chosen: list[int]) -> list[int]:
    """The new selection in pick order: what stays keeps its place, what is new comes last."""
    kept = [i for i in previous if i in chosen]
    return kept + [i for i in chosen if i not in kept]
