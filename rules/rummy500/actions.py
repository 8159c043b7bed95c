"""Rummy 500 actions and the text grammar of spec §13: `parse(format(a)) == a` for every action."""

from __future__ import annotations

import re

from pydantic import Field, field_validator, model_validator

from rules.core.cards import parse_card
from rules.core.engine import Action
from rules.core.errors import IllegalAction, names_command


def _canonical(card: str | None) -> str | None:
    """Actions hold canonical cards only (`10H`, `JK`), so the engine never meets an unknown card."""
    if card is None:
        return None
    try:
        ok = parse_card(card) == card
    except IllegalAction:
        ok = False
    if not ok:
        raise ValueError(f"not a canonical card: {card!r}")
    return card


class TakeBank(Action):
    """`take bank` / `draw` (R500-20)."""


class Lay(Action):
    """`lay <cards> [on S<n>]`: a base meld (R500-41) or an extension of structure `on` (R500-42..44)."""

    cards: tuple[str, ...] = Field(min_length=1)
    on: int | None = Field(None, ge=1)

    @field_validator("cards")
    @classmethod
    def _cards(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for card in value:
            _canonical(card)
        return value


class TakeMarket(Action):
    """`take market <card | #pos> [leave <card>]; lay …` (R500-30/31): one atomic command."""

    target: str | None = None
    pos: int | None = Field(None, ge=1)
    leave: str | None = None
    lays: tuple[Lay, ...] = ()

    @field_validator("target", "leave")
    @classmethod
    def _card(cls, value: str | None) -> str | None:
        return _canonical(value)

    @model_validator(mode="after")
    def _one_target(self) -> TakeMarket:
        if (self.target is None) == (self.pos is None):
            raise ValueError("name the target by card or by #position, not both")
        return self


class Discard(Action):
    card: str

    @field_validator("card")
    @classmethod
    def _card(cls, value: str) -> str:
        return str(_canonical(value))


class End(Action):
    pass


class Stop(Action):
    pass


class Timeout(Action):
    service_only = True


_STRUCT = re.compile(r"^s?([0-9]{1,6})$", re.I)
_POS = re.compile(r"^#([0-9]{1,6})$")


def _err(expected: str, token: str) -> IllegalAction:
    return IllegalAction("E_PARSE", expected=expected, token=token)


def _cards(tokens: list[str]) -> tuple[str, ...]:
    return tuple(parse_card(t) for t in tokens)


def _lay(text: str) -> Lay:
    tokens = text.split()
    if not tokens or tokens[0].lower() != "lay":
        raise _err("lay_part", tokens[0] if tokens else ";")
    body = tokens[1:]
    on = None
    lowered = [t.lower() for t in body]
    if "on" in lowered:
        i = lowered.index("on")
        if i != len(body) - 2:
            raise _err("on_last", " ".join(body[i:]) or "on")
        m = _STRUCT.match(body[-1])
        if not m or int(m.group(1)) < 1:
            raise _err("structure", body[-1])
        on = int(m.group(1))
        body = body[:i]
    if not body:
        raise _err("missing", "lay")
    return Lay(cards=_cards(body), on=on)


def _take(args: list[str], rest_parts: list[str]) -> Action:
    if len(args) == 1 and args[0].lower() == "bank":
        if rest_parts:
            raise _err("bank_alone", ";")
        return TakeBank()
    if args and args[0].lower() == "market":
        args = args[1:]
    if not args:
        raise _err("missing", "take")
    target: str | None = None
    pos: int | None = None
    m = _POS.match(args[0])
    if m:
        pos = int(m.group(1))
        if pos < 1:
            raise _err("market_position", args[0])
    else:
        target = parse_card(args[0])
    leave = None
    tail = args[1:]
    if tail:
        if tail[0].lower() != "leave" or len(tail) != 2:
            raise _err("leave", " ".join(tail))
        leave = parse_card(tail[1])
    lays = tuple(_lay(part) for part in rest_parts)
    return TakeMarket(target=target, pos=pos, leave=leave, lays=lays)


_SIMPLE = {"draw": TakeBank, "end": End, "stop": Stop, "timeout": Timeout}


@names_command
def parse(text: str) -> Action:
    """Parse one command of the §13 grammar (case-insensitive); `E_PARSE` names what was wrong."""
    if not isinstance(text, str) or not text.strip():
        raise _err("command", "")
    parts = [p.strip() for p in text.strip().split(";")]
    first = parts[0].split()
    if not first:
        raise _err("command", ";")
    verb = first[0].lower().lstrip("/")
    args = first[1:]
    rest = parts[1:]
    if any(not p for p in rest):
        raise _err("lay_part", ";")
    if verb == "take":
        return _take(args, rest)
    if rest:
        raise _err("one_command", ";")
    if verb in _SIMPLE:
        if args:
            raise _err("no_args", " ".join(args))
        return _SIMPLE[verb]()
    if verb == "lay":
        return _lay(parts[0])
    if verb == "discard":
        if len(args) != 1:
            raise _err("missing" if not args else "args", " ".join(args) or verb)
        return Discard(card=parse_card(args[0]))
    raise _err("command", first[0])


def format_lay(lay: Lay) -> str:
    text = "lay " + " ".join(lay.cards)
    return f"{text} on S{lay.on}" if lay.on is not None else text


def format_action(action: Action) -> str:
    match action:
        case TakeBank():
            return "take bank"
        case TakeMarket(target=target, pos=pos, leave=leave, lays=lays):
            head = "take market " + (f"#{pos}" if pos is not None else str(target))
            if leave is not None:
                head += f" leave {leave}"
            return "; ".join([head, *(format_lay(lay) for lay in lays)])
        case Lay():
            return format_lay(action)
        case Discard(card=card):
            return f"discard {card}"
        case End():
            return "end"
        case Stop():
            return "stop"
        case Timeout():
            return "timeout"
    raise TypeError(f"not a Rummy 500 action: {action!r}")
