"""What the round-in-every-language tests ask of a language: its words, and the table options of a
short round of each game (issue 30)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from bot.core.i18n import available_languages, catalog, forms
from bot.core.service import TableService

WORD = re.compile(r"[^\W\d_]{4,}")

# One round (or one game) with small targets, so the AI plays each table to its end in a moment.
SHORT: dict[str, dict[str, Any]] = {
    "rummikub": {"match_games": 1},
    "rummy101": {"match_rounds": 1, "allow_draw": True},  # a tied round ends it too
    "rummy500": {"target_score": 100},
    "canasta": {"match_length": "1 round"},
    "three_thirteen": {"rounds": 1},
}


def translated_languages() -> list[str]:
    """Every catalog language but the source: a new one (pt_BR, …) is picked up from its PO files."""
    return [lang for lang in available_languages() if lang != "en"]


@cache
def own_words(lang: str) -> frozenset[str]:
    """Words of the language's catalog that no English message uses: a text holding one speaks it."""
    def words(texts: dict[str, Any]) -> set[str]:
        return {w.lower() for value in texts.values() for form in forms(value).values() for w in WORD.findall(form)}
    return frozenset(words(catalog(lang)) - words(catalog("en")))


def speaks(text: str, lang: str) -> list[str]:
    """The words of `text` that only `lang`'s catalog uses (at least two for a text in that language)."""
    return sorted({w.lower() for w in WORD.findall(text)} & own_words(lang))


async def automoves_stored(service: TableService, table_id: str) -> None:
    """Until the AI's moves in flight for the table are stored: entering its gate waits for them."""
    async with service.gates.of(table_id):
        pass
