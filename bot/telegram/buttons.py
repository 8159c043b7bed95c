"""Button presses: read with bot.core.codec; a hand's presses handed to the service, which decodes
them into a new hand screen or a move (bot/core/presses.py, the same on every platform); the hand's
sort and hint, the table's peek, and the lobby's buttons handed to lobby.py. Every callback is
answered exactly once."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update, User
from telegram.ext import ContextTypes

from bot.core.codec import ButtonData, CodecError, decode
from bot.core.grammar import hand_items
from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.presenter.games import IllegalAction, view_of
from bot.core.presses import BUTTON_VERBS, NotYours, Played, Presser, Shown, button_press
from bot.core.render import render_error
from bot.telegram.common import PLATFORM, player_of, press_key
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.hints import Hints
from bot.telegram.lobby import Lobby
from bot.telegram.moves import Moves
from storage import TableRecord

log = logging.getLogger(__name__)
LOBBY_VERBS = ("join", "leave", "addai", "rmai", "start", "cancel", "options", "setopt", "lobby")
HAND_VERBS = ("sort", "hint")  # a hand's buttons outside the presses the service decodes (BUTTON_VERBS)
ALERT_OVER = 60  # a refusal longer than this is shown as an alert (a toast cuts it)


class Buttons:
    def __init__(self, ctx: TgContext, delivery: Delivery, lobby: Lobby, hints: Hints, moves: Moves) -> None:
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.replies = ctx.replies
        self.uis = ctx.uis
        self.delivery = delivery
        self.lobby = lobby
        self.hints = hints
        self.moves = moves

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        user = query.from_user
        chat_id = query.message.chat.id if query.message is not None else user.id
        lang = await self.chats.chat_lang(chat_id, user)
        try:
            data = decode(query.data)
            if data.verb in BUTTON_VERBS:
                await self._press(query, user, data, lang)
                return
        except CodecError:
            await self.replies.answer(query, t("error.E_BAD_BUTTON", lang), alert=True)
            return
        rec = await self.store.get_table(data.table_id)
        if rec is None or rec.platform != PLATFORM:
            await self.replies.answer(query, render_error(ServiceError("E_NO_TABLE"), lang))
            return
        try:
            await self._button(query, user, rec, data, lang)
        except (ServiceError, IllegalAction) as err:
            await self.replies.answer(query, render_error(err, lang, rec.game))
        except CodecError:
            await self.replies.answer(query, t("error.E_BAD_BUTTON", lang), alert=True)

    async def _button(self, query: CallbackQuery, user: User, rec: TableRecord, data: ButtonData, lang: str) -> None:
        me = player_of(user)
        verb = data.verb
        if rec.status == "lobby" and verb in LOBBY_VERBS:
            await self.lobby.press(query, user, me, rec, data, lang)
            return
        if verb in LOBBY_VERBS:
            raise ServiceError("E_NOT_PLAYING" if verb == "cancel" else "E_NOT_IN_LOBBY")
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        seat = self.service.seat_of(rec, me)
        if verb == "peek":
            await self._peek(query, rec, seat, lang)
            return
        if verb not in HAND_VERBS or not data.args or not data.args[0].isdigit():
            raise CodecError("unknown action")
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        if int(data.args[0]) != seat:
            await self.replies.answer(query, t("tg.not_your_buttons", lang), alert=True)
            return
        if verb == "sort":
            await self.uis.update(rec.id, seat, by_number=not (await self.uis.get(rec.id, seat)).by_number)
            await self.replies.answer(query, None)
            await self.delivery.put_hand(rec, seat)
            return
        if verb == "hint":  # version 0: the hint is of the table as it is when pressed
            await self.hints.press_hint(query, me, rec, seat, lang)
            return
        raise CodecError("bad press")  # the presses on a hand went to `_press`

    async def _press(self, query: CallbackQuery, user: User, data: ButtonData, lang: str) -> None:
        """A press on a hand (`<verb> <seat> …`): decoded and applied by the service, in one read of
        the table under its gate; answered with the new hand, the move, or why not."""
        if not data.args or not data.args[0].isdigit():
            raise CodecError("bad seat")
        pressed = button_press(data.verb, data.args[1:])
        result = await self.service.press(data.table_id, Presser(player_of(user), int(data.args[0])), pressed,
                                          self.uis, version=data.version, key=press_key(query), platform=PLATFORM)
        if isinstance(result, Shown):
            await self.replies.answer(query, None)
            await self.delivery.put_hand(result.table, result.seat)
        elif isinstance(result, NotYours):
            await self.replies.answer(query, t("tg.not_your_buttons", lang), alert=True)
        elif isinstance(result, Played):
            await self.replies.answer(query, result.command)  # durable: answered before the AI answers it
            await self.moves.delivered(result.outcome, result.prev_turn)
        elif isinstance(result.error, CodecError):
            await self.replies.answer(query, t("error.E_BAD_BUTTON", lang), alert=True)
        else:
            rec, err = result.table, result.error
            text = render_error(err, lang, rec.game if rec is not None else None)
            await self.replies.answer(query, text, alert=len(text) > ALERT_OVER)
            if err.code == "E_STALE" and rec is not None and result.seat is not None:
                await self.delivery.put_hand(rec, result.seat)

    async def _peek(self, query: CallbackQuery, rec: TableRecord, seat: int | None, lang: str) -> None:
        if seat is None:
            await self.replies.answer(query, render_error(ServiceError("E_NOT_SEATED"), lang), alert=True)
            return
        items = hand_items(view_of(rec, seat))
        text = t("tg.peek", lang, game=t(f"game.{rec.game}", lang), count=len(items), items=" ".join(items))
        await self.replies.answer(query, text, alert=True)


__all__ = ["Buttons"]
