"""The players' guides (docs/<game>.md, docs/ru/<game>.md), shipped inside the package.

docs/ is where people read and edit them (the README links there); an installed `rummyclub` has no
docs/, so the same files are package data here (`make guides` copies them; a test keeps the two
identical). Adapters ask for a guide with `rules [game]` or `help rules [game]` and split it to
fit their message limit with `guide_chunks`.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from bot.core.guides.split import guide_chunks
from bot.core.i18n import DEFAULT_LANG, t
from rules import engine_names

GUIDE_LANGS = ("en", "de", "es", "pt_BR", "ru", "tr", "uk")
_WORDS = ("rules", "guide")


def guide_text(game: str, lang: str = DEFAULT_LANG) -> str:
    """The player's guide of a game in a language (English where that language has none)."""
    folder = resources.files("bot.core.guides")
    for code in (lang, DEFAULT_LANG):
        path = folder.joinpath(code, f"{game}.md")
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise KeyError(f"no guide for {game!r}")


@dataclass(frozen=True)
class RulesRequest:
    """`rules [game]` as typed: the game named (None: the table's game), or a word that names none."""

    game: str | None
    unknown: str | None = None


def rules_request(text: str) -> RulesRequest | None:
    """`rules`, `help rules`, `/rules`, `/help rules`, each with an optional game; else None.

    A bot's @name after a slash command (`/rules@rummy_bot`) is dropped, as Telegram adds it in groups.
    """
    words = [w.split("@")[0] for w in text.strip().lower().lstrip("/").split()]
    if words[:1] == ["help"]:
        words = words[1:]
    if not words or words[0] not in _WORDS:
        return None
    rest = "".join(words[1:]).replace("-", "").replace("_", "")
    if not rest:
        return RulesRequest(None)
    for name in engine_names():
        if rest == name.replace("_", ""):
            return RulesRequest(name)
    return RulesRequest(None, unknown=" ".join(words[1:]))


def rules_reply(request: RulesRequest, table_game: str | None, lang: str) -> tuple[str | None, str]:
    """(the game whose guide to show, or None) and the sentence to say when there is none."""
    games = ", ".join(engine_names())
    if request.unknown is not None:
        return None, t("guide.unknown_game", lang, game=request.unknown, games=games)
    game = request.game or table_game
    if game is None:
        return None, t("guide.which_game", lang, games=games)
    return game, ""


__all__ = ["GUIDE_LANGS", "RulesRequest", "guide_chunks", "guide_text", "rules_reply", "rules_request"]
