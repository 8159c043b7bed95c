"""The hand's grammar for buttons, shared by every chat adapter (no game rule in here).

Hand buttons come from two sources: the items of the player's view (rack tiles or cards, in the
view's own order) and the engine's `help_text` grammar. A help example whose arguments are all
items (`new r5 r6 r7`, `discard 10H`) becomes a button that sends the verb with the picked items;
one that starts with a number (`add 2 r8`) becomes one button per meld on the table; one with no
arguments (`draw`, `done`) a plain button; `move k6 1 new` a two-step move. Everything else is typed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rules import Engine


@dataclass(frozen=True)
class Template:
    index: int
    verb: str
    kind: Literal["plain", "items", "meld_items", "move"]


def templates(engine: Engine) -> list[Template]:
    """Button templates from the engine's grammar examples (see the module docstring)."""
    out = []
    for i, (example, _) in enumerate(engine.help_text()):
        verb, *args = example.split()
        if not args:
            out.append(Template(i, verb, "plain"))
        elif "|" in args or any(a.startswith("[") for a in args):
            continue
        elif all(not a.isdigit() for a in args):
            out.append(Template(i, verb, "items"))
        elif args[0].isdigit() and len(args) > 1 and all(not a.isdigit() for a in args[1:]):
            out.append(Template(i, verb, "meld_items"))
        elif len(args) == 3 and not args[0].isdigit() and args[1].isdigit() and not args[2].isdigit():
            # `move k6 1 new`: an item of a table meld, its meld, and where it goes (a meld or new).
            out.append(Template(i, verb, "move"))
    return out


def hand_items(view: dict[str, Any]) -> list[str]:
    """The items a player picks from: the draft's rack while drafting, else the rack or hand."""
    draft = view.get("draft")
    if isinstance(draft, dict) and isinstance(draft.get("rack"), list):
        return list(draft["rack"])
    for key in ("rack", "hand", "cards"):
        if isinstance(view.get(key), list):
            return list(view[key])
    return []


def melds_of(view: dict[str, Any]) -> list[list[str]]:
    """The numbered melds a command can point at: the draft's while drafting, else the table's."""
    draft = view.get("draft")
    found: Any = draft.get("melds") if isinstance(draft, dict) else None
    if not isinstance(found, list):
        found = next((view[k] for k in ("table", "melds") if isinstance(view.get(k), list)), [])
    return [list(m.get("tiles", [])) if isinstance(m, dict) else list(m) for m in found]


def meld_count(view: dict[str, Any]) -> int:
    return len(melds_of(view))


def compose(template: Template, items: list[str], meld: int | None, dst: int | None = None) -> str:
    """The engine text command a hand button stands for."""
    if template.kind == "move":
        return f"{template.verb} {items[0]} {meld} {dst if dst else 'new'}"
    parts = [template.verb]
    if template.kind == "meld_items":
        parts.append(str(meld))
    if template.kind != "plain":
        parts += items
    return " ".join(parts)
