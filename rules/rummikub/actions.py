"""Rummikub actions and the text grammar of spec §13: `parse(format(a)) == a` for every action."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from rules.core.engine import Action
from rules.core.errors import IllegalAction, names_command
from rules.core.meld_list import split_melds
from rules.core.tiles import parse_tile

Prefix = Literal["G", "R"] | None


class MeldSpec(Action):
    """A meld as written: tiles in order plus an optional type prefix (RK-03, RK-35)."""

    tiles: tuple[str, ...]
    prefix: Prefix = None


class Play(Action):
    melds: tuple[MeldSpec, ...] = Field(min_length=1)


class Draw(Action):
    pass


class Pass(Action):
    pass


class Timeout(Action):
    service_only = True


class NewMeld(Action):
    tiles: tuple[str, ...] = Field(min_length=1)
    prefix: Prefix = None


class AddTiles(Action):
    meld: int = Field(ge=0)
    tiles: tuple[str, ...] = Field(min_length=1)


class MoveTile(Action):
    tile: str
    src: int = Field(ge=0)
    dst: int | None = Field(None, ge=0)  # None: a new meld at the end


class ToRack(Action):
    """`move <tile> <from#> rack`: a tile placed this turn goes back from the draft to the rack."""

    tile: str
    src: int = Field(ge=0)


class Split(Action):
    meld: int = Field(ge=0)
    pos: int = Field(ge=0)


class Reset(Action):
    pass


class Done(Action):
    pass


DRAFT_ACTIONS = (NewMeld, AddTiles, MoveTile, ToRack, Split, Reset, Done)


def _tiles(tokens: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    return tuple(parse_tile(t) for t in tokens)


def parse_melds(text: str) -> tuple[MeldSpec, ...]:
    """A list of melds in the shared notation (rules/core/meld_list.py): `a b c | d e f`, `[a b c] [d e f]`,
    or both mixed; `G:`/`R:` before a meld (or just inside its bracket) marks its type."""
    return tuple(MeldSpec(tiles=_tiles(m.tokens), prefix=m.prefix) for m in split_melds(text, prefixes="GR"))


_NUMBER = re.compile(r"[0-9]{1,9}")


def _int(token: str, what: str) -> int:
    # ASCII digits only: str.isdigit() also takes "²", which int() refuses. A well-formed number
    # that names no meld or position (0, 99) is the draft's E_BAD_REF (RK-26), not a parse error.
    if not _NUMBER.fullmatch(token):
        raise IllegalAction("E_PARSE", expected=what, token=token)
    return int(token)


def _arity(verb: str, args: list[str], count: int) -> None:
    if len(args) != count:
        # `what` names the slip for the sentence: words after a bare command, or too few / too many.
        what = "no_args" if count == 0 else "missing" if len(args) < count else "args"
        raise IllegalAction("E_PARSE", expected=what, token=" ".join(args) or verb, count=count)


@names_command
def parse(text: str) -> Action:
    """Parse one command of the §13 grammar (case-insensitive); `E_PARSE` names what was wrong."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction("E_PARSE", expected="command", token="")
    verb, _, rest = text.strip().partition(" ")
    if verb.startswith("/"):
        verb = verb[1:]
    verb = verb.lower()
    args = rest.split()
    if verb == "play":
        return Play(melds=parse_melds(rest))
    if verb in ("draw", "pass", "reset", "done", "timeout"):
        _arity(verb, args, 0)
        return {"draw": Draw, "pass": Pass, "reset": Reset, "done": Done, "timeout": Timeout}[verb]()
    if verb == "new":
        melds = parse_melds(rest)
        if len(melds) != 1:
            raise IllegalAction("E_PARSE", expected="one_meld", token=rest.strip())
        return NewMeld(tiles=melds[0].tiles, prefix=melds[0].prefix)
    if verb == "add":
        if len(args) < 2:
            raise IllegalAction("E_PARSE", expected="missing", token=rest.strip() or verb)
        return AddTiles(meld=_int(args[0], "meld_number"), tiles=_tiles(args[1:]))
    if verb == "move":
        _arity(verb, args, 3)
        if args[2].lower() == "rack":
            return ToRack(tile=parse_tile(args[0]), src=_int(args[1], "meld_number"))
        dst = None if args[2].lower() == "new" else _int(args[2], "meld_new_or_rack")
        return MoveTile(tile=parse_tile(args[0]), src=_int(args[1], "meld_number"), dst=dst)
    if verb == "split":
        _arity(verb, args, 2)
        return Split(meld=_int(args[0], "meld_number"), pos=_int(args[1], "position"))
    raise IllegalAction("E_PARSE", expected="command", token=verb)


def format_meld(meld: MeldSpec) -> str:
    body = " ".join(meld.tiles)
    return f"{meld.prefix}:{body}" if meld.prefix else body


def format_action(action: Action) -> str:
    match action:
        case Play(melds=melds):
            return "play " + " | ".join(format_meld(m) for m in melds)
        case Draw():
            return "draw"
        case Pass():
            return "pass"
        case Timeout():
            return "timeout"
        case Reset():
            return "reset"
        case Done():
            return "done"
        case NewMeld(tiles=tiles, prefix=prefix):
            return "new " + format_meld(MeldSpec(tiles=tiles, prefix=prefix))
        case AddTiles(meld=meld, tiles=tiles):
            return f"add {meld} " + " ".join(tiles)
        case MoveTile(tile=tile, src=src, dst=dst):
            return f"move {tile} {src} {'new' if dst is None else dst}"
        case ToRack(tile=tile, src=src):
            return f"move {tile} {src} rack"
        case Split(meld=meld, pos=pos):
            return f"split {meld} {pos}"
    raise TypeError(f"not a Rummikub action: {action!r}")
