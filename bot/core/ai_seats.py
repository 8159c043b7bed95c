"""AI seats: the name stored for one, its level, and the name shown for it in a language.

The stored name ("AI 2") is the same in every language, as it always was: records, logs and tests
key on it. The name shown is worded per language, with the level when it is not the default one
("AI 2 (strong)", "ИИ 2 (сильный)"), so a normal AI reads as before.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.text import display_name
from rules import SetupError
from rules.core.levels import DEFAULT_LEVEL, LEVELS, Level, check_level
from storage import SeatRecord

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "ai_level", "ai_name", "button_level", "level_labels", "seat_name"]

_STORED = re.compile(r"AI ([1-9][0-9]{0,2})")


def ai_name(n: int) -> str:
    """The stored name of the table's n-th AI seat."""
    return f"AI {n}"


def ai_level(level: object) -> Level:
    """A level typed or carried by a button ("Strong" too); `ServiceError("E_BAD_LEVEL")` otherwise."""
    try:
        return check_level(level)
    except SetupError:
        raise ServiceError("E_BAD_LEVEL", got=str(level), levels=", ".join(LEVELS)) from None


def button_level(args: Sequence[str]) -> Level:
    """The level an "addai" button carries (`encode(id, v, "addai", "strong")`); none: the default."""
    if not args:
        return DEFAULT_LEVEL
    if len(args) > 1:
        raise ServiceError("E_BAD_LEVEL", got=" ".join(args), levels=", ".join(LEVELS))
    return ai_level(args[0])


def level_labels(lang: str) -> list[tuple[Level, str]]:
    """(level, button label) for each level, easy first: one "Add AI" button per level."""
    return [(level, t("lobby.add_ai_level", lang, level=t(f"level.{level}", lang))) for level in LEVELS]


def seat_name(seat: SeatRecord, lang: str = "en") -> str:
    """A seat's name as a table shows it: a player's own name; an AI's in `lang`, with its level."""
    if seat.kind != "ai":
        return display_name(seat.name)
    stored = _STORED.fullmatch(seat.name)
    name = t("lobby.ai_name", lang, n=stored.group(1)) if stored else display_name(seat.name)
    if seat.level == DEFAULT_LEVEL:
        return name
    return t("lobby.ai_name_level", lang, name=name, level=t(f"level.{seat.level}", lang))
