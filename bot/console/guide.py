"""`rules [game]` / `help rules [game]` in the terminal: the player's guide, whole (a terminal has no
message limit). A hook of its own so the read loop and the game picker each need one line."""

from __future__ import annotations

from bot.core.guides import guide_text, rules_reply, rules_request


def guide_reply(command: str, game: str | None, lang: str) -> str | None:
    """The guide (of the named game, else `game`), a sentence saying what to type, or None when the
    command is not a guide request."""
    request = rules_request(command)
    if request is None:
        return None
    shown, problem = rules_reply(request, game, lang)
    return guide_text(shown, lang) if shown is not None else problem
