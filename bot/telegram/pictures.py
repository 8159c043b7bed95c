"""Pictures on Telegram (issue 17, item 2): the group's table message and the DM hand as PNGs drawn by
bot.core.pictures, each with a short caption, unless the chat chose `/look text`.

The look is a chat setting: the group's decides its table message, a player's own (`/look` in
the DM) decides their hand. Pictures are drawn off the event loop (a full table takes a few ms),
once per (table, version, viewer, language, rack order) by the shared cache.
"""

from __future__ import annotations

import asyncio
import html
import threading
from typing import TYPE_CHECKING, Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.pictures import PictureCache
from bot.core.presenter import TablePanel
from bot.core.render import render_error
from bot.core.render.common import names
from bot.core.text import utf16_len
from bot.telegram.common import PLATFORM, deadline_html, topic_of
from bot.telegram.limits import CAPTION_MAX, fit_html
from storage import TableRecord

if TYPE_CHECKING:
    from bot.telegram.bot import TelegramBot  # noqa: F401 - the host whose other parts' names these methods use

# The host's parts reach each other through self. A class cannot inherit its own subclass, so the type
# checker sees that host as Any (composing the adapter of objects, issue 25 item 4, ends this).
_Base: Any = object

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


class Pictures(_Base):
    _picture_cache: PictureCache
    _drawing: threading.Lock

    async def shows_pictures(self, chat_id: int | str) -> bool:
        """The chat's `/look` (pictures unless set to text)."""
        return (await self._chat_settings(chat_id)).get("look", self.config.look) == "pictures"

    async def picture(self, rec: TableRecord, view: dict[str, Any] | None, viewer: int | None, lang: str,
                      by_number: bool = False) -> bytes | None:
        """The table (`viewer` None, from the public view) or seat `viewer`'s hand (from its own view)."""
        if view is None or rec.state is None:
            return None

        def draw() -> bytes:
            with self._drawing:  # the cache is shared by the drawing threads, one at a time
                return self._picture_cache.picture(rec, view, viewer, lang, by_number)
        return await asyncio.to_thread(draw)

    async def cmd_look(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/look pictures|text`: in a group (its admins or the table's host) the table message, in
        the DM the player's hands."""
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        choice = context.args[0].lower() if context.args else ""
        if choice not in LOOKS:
            await self._reply(update, html.escape(t("tg.look_usage", lang)))
            return
        rec = None
        if chat.type != ChatType.PRIVATE:
            rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic_of(update))
            if not await self._is_admin(chat, user) and (rec is None or rec.host_user_id != str(user.id)):
                await self._reply(update, html.escape(render_error(ServiceError("E_NOT_HOST"), lang)))
                return
        await self._update_settings(chat.id, look=choice)
        await self._reply(update, html.escape(t(f"tg.look_{choice}", lang)))
        if rec is not None and rec.status != "lobby":
            await self.render_record(rec)


__all__ = ["LOOKS", "Pictures", "table_caption"]
