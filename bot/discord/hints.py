"""Hints on Discord (issue 16): `/rummy hint` and a hand's Hint button ask the one shared entry point
(bot/core/hints.py), which refuses with a sentence when hints are off or it is not the asker's turn."""

from __future__ import annotations

from bot.core.hints import table_hint
from bot.core.models import Player
from bot.core.service import TableService


def code_span(command: str) -> str:
    """The hinted command as inline code, ready to copy into `/rummy play` (a backtick would end it early)."""
    return "`" + command.replace("`", "'") + "`"


async def hint_line(service: TableService, table_id: str, user: Player, lang: str) -> str:
    """"Hint: `play …` — why", or `ServiceError` saying why there is none."""
    return (await table_hint(service, table_id, user)).render(lang, code_span)
