"""What a log line is about: the table and the chat whose work is running (`LOG_FORMAT=json` writes
them as fields, bot/logs.py). Context variables, so every line logged by that work — the service's,
a library's, a task it started — carries them without being passed along."""

from __future__ import annotations

from contextvars import ContextVar, Token

TABLE: ContextVar[str | None] = ContextVar("rummy_table", default=None)
CHAT: ContextVar[str | None] = ContextVar("rummy_chat", default=None)


def about_chat(platform: str, chat_id: object) -> Token[str | None]:
    """The rest of this task's work is about that chat (reset with the token when it is done)."""
    return CHAT.set(f"{platform}:{chat_id}")
