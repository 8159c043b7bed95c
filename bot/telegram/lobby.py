"""The lobby's buttons: join (through the DM when the bot cannot write to the player yet), leave,
AI seats, options, start and cancel. The lobby message itself is drawn by delivery.py."""

from __future__ import annotations

from telegram import CallbackQuery, User
from telegram.constants import ChatMemberStatus
from telegram.error import TelegramError

from bot.core.ai_seats import button_level
from bot.core.codec import ButtonData, CodecError
from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.options_ui import option_choices
from bot.core.presenter.games import max_seats, options_model
from bot.telegram import keyboards as kb
from bot.telegram.common import press_key, pressed_before
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from storage import TableRecord


class Lobby:
    def __init__(self, ctx: TgContext, delivery: Delivery) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.replies = ctx.replies
        self.outbox = ctx.outbox
        self.delivery = delivery

    async def press(self, query: CallbackQuery, user: User, me: Player, rec: TableRecord, data: ButtonData,
                            lang: str) -> None:
        verb = data.verb
        key = press_key(query)
        if verb == "join":
            if not await self.chats.dm_ok(user.id):
                # No working DM yet: one tap opens the bot and joins (the seat waits for the DM).
                await self.replies.answer(query, t("tg.open_dm_first", lang),
                                   url=kb.deep_link(self.ctx.bot_username, f"j{rec.id}"))
                return
            rec = await self.service.join(rec.id, me, key=key)
            await self.replies.answer(query, t("tg.joined", lang))
        elif verb == "leave":
            rec = await self.service.leave(rec.id, me, key=key)
            await self.replies.answer(query, t("tg.left", lang))
        elif verb == "addai":
            rec = await self.service.add_ai(rec.id, me, level=button_level(data.args), key=key)
            await self.replies.answer(query, None)
        elif verb == "rmai":
            rec = await self.service.remove_ai(rec.id, me, key=key)
            await self.replies.answer(query, None)
        elif verb == "cancel":
            rec = await self.service.end_table(rec.id, me, is_admin=await self._is_admin_id(rec, user), key=key)
            await self.replies.answer(query, None)
            await self.delivery.render_closed(rec, "lobby.abandoned")
            return
        elif verb in ("options", "lobby"):
            if not self.service.is_host(rec, me):
                raise ServiceError("E_NOT_HOST")
            if verb == "options":
                self.delivery.options_open.add(rec.id)
            else:
                self.delivery.options_open.discard(rec.id)
            await self.replies.answer(query, None)
        elif verb == "setopt":
            rec = await self._set_option(rec, me, data, key)
            await self.replies.answer(query, None)
        elif verb == "start":
            missing = [s.name for s in rec.seats if s.kind == "human" and not await self.chats.dm_ok(s.user_id or "")]
            if missing:
                raise ServiceError("E_NO_DM", names=", ".join(missing))
            outcome = await self.service.start(rec.id, me, key=key)
            self.delivery.options_open.discard(rec.id)
            await self.replies.answer(query, None)
            await self.delivery.render_outcome(outcome, prev_turn=None)
            return
        await self.delivery.render_lobby(rec)

    async def _is_admin_id(self, rec: TableRecord, user: User) -> bool:
        if rec.host_user_id == str(user.id):
            return False
        bot = self.outbox.bot
        try:
            member = await self.outbox.call(lambda: bot.get_chat_member(int(rec.chat_id), user.id))
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    async def _set_option(self, rec: TableRecord, me: Player, data: ButtonData, key: str) -> TableRecord:
        if data.version != rec.version and not await pressed_before(self.store, key):
            raise ServiceError("E_STALE")
        if not self.service.is_host(rec, me):
            raise ServiceError("E_NOT_HOST")
        model = options_model(rec.game)
        keys = list(model.model_fields)
        if len(data.args) != 2 or not all(a.isdigit() for a in data.args) or int(data.args[0]) >= len(keys):
            raise CodecError("bad option")
        option = keys[int(data.args[0])]
        choices = option_choices(model, rec.options, option, max_seats(rec.game))
        if int(data.args[1]) >= len(choices):
            raise CodecError("bad option")
        return await self.service.set_option(rec.id, me, option, choices[int(data.args[1])], key=key)


__all__ = ["Lobby"]
