"""The Telegram adapter (python-telegram-bot 22): lobby and table in the group, hands by DM."""

from bot.telegram.app import build_application
from bot.telegram.bot import TelegramBot, TelegramConfig

__all__ = ["TelegramBot", "TelegramConfig", "build_application"]
