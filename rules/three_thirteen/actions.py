"""Three-Thirteen actions and the text grammar of spec §13: `parse(format(a)) == a` for every action."""

from __future__ import annotations

from rules.core.cards import parse_card
from rules.core.engine import Action
from rules.core.errors import IllegalAction, names_command


class DrawStock(Action):
    """`draw` / `draw stock` (T13-20)."""


class TakeDiscard(Action):
    """`take` / `draw discard` (T13-20)."""


class Discard(Action):
    """`discard <card>` (T13-21); `card` is canonical (`10H`, `JK`)."""

    card: str


class Timeout(Action):
    """Applied by the table service when the turn timer expires (T13-29)."""

    service_only = True


def _no_more(verb: str, args: list[str]) -> None:
    if args:
        raise IllegalAction("E_PARSE", expected="no_args", token=" ".join(args), verb=verb)


@names_command
def parse(text: str) -> Action:
    """Parse one command of the §13 grammar (case-insensitive); `E_PARSE` names what was wrong."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction("E_PARSE", expected="command", token="")
    words = text.split()
    verb, args = words[0].lower().removeprefix("/"), words[1:]
    if verb == "draw":
        if args and args[0].lower() in ("stock", "discard"):
            source, args = args[0].lower(), args[1:]
            _no_more(f"draw {source}", args)
            return DrawStock() if source == "stock" else TakeDiscard()
        _no_more("draw", args)
        return DrawStock()
    if verb == "take":
        _no_more("take", args)
        return TakeDiscard()
    if verb == "timeout":
        _no_more("timeout", args)
        return Timeout()
    if verb == "discard":
        if len(args) != 1:
            raise IllegalAction("E_PARSE", expected="missing" if not args else "args", token=" ".join(args) or verb)
        return Discard(card=parse_card(args[0]))
    raise IllegalAction("E_PARSE", expected="command", token=words[0])


def format_action(action: Action) -> str:
    match action:
        case DrawStock():
            return "draw"
        case TakeDiscard():
            return "take"
        case Discard(card=card):
            return f"discard {card}"
        case Timeout():
            return "timeout"
    raise TypeError(f"not a Three-Thirteen action: {action!r}")
