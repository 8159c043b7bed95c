"""What every part of the Telegram adapter shares, handed to each part's constructor: the settings,
the service and store, the one way out (the outbox), the chat settings, the hand screens and the
presenter. Built once by TelegramBot (bot.py); the parts hold no reference to the bot itself."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.core.presenter import HandUIs, Presenter
from bot.core.service import TableService
from bot.telegram.chat_settings import ChatSettings
from bot.telegram.outbox import Outbox
from bot.telegram.replies import Replies
from storage import Store

if TYPE_CHECKING:
    from bot.web.server import WebServer  # aiohttp's server loads only when the web table is on


@dataclass
class TelegramConfig:
    default_lang: str = "en"
    tick_interval_s: float = 1.0
    run_scheduler: bool = True
    # One group's true limit (outbox.py, window.py): Telegram's 20 messages in any 60 s.
    group_limit: int = 20
    group_period_s: float = 60.0
    webapp_name: str | None = None  # the Mini App's short name (TELEGRAM_WEBAPP_NAME): the group's link into it
    look: str = "pictures"  # tables and hands of a chat without `/look`: "pictures" or "text"
    # The pace of a start's re-render of the messages behind their table: half the overall budget,
    # the other half left to the moves made meanwhile (app.py sets it from the overall limit).
    restore_calls_per_s: float = 15.0


@dataclass
class TgContext:
    service: TableService
    store: Store
    config: TelegramConfig
    outbox: Outbox
    chats: ChatSettings
    replies: Replies
    uis: HandUIs
    presenter: Presenter
    bot_username: str = "rummyclub_bot"  # replaced by the real one at startup (getMe)
    web: WebServer | None = None  # the web table (WEB_PORT), set by bot/running.py while it runs


__all__ = ["TelegramConfig", "TgContext"]
