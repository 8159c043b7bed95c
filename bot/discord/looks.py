"""How tables and hands look on Discord: pictures or text per channel (`/rummy look`), the pictures
drawn off the event loop, and the signed links to the web table shown with them."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from bot.core.pictures import PictureCache
from bot.discord.common import PLATFORM
from bot.discord.context import DcContext
from storage import TableRecord


class Looks:
    def __init__(self, ctx: DcContext) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.pictures = PictureCache()
        self._drawing = threading.Lock()  # the cache is shared by the drawing threads, one at a time
        self._looks: dict[str, bool] = {}  # channel id -> pictures on (`/rummy look`), read once per channel
        self.links: dict[tuple[str, int | None, str], tuple[str, float]] = {}  # -> (url, when signed)

    async def pictures_on(self, rec: TableRecord) -> bool:
        """`/rummy look pictures|text` of the table's channel (pictures unless set to text)."""
        if rec.chat_id not in self._looks:
            settings = await self.store.chat_settings(PLATFORM, rec.chat_id)  # the channel's settings
            self._looks[rec.chat_id] = settings.get("look", "pictures") == "pictures"
        return self._looks[rec.chat_id]

    async def set_look(self, channel_id: str, pictures: bool) -> None:
        settings = await self.store.chat_settings(PLATFORM, channel_id)
        await self.store.set_chat_settings(PLATFORM, channel_id, {**settings, "look": "pictures" if pictures else "text"})
        self._looks[channel_id] = pictures

    async def picture(self, rec: TableRecord, view: dict[str, Any] | None, viewer: int | None, lang: str,
                      by_number: bool = False) -> bytes | None:
        """The PNG of the table (`viewer` None, from the public view) or of seat `viewer`'s hand (from
        its own view), when the channel shows pictures; drawn off the event loop, once per version."""
        if view is None or rec.state is None or not await self.pictures_on(rec):
            return None

        def draw() -> bytes:
            with self._drawing:
                return self.pictures.picture(rec, view, viewer, lang, by_number)
        return await asyncio.to_thread(draw)

    # ---- the web table ---------------------------------------------------------------------------------

    def web_link(self, rec: TableRecord, seat: int | None, lang: str) -> str | None:
        """A signed link to the table in a browser: seat `seat`'s own page (only ever in that seat's
        ephemeral or DM hand) or, for None, the spectator's (the channel's table message). Re-signed
        once half its lifetime is gone, not on every edit: an unchanged table is not edited for a
        new expiry, and a link in the channel works for at least half the TTL."""
        web = self.ctx.web
        if web is None:
            return None
        now = web.clock.now()
        key = (rec.id, seat, lang)
        signed = self.links.get(key)
        if signed is None or now - signed[1] >= web.link_ttl_s / 2:
            signed = self.links[key] = (web.url(rec.id, seat, lang), now)
        return signed[0]

    def forget_links(self, table_id: str) -> None:
        for key in [k for k in self.links if k[0] == table_id]:
            del self.links[key]
