"""Platform-neutral text rendering of views, events, errors and help.

Adapters send these strings as they are (the terminal prints them; chat adapters wrap them in a
code block or a message). Each game contributes a renderer module with the same functions.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType
from typing import Any

from bot.core.i18n import has, t
from bot.core.render.common import names, render_error, render_lobby
from rules import Event, get_engine
from storage import TableRecord


def renderer(game: str) -> ModuleType:
    """Each game renders through `bot.core.render.<game>` (render_table, render_hand, render_event)."""
    return import_module(f"bot.core.render.{game}")


def render_table(
    rec: TableRecord, view: dict[str, Any], lang: str = "en", now: float | None = None, viewer: int | None = None
) -> str:
    """The public table message: game, round, whose turn, time left, melds, hand sizes, scores.

    With `viewer` (the terminal, where the table is shown to one player) that seat reads as "you"."""
    return renderer(rec.game).render_table(view, names(rec, viewer, lang), lang, _seconds_left(rec, now), viewer)


def render_hand(rec: TableRecord, view: dict[str, Any], lang: str = "en", by_number: bool = False) -> str:
    """A player's private message: the rack (and draft), with the numbers that help decide."""
    return renderer(rec.game).render_hand(view, lang, by_number)


def render_events(rec: TableRecord, events: list[Event], viewer: int | None, lang: str = "en") -> list[str]:
    """One line per event the viewer may see, in order; events that say nothing are skipped."""
    mod = renderer(rec.game)
    shown = names(rec, viewer, lang)
    lines = []
    for event in events:
        if not event.visible_to(viewer):
            continue
        line = mod.render_event(event, shown, viewer, lang)
        if line:
            lines.append(line)
    return lines


def render_help(game: str, lang: str = "en") -> str:
    engine = get_engine(game)
    width = max(len(cmd) for cmd, _ in engine.help_text())
    lines = [t("help.title", lang, game=t(f"game.{game}", lang))]
    lines += [f"  {cmd.ljust(width)}  {t(key, lang)}" for cmd, key in engine.help_text()]
    notation = f"{game}.help.notation"
    lines.append(t(notation if has(notation, lang) else "help.notation", lang))
    return "\n".join(lines)


def _seconds_left(rec: TableRecord, now: float | None) -> int | None:
    if rec.deadline is None or now is None:
        return None
    return max(0, int(rec.deadline - now))


__all__ = ["render_error", "render_events", "render_hand", "render_help", "render_lobby", "render_table"]
