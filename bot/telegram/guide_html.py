"""A player's guide (Markdown) as Telegram HTML, in messages of at most 4096 characters.

Telegram's HTML knows no headings or lists and rejects tags it does not know, so a Markdown library's
HTML would need rewriting anyway; the guides use a small subset (headings, `- ` lists, `code`,
**bold**, fenced blocks), rendered here with everything else escaped.
"""

from __future__ import annotations

import html
import re

from bot.core.guides import guide_chunks

MESSAGE_MAX = 4096
_BOLD = re.compile(r"\*\*(.+?)\*\*")


def _inline(text: str) -> str:
    parts = text.split("`")
    if len(parts) % 2 == 0:  # an unpaired backtick: show it as written
        return html.escape(text, quote=False)
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{html.escape(part, quote=False)}</code>")
        else:
            out.append(_BOLD.sub(r"<b>\1</b>", html.escape(part, quote=False)))
    return "".join(out)


def guide_html(markdown: str) -> str:
    """The subset of Markdown the guides use, as Telegram HTML."""
    out: list[str] = []
    fence: list[str] | None = None
    for line in markdown.split("\n"):
        if line.startswith("```"):
            if fence is None:
                fence = []
            else:
                out.append("<pre>" + html.escape("\n".join(fence), quote=False) + "</pre>")
                fence = None
            continue
        if fence is not None:
            fence.append(line)
        elif line.startswith("#"):
            out.append("<b>" + _inline(line.lstrip("#").strip()) + "</b>")
        elif line.startswith("- "):
            out.append("• " + _inline(line[2:]))
        else:
            out.append(_inline(line))
    if fence is not None:  # an unclosed fence (a chunk never holds one): keep its lines as text
        out.extend(html.escape(line, quote=False) for line in fence)
    return "\n".join(out)


def guide_messages(markdown: str, limit: int = MESSAGE_MAX) -> list[str]:
    """The guide as HTML messages, cut on section boundaries, each within Telegram's limit."""
    return [guide_html(chunk) for chunk in guide_chunks(markdown, limit, guide_html)]
