"""Table options typed as text, and what a refused option allows (shared by every game's options).

Players type options (`match_rounds=3`, `allow_draw=on`, `first_dealer=Random`) and the buttons set
typed values; both go through `GameOptions.parse_options`, so the text must become the same value
the button would store. Pydantic's lax mode already turns "60" into 60 and "on"/"yes"/"true" into
True; it never turns "3" into the 3 of a `Literal[1, 3, 5]` or "Fixed" into "fixed", which
`text_to_choice` does. A refusal becomes a reason code and parameters (no wording here: the
adapters word it per language) built from pydantic's error types.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any, Literal

from pydantic import Field, ValidationError, ValidatorFunctionWrapHandler
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

Problem = tuple[str, dict[str, Any]]

# Pydantic error types of an int field, whatever the input was: all mean "not a number in range".
_INT_ERRORS = {
    "int_type", "int_parsing", "int_parsing_size", "int_from_float", "greater_than", "greater_than_equal",
    "less_than", "less_than_equal", "multiple_of",
}
_BOOL_ERRORS = {"bool_type", "bool_parsing"}


def _spelling(text: str) -> str:
    # "One-More turn", "one_more_turn" and "3_rounds" name the choices "one_more_turn" and "3 rounds":
    # a shell or a chat makes spaces awkward to type, so separators and case do not count.
    return re.sub(r"[\s_-]+", " ", text.strip().casefold())


def literal_choices(annotation: Any) -> list[Any]:
    """The `Literal` values an annotation allows, looking inside unions (`Literal["random"] | int`)."""
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        return [c for arg in typing.get_args(annotation) for c in literal_choices(arg)]
    return []


def text_to_choice(annotation: Any, text: str) -> Any:
    """The Literal choice `text` spells (the 3 for "3", "fixed" for "Fixed"), else the stripped
    text, which pydantic then validates as usual (and refuses if it is no value of the field)."""
    wanted = _spelling(text)
    for choice in literal_choices(annotation):
        if not isinstance(choice, bool) and _spelling(str(choice)) == wanted:
            return choice
    return text.strip()


def texts_to_choices(fields: dict[str, FieldInfo], data: Any) -> Any:
    """`text_to_choice` for every text value of a known field; other keys and typed values untouched."""
    if not isinstance(data, dict):
        return data
    return {
        key: text_to_choice(fields[key].annotation, value) if isinstance(value, str) and key in fields else value
        for key, value in data.items()
    }


# ---- options every game has ----------------------------------------------------------------------


def hints_field() -> Any:
    """The `hints` option (issue 16): off by default; on, a player on turn may ask for the move the
    game's hint (rules/<game>/hints.py) suggests. One definition, so every game offers it alike."""
    return Field(False, description="a player on turn may ask for a hint (the best move for their hand)")


# ---- validators the games' options share (wrap validators: they see every refusal of the field) ----


def timer_seconds(value: Any, handler: ValidatorFunctionWrapHandler, lo: int, hi: int) -> int:
    """A turn timer: 0 is off, else lo..hi seconds. Any refusal ("abc", 5, 9999) is one
    `timer_range` error, so the message states the whole rule whatever was typed."""
    try:
        seconds = handler(value)
    except ValidationError:
        seconds = None
    if seconds is None or seconds != 0 and not lo <= seconds <= hi:
        raise PydanticCustomError("timer_range", "must be 0 (off) or {lo}..{hi}", {"lo": lo, "hi": hi})
    return seconds


def seat_or_random(value: Any, handler: ValidatorFunctionWrapHandler, hi: int | None = None) -> str | int:
    """`random` or a seat number from 1 (to `hi` when the game's seat count is fixed)."""
    try:
        seat = handler(value)
    except ValidationError:
        seat = None
    if seat is None or isinstance(seat, int) and not (seat >= 1 and (hi is None or seat <= hi)):
        raise PydanticCustomError("seat_number", "must be 'random' or a seat number from 1", {"lo": 1, "hi": hi})
    return seat


def one_of(value: Any, handler: ValidatorFunctionWrapHandler, choices: tuple[Any, ...]) -> Any:
    """A value of a plain-typed field that only takes a few values (ledger 0 or 1000)."""
    try:
        checked = handler(value)
    except ValidationError:
        checked = None
    if checked is None or checked not in choices:
        raise PydanticCustomError("option_choice", "must be one of {choices}", {"choices": list(choices)})
    return checked


# ---- refusals as reason codes -----------------------------------------------------------------


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    lo = hi = None
    for m in info.metadata:
        lo = getattr(m, "ge", None) if getattr(m, "ge", None) is not None else lo
        hi = getattr(m, "le", None) if getattr(m, "le", None) is not None else hi
    return lo, hi


def _problem(fields: dict[str, FieldInfo], error: Any) -> Problem:
    kind, loc, ctx = error["type"], error["loc"], error.get("ctx") or {}
    key = str(loc[0]) if loc else "options"
    if kind == "extra_forbidden":
        return "unknown", {"option": key, "options": list(fields)}
    got = error["input"]
    base = {"option": key, "got": got}
    if kind == "timer_range":
        return "timer", {**base, "lo": ctx["lo"], "hi": ctx["hi"]}
    if kind == "seat_number":
        return "seat", {**base, "lo": ctx["lo"], "hi": ctx["hi"]}
    if kind == "option_choice":
        return "choice", {**base, "allowed": list(ctx["choices"])}
    info = fields.get(key)
    if info is None:
        return "invalid", base
    if kind == "literal_error":
        return "choice", {**base, "allowed": literal_choices(info.annotation)}
    if kind in _BOOL_ERRORS:
        return "on_off", base
    if kind in _INT_ERRORS:
        lo, hi = _bounds(info)
        if lo is not None and hi is not None:
            return "range", {**base, "lo": lo, "hi": hi}
        return "whole", base
    return "invalid", base


def option_problems(fields: dict[str, FieldInfo], err: ValidationError) -> list[Problem]:
    """One (code, params) per refused option, in pydantic's order. A union field reports an error
    per member type; the first one speaks for the field."""
    seen: set[str] = set()
    problems = []
    for error in err.errors():
        key = str(error["loc"][0]) if error["loc"] else ""
        if key in seen:
            continue
        seen.add(key)
        problems.append(_problem(fields, error))
    return problems
