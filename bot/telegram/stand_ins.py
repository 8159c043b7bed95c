"""Seats stood in for: a player the bot cannot reach in private (they blocked it) is set `/away` so
the AI plays their seat, and anything they send the bot in private afterwards gives the seat back."""

from __future__ import annotations

import html

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.i18n import t
from bot.core.models import Player
from bot.core.presenter.games import turn_of
from bot.telegram import keyboards as kb
from bot.telegram.common import PLATFORM, mention, player_of
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery

STOOD_IN = "stood_in"  # a user's setting: the tables whose seat went away because the bot could not reach them


class StandIns:
    def __init__(self, ctx: TgContext, delivery: Delivery) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.outbox = ctx.outbox
        self.delivery = delivery

    async def unreachable(self, user_id: int, table_id: str, slot: str) -> None:
        """A hand or a notice could not be delivered: the user blocked the bot (403). The seat goes
        `/away` so the AI stands in — a table without a turn timer would wait forever — and the group
        is told once, with the one-tap way back (a message deleted at match end). Nothing more goes
        to that DM until the user writes to the bot."""
        if not slot.startswith(("hand:", "notice:")):
            return
        await self.chats.update(user_id, dm=False)
        rec = await self.store.get_table(table_id)
        if rec is None or rec.status != "playing" or rec.platform != PLATFORM:
            return
        seat = next((i for i, s in enumerate(rec.seats) if s.kind == "human" and s.user_id == str(user_id)), None)
        if seat is None or rec.seats[seat].away:
            return  # already stood in for (and already announced)
        before = (rec.log_seq, turn_of(rec))
        name = rec.seats[seat].name
        rec = await self.service.set_away(rec.id, Player(PLATFORM, str(user_id), name), True)
        await self.forget(user_id, rec.id, add=True)
        lang = await self.chats.chat_lang(rec.chat_id)
        link = html.escape(kb.deep_link(self.ctx.bot_username, f"h{rec.id}"))
        self.outbox.post_temporary(int(rec.chat_id), rec.id,
                                   t("tg.dm_blocked", lang, name=mention(str(user_id), name), link=link),
                                   thread_id=await self.delivery.thread(rec))
        await self.delivery.render_change(rec, before)

    async def forget(self, user_id: int, table_id: str, add: bool = False) -> None:
        """The table leaves (or joins) the user's list of seats taken over because they were unreachable;
        a /away or /back of their own takes it off, so a later message does not undo their choice."""
        listed = (await self.chats.get(user_id)).get(STOOD_IN) or []
        if add or table_id in listed:
            kept = [t for t in listed if t != table_id]
            await self.chats.update(user_id, **{STOOD_IN: [*kept, table_id] if add else kept})

    async def come_back(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Anything the user sends the bot in private after it could not reach them (the notice's
        link, a message, a press) says they can be reached again: every seat the AI took over for
        that reason is theirs again, as with /back, before the update itself is handled (so the
        link shows a hand they can play)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None or chat.type != ChatType.PRIVATE or update.my_chat_member is not None:
            return  # a status change of the bot's (blocked, unblocked) is nothing the user sent
        tables = (await self.chats.get(user.id)).get(STOOD_IN)
        if not tables:
            return
        await self.chats.update(user.id, dm=True)
        me = player_of(user)
        for table_id in tables:
            rec = await self.store.get_table(table_id)
            seat = self.service.seat_of(rec, me) if rec is not None and rec.status == "playing" else None
            if rec is None or seat is None or not rec.seats[seat].away:
                continue  # over, or already back (/back, a move)
            before = (rec.log_seq, turn_of(rec))
            rec = await self.service.set_away(rec.id, me, False)
            self.outbox.post(user.id, html.escape(t("tg.away_off", await self.chats.chat_lang(user.id, user))))
            await self.delivery.render_change(rec, before)
        await self.chats.update(user.id, **{STOOD_IN: []})


__all__ = ["STOOD_IN", "StandIns"]
