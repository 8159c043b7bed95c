"""Which table a message is about, and a move played at it: typed in the DM (`act`: the refusal told
in the sender's way, the outcome delivered), or pressed on a hand (decoded and applied by the
service, bot/telegram/buttons.py; `delivered` shows it)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from telegram import Chat, User
from telegram.constants import ChatType

from bot.core.models import Outcome, Player, ServiceError
from bot.core.presenter.games import IllegalAction, turn_of
from bot.core.render import render_error
from bot.telegram.common import PLATFORM, player_of
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from storage import TableRecord


class Moves:
    def __init__(self, ctx: TgContext, delivery: Delivery) -> None:
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.uis = ctx.uis
        self.delivery = delivery

    async def table_for(self, chat: Chat, user: User, topic: str | None = None) -> TableRecord | None:
        """The group's active table, or in a DM the table where this user plays (the one on turn first)."""
        if chat.type != ChatType.PRIVATE:
            return await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic)
        me = player_of(user)
        mine = []
        for rec in await self.store.list_tables(["playing"]):
            seat = self.service.seat_of(rec, me) if rec.platform == PLATFORM else None
            if seat is not None:
                on_turn = turn_of(rec) == seat
                mine.append((on_turn, rec.updated_at, rec))
        return max(mine, key=lambda m: (m[0], m[1]))[2] if mine else None

    async def act(
        self,
        rec: TableRecord,
        me: Player,
        seat: int,
        command: str,
        version: int | None,
        refuse: Callable[[str], Awaitable[None]],
        key: str,
        accepted: Callable[[], Awaitable[None]] | None = None,
    ) -> bool:
        lang = await self.chats.chat_lang(me.user_id)
        prev_turn = turn_of(rec)
        try:
            outcome = await self.service.submit(rec.id, me, command, expected_version=version, key=key)
        except (IllegalAction, ServiceError) as err:
            await refuse(render_error(err, lang, rec.game))
            if getattr(err, "code", "") == "E_STALE":
                fresh = await self.service.get(rec.id)
                await self.delivery.put_hand(fresh, seat)
            return False
        if accepted is not None:
            await accepted()  # the move is durable: the press is answered before the AI answers it
        await self.uis.moved(rec.id, seat)  # the picks pointed at items the move used
        await self.delivered(outcome, prev_turn)
        return True

    async def delivered(self, outcome: Outcome, prev_turn: int | None) -> None:
        """A durable move shown: the table, the hands and the turn notice, once the automatic moves
        answering it are stored too (one table update, the AI's answers included)."""
        await self.delivery.render_outcome(await outcome.settled(), prev_turn=prev_turn)


__all__ = ["Moves"]
