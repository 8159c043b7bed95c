"""The web table on Telegram (issue 18): the DM hand's "Open table" `web_app` button and the group
table message's link into the Mini App, when `rummyclub run` serves the page (WEB_PORT)."""

from __future__ import annotations

from bot.telegram.context import TgContext
from storage import TableRecord


class WebLinks:
    def __init__(self, ctx: TgContext) -> None:
        self.ctx = ctx  # its `web` is set while the web table runs in this process (bot/running.py)

    def hand_web_url(self, rec: TableRecord, lang: str) -> str | None:
        """The page the hand's `web_app` button opens; the page signs the player in with initData and
        shows their own seat."""
        web = self.ctx.web
        return None if web is None else web.mini_app_url(rec.id, lang)

    def menu_url(self) -> str | None:
        """The Mini App for the private chats' menu button: the web table's page, over HTTPS only (a
        `web_app` button takes nothing else). None without the web table: the default menu."""
        web = self.ctx.web
        if web is None or not web.base_url.startswith("https://"):
            return None
        return web.base_url.rstrip("/") + "/"

    def app_link(self, rec: TableRecord) -> str | None:
        """t.me/<bot>/<app>?startapp=<table> for the group, with the web table on and its Mini App named."""
        if self.ctx.web is None or not self.ctx.config.webapp_name:
            return None
        from bot.web.server import mini_app_link  # aiohttp's server loads only when the web table is on

        return mini_app_link(self.ctx.bot_username, self.ctx.config.webapp_name, rec.id)


__all__ = ["WebLinks"]
