"""Rummy 101 actions and the text grammar of spec §13: `parse(format(a)) == a` for every action."""

from __future__ import annotations

import re

from pydantic import Field

from rules.core.engine import Action
from rules.core.errors import IllegalAction, names_command
from rules.core.meld_list import split_melds
from rules.rummy101.melds import parse_token


class MeldSpec(Action):
    """A meld as written: tokens (`r10`, `j`, `j=r11`, `j=8`) in the order typed."""

    tiles: tuple[str, ...] = Field(min_length=1)


class Draw(Action):
    pass


class JokerButton(Action):
    pass


class Open(Action):
    melds: tuple[MeldSpec, ...] = Field(min_length=1)


class Meld(Action):
    melds: tuple[MeldSpec, ...] = Field(min_length=1)


class Add(Action):
    meld: int = Field(ge=0)
    tiles: tuple[str, ...] = Field(min_length=1)


class Swap(Action):
    meld: int = Field(ge=0)
    tile: str


class Take(Action):
    """Take the top discard and use it at once (R101-17); `use` None is the bare `take` (rejected)."""

    use: Open | Meld | Add | Swap | None = None


class Discard(Action):
    tile: str


class Timeout(Action):
    service_only = True


_NUMBER = re.compile(r"[0-9]{1,9}")


def parse_melds(text: str) -> tuple[MeldSpec, ...]:
    """Melds in the shared notation (rules/core/meld_list.py): separated by `|`, or each in brackets /
    parentheses (`[r3 r4 r5] (k9 j)`), or both mixed."""
    return tuple(MeldSpec(tiles=tuple(parse_token(t) for t in m.tokens)) for m in split_melds(text))


def _int(token: str) -> int:
    if not _NUMBER.fullmatch(token):
        raise IllegalAction("E_PARSE", expected="meld_number", token=token)
    return int(token)


def _tokens(args: list[str]) -> tuple[str, ...]:
    return tuple(parse_token(t) for t in " ".join(args).replace("[", " ").replace("]", " ").split())


def _use(verb: str, rest: str) -> Open | Meld | Add | Swap:
    args = rest.split()
    if verb == "open":
        return Open(melds=parse_melds(rest))
    if verb == "meld":
        return Meld(melds=parse_melds(rest))
    if verb == "add":
        if len(args) < 2:
            raise IllegalAction("E_PARSE", expected="missing", token=rest.strip() or verb)
        tiles = _tokens(args[1:])
        if not tiles:
            raise IllegalAction("E_PARSE", expected="missing", token=rest.strip())
        return Add(meld=_int(args[0]), tiles=tiles)
    if verb == "swap":
        if len(args) != 2:
            raise IllegalAction("E_PARSE", expected="missing" if len(args) < 2 else "args", token=rest.strip() or verb)
        return Swap(meld=_int(args[0]), tile=parse_token(args[1]))
    raise IllegalAction("E_PARSE", expected="use", token=verb)


def _split(text: str) -> tuple[str, str]:
    verb, _, rest = text.strip().partition(" ")
    verb = verb[1:] if verb.startswith("/") else verb
    return verb.lower(), rest


@names_command
def parse(text: str) -> Action:
    """Parse one command of the §13 grammar (case-insensitive); `E_PARSE` names what was wrong."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction("E_PARSE", expected="command", token="")
    verb, rest = _split(text)
    simple = {"draw": Draw, "joker": JokerButton, "timeout": Timeout}
    if verb in simple:
        if rest.strip():
            raise IllegalAction("E_PARSE", expected="no_args", token=rest.split()[0])
        return simple[verb]()
    if verb == "take":
        if not rest.strip():
            return Take()
        inner, inner_rest = _split(rest)
        return Take(use=_use(inner, inner_rest))
    if verb in ("open", "meld", "add", "swap"):
        return _use(verb, rest)
    if verb == "discard":
        args = rest.split()
        if len(args) != 1:
            raise IllegalAction("E_PARSE", expected="missing" if not args else "args", token=rest.strip() or verb)
        return Discard(tile=parse_token(args[0]).split("=")[0])
    raise IllegalAction("E_PARSE", expected="command", token=verb)


def format_melds(melds: tuple[MeldSpec, ...]) -> str:
    return " | ".join(" ".join(m.tiles) for m in melds)


def format_action(action: Action) -> str:
    match action:
        case Draw():
            return "draw"
        case JokerButton():
            return "joker"
        case Timeout():
            return "timeout"
        case Open(melds=melds):
            return "open " + format_melds(melds)
        case Meld(melds=melds):
            return "meld " + format_melds(melds)
        case Add(meld=meld, tiles=tiles):
            return f"add {meld} " + " ".join(tiles)
        case Swap(meld=meld, tile=tile):
            return f"swap {meld} {tile}"
        case Take(use=use):
            return "take" if use is None else "take " + format_action(use)
        case Discard(tile=tile):
            return f"discard {tile}"
    raise TypeError(f"not a Rummy 101 action: {action!r}")
