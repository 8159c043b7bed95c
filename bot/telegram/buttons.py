"""Button presses: decoded with bot.core.codec, a hand's presses turned into a new hand screen or a
move by presenter.press (the same on every platform), the table's peek, and the lobby's buttons
handed to lobby.py. Every callback is answered exactly once."""

from __future__ import annotations

import logging

from telegram import CallbackQuery, Update, User
from telegram.ext import ContextTypes

from bot.core.codec import ButtonData, CodecError, decode, indices_of
from bot.core.grammar import hand_items
from bot.core.i18n import t
from bot.core.models import Player, ServiceError
from bot.core.presenter import press
from bot.core.presenter.games import IllegalAction, moves_of, view_of
from bot.core.render import render_error
from bot.telegram.common import PLATFORM, player_of, press_key, pressed_before
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.hints import Hints
from bot.telegram.lobby import Lobby
from bot.telegram.moves import Moves
from storage import TableRecord

log = logging.getLogger(__name__)
LOBBY_VERBS = ("join", "leave", "addai", "rmai", "start", "cancel", "options", "setopt", "lobby")
HAND_VERBS = ("pick", "sort", "hint", "cmd", "mvs", "mvt", "mv", "stage", "unstage", "clear", "sug")
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
        if data.version != rec.version and not await pressed_before(self.store, press_key(query)):
            await self.replies.answer(query, render_error(ServiceError("E_STALE"), lang))
            await self.delivery.put_hand(rec, seat)
            return
        await self._hand_press(query, me, rec, seat, data)

    async def _hand_press(self, query: CallbackQuery, me: Player, rec: TableRecord, seat: int,
                          data: ButtonData) -> None:
        """pick <mask> · cmd <move> <mask> [<option>] · stage · unstage <number> · clear · sug <index> ·
        mvs · mvt <piece> · mv <move> <piece> <dest>."""
        view = view_of(rec, seat)
        ui = await self.uis.get(rec.id, seat)
        args = data.args[1:]
        nums = [int(a) for a in args if a.isdigit()]
        if data.verb == "pick":
            if len(args) != 1:
                raise CodecError("bad pick")
            new_ui = press.pick(ui, view, indices_of(args[0], len(hand_items(view))))
        elif data.verb == "mvs" and not args:
            new_ui = press.start_move(ui, moves_of(rec, view))
        elif data.verb == "mvt" and len(nums) == len(args) == 1:
            new_ui = press.choose_piece(ui, moves_of(rec, view), nums[0])
        elif data.verb == "mv" and len(nums) == len(args) == 3:
            await self._press_move(query, me, rec, seat, press.move_to(moves_of(rec, view), *nums), data.version)
            return
        elif data.verb == "stage" and not args:
            new_ui = press.stage(ui, view, moves_of(rec, view))
        elif data.verb == "unstage" and len(nums) == len(args) == 1:
            new_ui = press.unstage(ui, nums[0])
        elif data.verb == "clear" and not args:
            new_ui = press.clear(ui)
        elif data.verb == "sug" and len(nums) == len(args) == 1:
            await self._press_move(query, me, rec, seat, press.suggestion(rec.game, view, nums[0]), data.version)
            return
        elif data.verb == "cmd" and len(args) >= 2 and args[0].isdigit():
            option = int(args[2]) if len(args) > 2 and args[2].isdigit() else None
            command = press.command(ui, view, moves_of(rec, view), int(args[0]), args[1], option)
            await self._press_move(query, me, rec, seat, command, data.version)
            return
        else:
            raise CodecError("bad press")
        await self.uis.put(rec.id, seat, new_ui)
        await self.replies.answer(query, None)
        await self.delivery.put_hand(rec, seat)

    async def _press_move(self, query: CallbackQuery, me: Player, rec: TableRecord, seat: int, command: str,
                          version: int) -> None:
        async def refuse(text: str) -> None:
            await self.replies.answer(query, text, alert=len(text) > ALERT_OVER)

        await self.moves.act(rec, me, seat, command, version, refuse, press_key(query),
                        accepted=lambda: self.replies.answer(query, command))

    async def _peek(self, query: CallbackQuery, rec: TableRecord, seat: int | None, lang: str) -> None:
        if seat is None:
            await self.replies.answer(query, render_error(ServiceError("E_NOT_SEATED"), lang), alert=True)
            return
        items = hand_items(view_of(rec, seat))
        text = t("tg.peek", lang, game=t(f"game.{rec.game}", lang), count=len(items), items=" ".join(items))
        await self.replies.answer(query, text, alert=True)


__all__ = ["Buttons"]
