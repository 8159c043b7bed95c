"""The web table on Telegram (issue 18): the DM hand's "Open table" `web_app` button and the group
table message's link into the Mini App, when `rummyclub run` serves the page (WEB_PORT)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from storage import TableRecord

if TYPE_CHECKING:
    from bot.telegram.bot import TelegramBot  # noqa: F401 - the host whose other parts' names these methods use
    from bot.web.server import WebServer

# The host's parts reach each other through self. A class cannot inherit its own subclass, so the type
# checker sees that host as Any (composing the adapter of objects, issue 25 item 4, ends this).
_Base: Any = object


class WebLinks(_Base):
    web: WebServer | None  # set while the web table runs in this process (app.py)

    def hand_web_url(self, rec: TableRecord, lang: str) -> str | None:
        """The page the hand's `web_app` button opens; the page signs the player in with initData and
        shows their own seat."""
        return None if self.web is None else self.web.mini_app_url(rec.id, lang)

    def app_link(self, rec: TableRecord) -> str | None:
        """t.me/<bot>/<app>?startapp=<table> for the group, with the web table on and its Mini App named."""
        if self.web is None or not self.config.webapp_name:
            return None
        from bot.web.server import mini_app_link  # aiohttp's server loads only when the web table is on

        return mini_app_link(self.bot_username, self.config.webapp_name, rec.id)


__all__ = ["WebLinks"]
