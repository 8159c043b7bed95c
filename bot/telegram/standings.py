"""Standings commands: /leaderboard /stats /teams /team /history /rematch (texts from bot.core.stats)."""

from __future__ import annotations

import html
from collections.abc import Awaitable, Callable

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.render import render_error
from bot.core.stats import StatsError
from bot.telegram.common import PLATFORM, msg_key, player_of, topic_of
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery


class Standings:
    def __init__(self, ctx: TgContext, delivery: Delivery) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.replies = ctx.replies
        self.delivery = delivery

    async def _stats_reply(self, update: Update, make: Callable[[str], Awaitable[str]]) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None
        lang = await self.chats.chat_lang(chat.id, user)
        try:
            text = await make(lang)
        except StatsError as err:
            text = err.render(lang)
        await self.replies.reply(update, html.escape(text))

    async def cmd_leaderboard(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        args = list(context.args or [])
        if chat.type == ChatType.PRIVATE and "global" not in (a.lower() for a in args):
            args.append("global")  # a DM has no board of its own: show the one across chats
        await self._stats_reply(update, lambda lang: self.service.standings.leaderboard(
            PLATFORM, str(chat.id), args, lang, player_of(user)))

    async def cmd_stats(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        scope = None if chat.type == ChatType.PRIVATE else str(chat.id)  # in a DM: across all chats
        await self._stats_reply(update, lambda lang: self.service.standings.stats(
            PLATFORM, scope, player_of(user), list(context.args or []), lang))

    async def cmd_teams(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat = update.effective_chat
        assert chat is not None
        await self._stats_reply(update, lambda lang: self.service.standings.teams(
            PLATFORM, str(chat.id), list(context.args or []), lang))

    async def cmd_team(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        await self._stats_reply(update, lambda lang: self.service.standings.name_team(
            PLATFORM, str(chat.id), player_of(user), list(context.args or []), lang))

    async def cmd_history(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat = update.effective_chat
        assert chat is not None
        web = self.ctx.web  # with the web table on, each finished match links to its replay (public view)
        await self._stats_reply(update, lambda lang: self.service.standings.history(
            PLATFORM, str(chat.id), list(context.args or []), lang,
            None if web is None else lambda table_id: web.replay_url(table_id, lang)))

    async def cmd_rematch(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        if chat.type == ChatType.PRIVATE:
            await self.replies.reply(update, html.escape(t("tg.new_in_group", lang)))
            return
        topic = topic_of(update)
        try:
            rec = await self.service.rematch(PLATFORM, str(chat.id), player_of(user), topic_id=topic,
                                             key=msg_key(update.effective_message))
        except ServiceError as err:
            await self.replies.reply(update, html.escape(render_error(err, lang)))
            return
        await self.store.set_table_ref(rec.id, "chat_title", chat.title or "")
        if topic is not None:
            await self.store.set_table_ref(rec.id, "thread", int(topic))
        await self.replies.reply(update, html.escape(t("stats.rematch_opened", lang)))
        await self.delivery.render_lobby(rec)


__all__ = ["Standings"]
