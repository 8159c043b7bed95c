"""Telegram's size limits, and fitting our HTML messages into them without breaking the markup.

Every text the adapter sends is HTML (parse_mode HTML): `<pre>`, `<b>`, `<a href>` and escaped
entities. Telegram drops a message whose text is over 4096 characters *after* the entities are
parsed, and refuses one whose tags do not close. We measure the raw HTML in UTF-16 units, which is
never less than the parsed text however Telegram counts, and cut only between tags and entities,
closing whatever is open at the cut.
"""

from __future__ import annotations

import re

from bot.core.text import ELLIPSIS, fit, utf16_len

TEXT_MAX = 4096  # sendMessage / editMessageText
CAPTION_MAX = 1024  # a photo's caption (sendPhoto, editMessageMedia, editMessageCaption)
CALLBACK_MAX = 200  # answerCallbackQuery

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*>")
_CLOSERS_ROOM = 40  # room kept for the closing tags at a cut: our markup nests at most two deep


def _safe_cut(html: str, n: int) -> int:
    """`n`, moved back so the cut is not inside a tag (`<...>`) or an entity (`&...;`)."""
    lt, gt = html.rfind("<", 0, n), html.rfind(">", 0, n)
    if lt > gt:
        n = lt
    amp, semi = html.rfind("&", 0, n), html.rfind(";", 0, n)
    if amp > semi and n - amp <= 10:
        n = amp
    return n


def _open_tags(html: str) -> list[str]:
    stack: list[str] = []
    for m in _TAG.finditer(html):
        name = m.group(2).lower()
        if not m.group(1):
            stack.append(name)
        elif name in stack:
            del stack[len(stack) - 1 - stack[::-1].index(name):]
    return stack


def fit_html(html: str, limit: int = TEXT_MAX) -> str:
    """The message as is when it fits, else cut (on a line where it can) with "…" and the tags that
    were open at the cut closed again."""
    if utf16_len(html) <= limit:
        return html
    room = limit - _CLOSERS_ROOM
    while room > 0:
        head = fit(html, room, size=utf16_len).removesuffix(ELLIPSIS)
        head = head[: _safe_cut(head, len(head))]
        out = head + ELLIPSIS + "".join(f"</{name}>" for name in reversed(_open_tags(head)))
        if utf16_len(out) <= limit:
            return out
        room -= _CLOSERS_ROOM
    return ELLIPSIS


def fit_plain(text: str, limit: int = CALLBACK_MAX) -> str:
    """A plain text (a callback answer) cut to `limit` UTF-16 units."""
    return fit(text, limit, size=utf16_len)
