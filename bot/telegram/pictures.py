"""Pictures on Telegram (issue 17, item 2): the group's table message and the DM hand as PNGs drawn by
bot.core.pictures, each with a short caption, unless the chat chose `/look text`.

The look is a chat setting: the group's decides its table message, a player's own (`/look` in
the DM) decides their hand. Pictures are drawn off the event loop (a full table takes a few ms),
once per (table, version, viewer, language, rack order) by the shared cache. `/look` itself is a
command (commands.py).
"""

from __future__ import annotations

import asyncio
import html
import threading
from typing import Any

from bot.core.i18n import t
from bot.core.pictures import PictureCache
from bot.core.presenter import TablePanel
from bot.core.render.common import names
from bot.core.text import utf16_len
from bot.telegram.chat_settings import ChatSettings
from bot.telegram.common import deadline_html
from bot.telegram.limits import CAPTION_MAX, fit_html
from storage import TableRecord

LOOKS = ("pictures", "text")


def table_caption(panel: TablePanel, last_round: str | None = None) -> str:
    """The table picture's caption (HTML), the most urgent first: whose turn with its deadline (a
    clock time) or why the table closed, the newest event lines newest first, then the game's title
    and the last round's result. Lines that do not fit Telegram's 1 024 are left off whole from the end (the
    oldest events first) and only the round's result is ever cut, so the newest event and the
    deadline always show. The melds, counts and scores are in the picture."""
    rec, lang = panel.table, panel.lang
    first = [html.escape(t("lobby.restored", lang))] if panel.restored else []
    now = []
    if panel.turn is not None and panel.playing:
        now.append(html.escape(t("table.turn", lang, name=names(rec, None, lang)[panel.turn])))
    if panel.deadline is not None:
        now.append(deadline_html(panel.deadline, lang))
    if now:
        first.append(" · ".join(now))
    if panel.note:  # why the table closed: the newest news of a closed table
        first.append(html.escape(panel.note))
    rest = [html.escape(line) for line in reversed(panel.lines)]
    rest.append(f"<b>{html.escape(panel.title)}</b>")
    caption = "\n".join(first)
    for n, line in enumerate(rest):
        if utf16_len(caption) + 1 + utf16_len(line) > CAPTION_MAX:
            if n == 0 and panel.lines:  # the newest event alone is longer than the room: its start
                head = fit_html(line, CAPTION_MAX - utf16_len(caption) - 1)
                caption = f"{caption}\n{head}" if caption else head
            break
        caption = f"{caption}\n{line}" if caption else line
    if last_round:
        room = CAPTION_MAX - utf16_len(caption) - 2
        if room > 120:  # a cut round result still says who went out and the first scores; less is noise
            caption += "\n\n" + fit_html(html.escape(last_round), room)
    return fit_html(caption, CAPTION_MAX)


class Pictures:
    def __init__(self, chats: ChatSettings, default_look: str) -> None:
        self.chats = chats
        self.default_look = default_look
        self._cache = PictureCache()
        self._drawing = threading.Lock()

    async def shows_pictures(self, chat_id: int | str) -> bool:
        """The chat's `/look` (pictures unless set to text)."""
        return (await self.chats.get(chat_id)).get("look", self.default_look) == "pictures"

    async def picture(self, rec: TableRecord, view: dict[str, Any] | None, viewer: int | None, lang: str,
                      by_number: bool = False) -> bytes | None:
        """The table (`viewer` None, from the public view) or seat `viewer`'s hand (from its own view)."""
        if view is None or rec.state is None:
            return None

        def draw() -> bytes:
            with self._drawing:  # the cache is shared by the drawing threads, one at a time
                return self._cache.picture(rec, view, viewer, lang, by_number)
        return await asyncio.to_thread(draw)


__all__ = ["LOOKS", "Pictures", "table_caption"]
