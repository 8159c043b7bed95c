"""Table options as choices, for the adapters' option screens (game-neutral).

The candidates come from each game's pydantic options model: Literal choices, booleans, an int
range (stepped when long), seat numbers, or timer presets for a free int; only values the model
accepts with the table's other options are offered.
"""

from __future__ import annotations

import types
import typing
from typing import Any, Literal

from pydantic.fields import FieldInfo

from bot.core.i18n import has, t
from rules import GameOptions, SetupError

INT_PRESETS = (0, 15, 30, 45, 60, 90, 120, 180, 300, 600, 1800, 3600, 7200, 14400, 43200, 86400)


def _candidates(annotation: Any, info: FieldInfo, max_seats: int) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return list(typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        out: list[Any] = []
        for arg in typing.get_args(annotation):
            out += [c for c in _candidates(arg, info, max_seats) if c not in out]
        return out
    if annotation is bool:
        return [False, True]
    if annotation is int:
        lo = hi = None
        for m in info.metadata:
            lo = getattr(m, "ge", lo) if getattr(m, "ge", None) is not None else lo
            hi = getattr(m, "le", hi) if getattr(m, "le", None) is not None else hi
        if lo is not None and hi is not None:
            if hi - lo <= 20:
                return list(range(lo, hi + 1))
            step = max(1, (hi - lo) // 10)
            return sorted({lo, hi, *range(lo, hi + 1, step)})
        hint = f"{info.description or ''} {info.title or ''}".lower()
        if "seat" in hint or "dealer" in hint or lo is not None and 1 <= lo <= max_seats and hi is None:
            return list(range(1, max_seats + 1))  # a seat number
        return list(INT_PRESETS)
    return []


def option_choices(model: type[GameOptions], current: dict[str, Any], key: str, max_seats: int) -> list[Any]:
    """Every value the options model accepts for `key` among the candidates its type suggests:
    Literal choices, booleans, an int range (stepped when long), or presets for a free int."""
    info = model.model_fields[key]
    default = info.default
    found = _candidates(info.annotation, info, max_seats)
    if default not in found and default is not None:
        found.append(default)
    if current.get(key) not in found:
        found.append(current.get(key))
    valid = []
    for value in found:
        try:
            model.parse_options({**current, key: value})
        except SetupError:
            continue
        valid.append(value)
    return _ordered(valid)


def _ordered(values: list[Any]) -> list[Any]:
    return sorted(values, key=lambda v: (not isinstance(v, str), isinstance(v, int | float) and v, str(v)))


def _slug(value: Any) -> str:
    # Catalog keys name a value as it is typed: `3 rounds` is `3_rounds`, a boolean `on`/`off`.
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value).replace(" ", "_")


def option_name(key: str, lang: str) -> str:
    """An option's name in words ("Turn timer", "Таймер хода"); the key itself if none is written."""
    return t(f"option.{key}", lang) if has(f"option.{key}", lang) else key


def show_value(value: Any, lang: str, key: str | None = None) -> str:
    """A value in words: the option's own word for it (`option.value.<key>.<value>`: 0 s is "off"),
    a word shared by every option (`option.value.random`, on/off), a number with the option's unit
    (`option.unit.<key>`: "60 s", "3 фишки"), else the value as typed (a free number)."""
    slug = _slug(value)
    for k in ([f"option.value.{key}.{slug}"] if key else []) + [f"option.value.{slug}"]:
        if has(k, lang):
            return t(k, lang)
    if key and isinstance(value, int) and has(f"option.unit.{key}", lang):
        return t(f"option.unit.{key}", lang, n=value)
    return str(value)


def option_line(key: str, value: Any, lang: str) -> str:
    """`Turn timer: 60 s` — how a lobby, a button or a select shows one option."""
    return t("option.line", lang, name=option_name(key, lang), value=show_value(value, lang, key))
