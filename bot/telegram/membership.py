"""The bot's place in groups: added (a hello with how to start), removed (the group's tables end),
and a group that became a supergroup (its tables follow it to the new chat id).

Removal ends the tables rather than parking them. The bot can show nothing in that group any more,
and a parked table would keep its turn clock (timeouts, the AI standing in) and the chat's one open
table slot for a group that may never take the bot back. An ended table is what `/end` leaves:
stored as abandoned, nothing counted, and `/new` (or `/rematch`) starts again once the bot is back.
Each player learns it on their hand in the DM (the one message of the table they still see), and
nothing more is sent to the group: its queued messages are dropped, no send is tried and failed.

A migration is told twice (the old group's `migrate_to_chat_id` service message, the new one's
`migrate_from_chat_id`), or by a send refused with `ChatMigrated`; each is idempotent. The old
group's messages cannot be edited in the supergroup, so each table's group messages are forgotten
and the table is posted again in the new chat.
"""

from __future__ import annotations

import html
import logging

from telegram import Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.ext import ContextTypes

from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.telegram.common import GROUP_TURN_KEY, PLATFORM, TABLE_KEY
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.outbox import TEMP_PREFIX
from storage import TableRecord

log = logging.getLogger(__name__)
OPEN = ("lobby", "playing")
GONE = (ChatMemberStatus.LEFT, ChatMemberStatus.BANNED)
# Who ends a table when the bot is removed: nobody in the chat did (`end_table` as an admin's).
REMOVAL = Player(PLATFORM, "0", "Rummy Club")


class Membership:
    def __init__(self, ctx: TgContext, delivery: Delivery) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.outbox = ctx.outbox
        self.delivery = delivery

    async def on_my_chat_member(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """The bot's own status in a chat changed. In a private chat that is the user blocking or
        unblocking the bot, which the outbox learns from its sends (stand_ins.py)."""
        change = update.my_chat_member
        if change is None or change.chat.type == ChatType.PRIVATE:
            return
        was, now = change.old_chat_member.status, change.new_chat_member.status
        if now in GONE and was not in GONE:
            await self.removed(change.chat.id)
        elif was in GONE and now not in GONE:
            self.outbox.back_in(change.chat.id)
            lang = await self.chats.chat_lang(change.chat.id, change.from_user)
            self.outbox.post(change.chat.id, html.escape(t("tg.start_group", lang)))

    async def on_migrate(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        msg = update.effective_message
        if msg is None:
            return
        if msg.migrate_to_chat_id:
            await self.migrated(msg.chat_id, msg.migrate_to_chat_id)
        elif msg.migrate_from_chat_id:
            await self.migrated(msg.migrate_from_chat_id, msg.chat_id)

    async def removed(self, chat_id: int) -> None:
        """The bot left or was removed from the group (or a send there was refused: `Forbidden`)."""
        if chat_id >= 0:
            return
        self.outbox.gone(chat_id)
        for rec in await self._open_tables(chat_id):
            try:
                rec = await self.service.end_table(rec.id, REMOVAL, is_admin=True)
            except ServiceError:
                continue  # ended meanwhile
            log.info("table %s ended: the bot is no longer in chat %s", rec.id, chat_id)
            await self.delivery.render_closed(rec, "tg.removed_from_group")

    async def migrated(self, old: int, new: int) -> None:
        """The group `old` is the supergroup `new` now: its settings and tables go with it."""
        if old == new:
            return
        self.outbox.gone(old)
        settings = await self.chats.get(old)
        if settings and not await self.chats.get(new):
            await self.chats.update(new, **settings)
        for team, name in (await self.store.team_names(PLATFORM, str(old))).items():
            await self.store.set_team_name(PLATFORM, str(new), team, name)
        for rec in await self._open_tables(old):
            try:
                rec = await self.service.move_chat(rec.id, str(new))
            except Exception:  # the supergroup has an open table already: this one stays behind
                log.exception("table %s could not follow chat %s to %s", rec.id, old, new)
                continue
            for key in await self.outbox.refs(rec.id):
                if key in (TABLE_KEY, GROUP_TURN_KEY) or key.startswith(TEMP_PREFIX):
                    await self.outbox.forget(rec.id, key)  # a message of the old group: not ours to edit
            log.info("table %s moved with chat %s to %s", rec.id, old, new)
            await self.delivery.render_record(rec)

    async def _open_tables(self, chat_id: int) -> list[TableRecord]:
        # A scan of the open tables: a group is removed or migrated once, not on every move.
        return [rec for rec in await self.store.list_tables(OPEN)
                if rec.platform == PLATFORM and rec.chat_id == str(chat_id)]


__all__ = ["Membership"]
