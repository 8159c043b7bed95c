"""Answers to the update at hand, through the outbox: a reply in the chat it came from, a button's
answer (exactly one per press), and whether the sender administers the group."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Chat, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.telegram.limits import CALLBACK_MAX, fit_html, fit_plain
from bot.telegram.outbox import Outbox

log = logging.getLogger(__name__)


class Replies:
    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    async def reply(self, update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        msg = update.effective_message
        assert msg is not None
        thread = msg.message_thread_id if msg.is_topic_message else None
        text = fit_html(text)  # a reply over Telegram's limit would be dropped: cut it, tags kept whole
        await self.outbox.call(lambda: msg.get_bot().send_message(  # HTML, no link preview: the bot's Defaults
            msg.chat_id, text, reply_markup=markup, message_thread_id=thread), chat_id=msg.chat_id)

    async def answer(self, query: CallbackQuery, text: str | None, alert: bool = False, url: str | None = None) -> None:
        if text:
            text = fit_plain(text, CALLBACK_MAX)
        try:
            await self.outbox.call(lambda: query.answer(text, show_alert=alert, url=url))
        except TelegramError:  # a lost answer only leaves the spinner: never fail the press for it
            log.exception("answerCallbackQuery failed")

    async def is_admin(self, chat: Chat, user: User) -> bool:
        try:
            member = await self.outbox.call(lambda: chat.get_member(user.id))
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)


__all__ = ["Replies"]
