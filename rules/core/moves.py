"""Legal moves as typed templates: what one seat can do now, declared by its engine.

A template is a verb and its slots in command order. Slots are fixed words (`word`), hand items in
the order picked (`items`), a meld reference in the game's own numbering (`meld`: `3`, `S2`, or a
rank in Canasta), a market position (`position`), a table item with its meld (`piece`: `k6 1`), or
one of a few literals (`choice`: `bank`, `new`); `melds` is several groups of items written with
`|` between them (an opening batch), staged meld by meld on the hand screen or typed; its `join`
items (the top discard a take uses) join the last group. Adapters build buttons, menus and prompts from
these templates alone, and `compose` is the only way they turn a filled template into command text,
so a button can only ever send what the engine's grammar reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict, model_validator

SlotKind = Literal["word", "items", "melds", "meld", "position", "piece", "choice"]
# A list of items for an `items` slot, a list of item lists for `melds`, else one of the slot's options.
Filling = str | Sequence[str] | Sequence[Sequence[str]]


class Slot(BaseModel):
    """One place of a command. `options` (with `labels` for display) list what a non-item slot may
    hold; `fits`, when the engine knows it cheaply, lists the only items that can fill an `items` slot."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: SlotKind
    text: str = ""  # a `word` slot's text
    min: int = 1  # items slots: how many items
    max: int = 1
    options: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()
    fits: tuple[str, ...] | None = None
    join: tuple[str, ...] = ()  # melds slots: items not from the hand that join the last group

    @model_validator(mode="after")
    def _consistent(self) -> Slot:
        if self.labels and len(self.labels) != len(self.options):
            raise ValueError("one label per option")
        if self.kind in ("items", "melds") and not 0 <= self.min <= self.max:
            raise ValueError("an items slot takes 0 <= min <= max items")
        if self.kind == "word" and not self.text:
            raise ValueError("a word slot needs its text")
        return self

    def label(self, option: str) -> str:
        """How an option is shown on a button (the option itself unless the engine named it)."""
        return self.labels[self.options.index(option)] if self.labels else option

    def can_hold(self, items: Sequence[str]) -> bool:
        """Whether these picked items fit this `items` slot (count, and `fits` when given)."""
        if not self.min <= len(items) <= self.max:
            return False
        return self.fits is None or not Counter(items) - Counter(self.fits)


def word(text: str) -> Slot:
    return Slot(kind="word", text=text)


def melds(fits: Sequence[str] | None = None, join: Sequence[str] = ()) -> Slot:
    return Slot(kind="melds", min=1, max=99, fits=None if fits is None else tuple(fits), join=tuple(join))


def items(min: int = 1, max: int = 1, fits: Sequence[str] | None = None) -> Slot:
    return Slot(kind="items", min=min, max=max, fits=None if fits is None else tuple(fits))


def pick(kind: SlotKind, options: Sequence[str], labels: Sequence[str] = ()) -> Slot:
    return Slot(kind=kind, options=tuple(options), labels=tuple(labels))


class MoveTemplate(BaseModel):
    """A move a seat may make: `verb` (the command's first word), its `slots` in command order,
    the catalog key of its button label, and whether it is legal now. `available` True means the
    engine accepts at least one filling in this state; False means every filling is refused."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verb: str
    slots: tuple[Slot, ...] = ()
    label_key: str
    available: bool | None = None

    @property
    def name(self) -> str:
        """The template's own name (the label key's last part): `take_bank`, `lay_on`."""
        return self.label_key.rsplit(".", 1)[-1]

    def open_slots(self) -> list[Slot]:
        """The slots a caller fills, in order (every slot but the fixed words)."""
        return [s for s in self.slots if s.kind != "word"]

    def item_slot(self) -> Slot | None:
        return next((s for s in self.slots if s.kind == "items"), None)


def compose(template: MoveTemplate, filled: Sequence[Filling] = ()) -> str:
    """The command text of a template with one filling per open slot, in slot order.

    `ValueError` when a filling does not fit its slot (an option it does not list, too many or too
    few items), so a stale or forged button cannot smuggle other words into a command."""
    open_slots = template.open_slots()
    if len(filled) != len(open_slots):
        raise ValueError(f"{template.verb}: {len(open_slots)} slots, {len(filled)} fillings")
    values = iter(filled)
    words = [template.verb]
    for slot in template.slots:
        if slot.kind == "word":
            words.append(slot.text)
            continue
        value = next(values)
        if slot.kind == "items":
            # Only a flat list of item words fits (a list of lists would be melds, not items).
            picked = [] if isinstance(value, str) else [v for v in value if isinstance(v, str)]
            if isinstance(value, str) or len(picked) != len(value) or not slot.can_hold(picked):
                raise ValueError(f"{template.verb}: {value!r} does not fit the items slot")
            words.extend(picked)
        elif slot.kind == "melds":
            groups = [list(g) for g in value] if not isinstance(value, str) else []
            if not groups or any(not g or isinstance(g, str) for g in value):
                raise ValueError(f"{template.verb}: {value!r} is not a list of melds")
            groups[-1].extend(slot.join)
            words.append(" | ".join(" ".join(g) for g in groups))
        else:
            if not isinstance(value, str) or value not in slot.options:
                raise ValueError(f"{template.verb}: {value!r} is not one of {slot.options}")
            words.append(value)
    return " ".join(words)


def available(templates: Sequence[MoveTemplate]) -> list[MoveTemplate]:
    return [tpl for tpl in templates if tpl.available]
