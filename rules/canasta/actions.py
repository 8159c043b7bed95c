"""Canasta actions and the text grammar of spec §13: `parse(format(a)) == a` for every action."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field

from rules.core.engine import Action
from rules.core.errors import IllegalAction, names_command
from rules.core.meld_list import split_melds
from rules.core.tiles import parse_tile

MeldTiles = tuple[str, ...]
Team = Literal["A", "B"]


class Draw(Action):
    pass


class JokerButton(Action):
    pass


class TakePile(Action):
    """`take with <tiles> [| <melds>]`: the hand tiles joining the top, then further melds."""

    tiles: MeldTiles = Field(min_length=1)
    melds: tuple[MeldTiles, ...] = ()


class Open(Action):
    melds: tuple[MeldTiles, ...] = Field(min_length=1)


class Meld(Action):
    melds: tuple[MeldTiles, ...] = Field(min_length=1)


class Add(Action):
    number: int = Field(ge=1, le=13)
    tiles: MeldTiles = Field(min_length=1)
    team: Team | None = None


class Discard(Action):
    tile: str


class Timeout(Action):
    service_only = True


_MELD_REF = re.compile(r"^(?:([ab])\s*:\s*)?([0-9]{1,2})s?$", re.I)


def _tiles(tokens: list[str]) -> MeldTiles:
    return tuple(parse_tile(t) for t in tokens)


def parse_melds(text: str) -> tuple[MeldTiles, ...]:
    """Melds in the shared notation (rules/core/meld_list.py): separated by `|`, or each in brackets
    (`[r8 b8 k8] [r10 b10 j]`), or both mixed (`r5 b5 k5 | [r2 b2 j]`)."""
    return tuple(_tiles(list(m.tokens)) for m in split_melds(text))


def _meld_ref(token: str) -> tuple[Team | None, int]:
    m = _MELD_REF.match(token.strip())
    if not m or not 1 <= int(m.group(2)) <= 13:
        raise IllegalAction("E_PARSE", expected="canasta_number", token=token)
    letter = (m.group(1) or "").upper()
    team: Team | None = "A" if letter == "A" else "B" if letter == "B" else None  # the pattern admits a or b
    return team, int(m.group(2))


@names_command
def parse(text: str) -> Action:
    """Parse one command of the §13 grammar (case-insensitive); `E_PARSE` names what was wrong."""
    if not isinstance(text, str) or not text.strip():
        raise IllegalAction("E_PARSE", expected="command", token="")
    verb, _, rest = text.strip().partition(" ")
    verb = verb.lstrip("/").lower()
    args = rest.split()
    if verb in ("draw", "joker", "timeout"):
        if args:
            raise IllegalAction("E_PARSE", expected="no_args", token=args[0])
        return {"draw": Draw, "joker": JokerButton, "timeout": Timeout}[verb]()
    if verb == "take":
        body = rest.strip()
        if body[:4].lower() == "with" and (len(body) == 4 or not body[4].isalnum()):
            body = body[4:]
        melds = parse_melds(body)
        return TakePile(tiles=melds[0], melds=melds[1:])
    if verb == "open":
        return Open(melds=parse_melds(rest))
    if verb == "meld":
        return Meld(melds=parse_melds(rest))
    if verb == "add":
        if len(args) < 2:
            raise IllegalAction("E_PARSE", expected="missing", token=rest.strip() or verb)
        team, number = _meld_ref(args[0])
        tiles = _tiles(" ".join(args[1:]).replace("[", " ").replace("]", " ").split())
        if not tiles:
            raise IllegalAction("E_PARSE", expected="missing", token=rest.strip())
        return Add(number=number, tiles=tiles, team=team)
    if verb == "discard":
        if len(args) != 1:
            raise IllegalAction("E_PARSE", expected="missing" if not args else "args", token=rest.strip() or verb)
        return Discard(tile=parse_tile(args[0]))
    raise IllegalAction("E_PARSE", expected="command", token=verb)


def format_melds(melds: tuple[MeldTiles, ...]) -> str:
    return " | ".join(" ".join(m) for m in melds)


def format_action(action: Action) -> str:
    match action:
        case Draw():
            return "draw"
        case JokerButton():
            return "joker"
        case Timeout():
            return "timeout"
        case TakePile(tiles=tiles, melds=melds):
            return "take with " + format_melds((tiles, *melds))
        case Open(melds=melds):
            return "open " + format_melds(melds)
        case Meld(melds=melds):
            return "meld " + format_melds(melds)
        case Add(number=number, tiles=tiles, team=team):
            ref = f"{team}:{number}" if team else str(number)
            return f"add {ref} " + " ".join(tiles)
        case Discard(tile=tile):
            return f"discard {tile}"
    raise TypeError(f"not a Canasta action: {action!r}")
