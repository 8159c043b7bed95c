"""Discord's size limits for what the bot sends, and fitting message content into them.

Discord refuses (400, "Invalid Form Body") a message over its limits, so a reply that echoes too
much is lost; everything the adapter sends goes through these. Content is Markdown: a cut inside a
code block is closed again so the rest of the reply is not swallowed by an open fence.
"""

from __future__ import annotations

from bot.core.text import fit

CONTENT_MAX = 2000
EMBED_TITLE_MAX = 256
EMBED_DESC_MAX = 4096
FIELD_MAX = 1024  # an embed field's value
EMBED_TOTAL_MAX = 6000  # title + description + fields + footer + author, over all embeds of a message
FENCE = "```"


def fit_content(text: str, limit: int = CONTENT_MAX) -> str:
    """`text` within `limit`, cut on a line where it can with "…", an open code block closed."""
    if len(text) <= limit:
        return text
    out = fit(text, limit - len(FENCE) - 1)
    if out.count(FENCE) % 2:
        out += "\n" + FENCE
    return out
