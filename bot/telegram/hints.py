"""Hints on Telegram (issue 16): `hint` typed in the DM or `/hint`, and the hand's Hint button, all
asking the one shared entry point (bot/core/hints.py), which refuses with a sentence when hints are
off or it is not the asker's turn. Each answer goes out in one call."""

from __future__ import annotations

import html

from telegram import CallbackQuery, Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.hints import table_hint
from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.render import render_error
from bot.core.text import utf16_len
from bot.telegram.common import player_of, topic_of
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.limits import CALLBACK_MAX
from bot.telegram.moves import Moves
from storage import TableRecord

_MARK = "\x00"  # stands for the command while the sentence is escaped (no catalog text holds it)


def hint_html(sentence_with_mark: str, command: str) -> str:
    """The hint sentence as HTML, the command in a code span (a tap copies it in Telegram)."""
    return html.escape(sentence_with_mark).replace(_MARK, f"<code>{html.escape(command)}</code>")


class Hints:
    def __init__(self, ctx: TgContext, delivery: Delivery, moves: Moves) -> None:
        self.service = ctx.service
        self.chats = ctx.chats
        self.replies = ctx.replies
        self.presenter = ctx.presenter
        self.delivery = delivery
        self.moves = moves

    async def hint_text(self, rec: TableRecord, me: Player, lang: str) -> str:
        """The hint as HTML for a DM reply, or the sentence saying why there is none."""
        try:
            hint = await table_hint(self.service, rec.id, me)
        except ServiceError as err:
            return html.escape(render_error(err, lang, rec.game))
        return hint_html(hint.render(lang, lambda _: _MARK), hint.command)

    async def cmd_hint(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/hint`: answered in the DM only, where nobody else reads the hand."""
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        if chat.type != ChatType.PRIVATE:
            await self.replies.reply(update, html.escape(t("tg.hint_in_dm", lang)))
            return
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if rec is None:
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        await self.replies.reply(update, await self.hint_text(rec, player_of(user), lang))

    async def press_hint(self, query: CallbackQuery, me: Player, rec: TableRecord, seat: int, lang: str) -> None:
        """The Hint button: the hint as the press's pop-up when it fits one (200 characters), else the
        hand edited with the hint under it (the press answered silently). A refusal is the pop-up,
        and the hand is put again so a button that can only refuse goes (an unchanged hand is not sent)."""
        try:
            hint = await table_hint(self.service, rec.id, me)
        except ServiceError as err:
            await self.replies.answer(query, render_error(err, lang, rec.game), alert=True)
            await self.delivery.put_hand(rec, seat)  # the record the press read: off turn, the hand drops the button
            return
        text = hint.render(lang)
        if utf16_len(text) <= CALLBACK_MAX:
            await self.replies.answer(query, text, alert=True)
            return
        hand = await self.presenter.hand(rec, seat, lang, note=text)
        await self.replies.answer(query, None)
        if hand is not None:
            await self.delivery.show_hand(hand)


__all__ = ["Hints", "hint_html"]
