"""Commands and DM text: /start (with its deep links), /new, /help and /rules, /lang, /look, /away
and /back, /end, /hand, and moves typed in the DM in the engines' text grammar."""

from __future__ import annotations

import html

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import ContextTypes

from bot.core.guides import guide_text, rules_reply, rules_request
from bot.core.i18n import available_languages, resolve_language, t
from bot.core.models import ServiceError
from bot.core.options_text import option_words, parse_options
from bot.core.presenter.games import games, turn_of
from bot.core.render import render_error, render_help
from bot.telegram import keyboards as kb
from bot.telegram.common import PLATFORM, msg_key, player_of, pre, topic_of
from bot.telegram.context import TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.guide_html import guide_messages
from bot.telegram.hints import Hints
from bot.telegram.moves import Moves
from bot.telegram.pictures import LOOKS
from bot.telegram.stand_ins import StandIns
from storage import TableRecord


class Commands:
    def __init__(self, ctx: TgContext, delivery: Delivery, hints: Hints, moves: Moves, stand_ins: StandIns) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.chats = ctx.chats
        self.replies = ctx.replies
        self.uis = ctx.uis
        self.delivery = delivery
        self.hints = hints
        self.moves = moves
        self.stand_ins = stand_ins

    async def cmd_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        if chat.type != ChatType.PRIVATE:
            if context.args != [kb.ADD_TO_GROUP]:  # the "add to group" link's /start: the hello on joining said it
                await self.replies.reply(update, html.escape(t("tg.start_group", await self.chats.chat_lang(chat.id, user))))
            return
        await self.chats.seen_user(user, private=True)
        lang = await self.chats.chat_lang(chat.id, user)
        payload = context.args[0] if context.args else ""
        if payload.startswith("j") and len(payload) > 1:
            await self._deep_join(update, payload[1:], lang)
        elif payload.startswith("h") and len(payload) > 1:
            await self._show_hand_again(update, payload[1:], lang)
        else:
            await self.replies.reply(update, html.escape(t("tg.welcome", lang, games=", ".join(games()))),
                                     kb.add_to_group(self.ctx.bot_username, lang))

    async def _deep_join(self, update: Update, table_id: str, lang: str) -> None:
        user = update.effective_user
        assert user is not None
        try:
            rec = await self.service.join(table_id, player_of(user), key=msg_key(update.effective_message))
        except ServiceError as err:
            await self.replies.reply(update, html.escape(render_error(err, lang)))
            return
        title = (await self.delivery.table_info(rec.id))["chat_title"]
        await self.replies.reply(update, html.escape(t("tg.joined_dm", lang, game=t(f"game.{rec.game}", lang), chat=title)))
        await self.delivery.render_lobby(rec)

    async def _show_hand_again(self, update: Update, table_id: str, lang: str) -> None:
        user = update.effective_user
        assert user is not None
        rec = await self.store.get_table(table_id)
        if rec is None or rec.status not in ("lobby", "playing"):
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NOT_PLAYING"), lang)))
            return
        seat = self.service.seat_of(rec, player_of(user))
        if seat is None:
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NOT_SEATED"), lang)))
            return
        if rec.status == "lobby":
            await self.replies.reply(update, html.escape(t("tg.hand_after_start", lang)))
            return
        await self.delivery.put_hand(rec, seat, fresh=True)

    async def cmd_new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
        assert chat is not None and user is not None and msg is not None
        await self.chats.seen_user(user, private=chat.type == ChatType.PRIVATE)
        lang = await self.chats.chat_lang(chat.id, user)
        if chat.type == ChatType.PRIVATE:
            await self.replies.reply(update, html.escape(t("tg.new_in_group", lang)))
            return
        if not context.args:
            await self.replies.reply(update, html.escape(t("tg.new_usage", lang, games=", ".join(games()))))
            return
        host = player_of(user)
        topic = topic_of(update)
        try:
            # /new rummikub turn_timer_s=120 match_games=3, or canasta match_length="3 rounds": the
            # message text, not context.args, so that a quoted value keeps its space.
            _command, game, *line = (msg.text or "").split(maxsplit=2)  # context.args is not empty
            options = parse_options(option_words(line[0]) if line else [])
            rec = await self.service.open_table(
                game, PLATFORM, str(chat.id), host, topic_id=topic, options=options,
                seat_host=await self.chats.dm_ok(user.id), key=msg_key(msg))
        except ServiceError as err:
            await self.replies.reply(update, html.escape(render_error(err, lang)))
            return
        await self.store.set_table_ref(rec.id, "chat_title", chat.title or "")
        if topic is not None:
            await self.store.set_table_ref(rec.id, "thread", int(topic))
        await self.delivery.render_lobby(rec)

    async def cmd_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if context.args and context.args[0].lower() in ("rules", "guide"):
            await self._send_guide(update, "rules " + " ".join(context.args[1:]), rec, lang)
            return
        text = html.escape(t("tg.help", lang, games=", ".join(games())))
        if rec is not None:
            text += "\n\n" + pre(render_help(rec.game, lang))
        text += "\n" + html.escape(t("guide.hint", lang))
        private = chat.type == ChatType.PRIVATE
        await self.replies.reply(update, text, kb.add_to_group(self.ctx.bot_username, lang) if private else None)

    async def cmd_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/rules [game]` (and `/help rules [game]`): the player's guide, in as many messages as it needs."""
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        await self._send_guide(update, "rules " + " ".join(context.args or []), rec, lang)

    async def _send_guide(self, update: Update, command: str, rec: TableRecord | None, lang: str) -> None:
        request = rules_request(command)
        assert request is not None
        game, problem = rules_reply(request, rec.game if rec is not None else None, lang)
        if game is None:
            await self.replies.reply(update, html.escape(problem))
            return
        for message in guide_messages(guide_text(game, lang)):
            await self.replies.reply(update, message)

    async def cmd_lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        langs = available_languages()
        choice = resolve_language(context.args[0]) if context.args else None  # ru, pt-BR, pt, es-419
        if choice is None:
            lang = await self.chats.chat_lang(chat.id, user)
            await self.replies.reply(update, html.escape(t("tg.lang_usage", lang, langs=", ".join(langs))))
            return
        if chat.type != ChatType.PRIVATE and not await self.replies.is_admin(chat, user):
            rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic_of(update))
            if rec is None or rec.host_user_id != str(user.id):
                await self.replies.reply(update, html.escape(render_error(ServiceError("E_NOT_HOST"), choice)))
                return
        await self.chats.update(chat.id, lang=choice)
        await self.replies.reply(update, html.escape(t("tg.lang_set", choice)))
        rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic_of(update))
        if rec is not None:
            await self.delivery.render_record(rec)

    async def cmd_look(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/look pictures|text`: in a group (its admins or the table's host) the table message, in
        the DM the player's hands (pictures.py draws them)."""
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        choice = context.args[0].lower() if context.args else ""
        if choice not in LOOKS:
            await self.replies.reply(update, html.escape(t("tg.look_usage", lang)))
            return
        rec = None
        if chat.type != ChatType.PRIVATE:
            rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic_of(update))
            if not await self.replies.is_admin(chat, user) and (rec is None or rec.host_user_id != str(user.id)):
                await self.replies.reply(update, html.escape(render_error(ServiceError("E_NOT_HOST"), lang)))
                return
        await self.chats.update(chat.id, look=choice)
        await self.replies.reply(update, html.escape(t(f"tg.look_{choice}", lang)))
        if rec is not None and rec.status != "lobby":
            await self.delivery.render_record(rec)

    async def _set_away(self, update: Update, away: bool) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if rec is None:
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        before = (rec.log_seq, turn_of(rec))
        try:
            rec = await self.service.set_away(rec.id, player_of(user), away, key=msg_key(update.effective_message))
        except ServiceError as err:
            await self.replies.reply(update, html.escape(render_error(err, lang)))
            return
        await self.stand_ins.forget(user.id, rec.id)
        await self.replies.reply(update, html.escape(t("tg.away_on" if away else "tg.away_off", lang)))
        await self.delivery.render_change(rec, before)

    async def cmd_away(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._set_away(update, True)

    async def cmd_back(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._set_away(update, False)

    async def cmd_end(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if rec is None:
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        is_admin = chat.type != ChatType.PRIVATE and rec.host_user_id != str(user.id) and \
            await self.replies.is_admin(chat, user)
        try:
            rec = await self.service.end_table(rec.id, player_of(user), is_admin=is_admin,
                                               key=msg_key(update.effective_message))
        except ServiceError as err:
            await self.replies.reply(update, html.escape(render_error(err, lang)))
            return
        await self.delivery.render_closed(rec, "lobby.abandoned")

    async def cmd_hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if rec is None or rec.status != "playing":
            await self.replies.reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        if chat.type != ChatType.PRIVATE:
            link = kb.deep_link(self.ctx.bot_username, f"h{rec.id}")
            await self.replies.reply(update, html.escape(t("tg.hand_in_dm", lang)) + f"\n{html.escape(link)}")
            return
        seat = self.service.seat_of(rec, player_of(user))
        if seat is not None:
            await self.delivery.put_hand(rec, seat, fresh=True)

    async def on_unknown_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None
        lang = await self.chats.chat_lang(chat.id, user)
        await self.replies.reply(update, html.escape(t("tg.unknown_command", lang)))

    # ---- DM text: the engine grammar ------------------------------------------------------------

    async def on_dm_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
        assert chat is not None and user is not None and msg is not None and msg.text is not None
        await self.chats.seen_user(user, private=True)
        lang = await self.chats.chat_lang(chat.id, user)
        rec = await self.moves.table_for(chat, user, topic_of(update))
        if rules_request(msg.text) is not None:  # a guide needs no table: `rules rummikub` works anywhere
            await self._send_guide(update, msg.text, rec, lang)
            return
        if rec is None:
            await self.replies.reply(update, html.escape(t("tg.no_game", lang)))
            return
        text = msg.text.strip()
        me = player_of(user)
        seat = self.service.seat_of(rec, me)
        assert seat is not None
        word = text.lower()
        if word in ("help", "?"):
            await self.replies.reply(update, pre(render_help(rec.game, lang)) + "\n" + html.escape(t("tg.dm_extra", lang)))
            return
        if word == "sort":
            await self.uis.update(rec.id, seat, by_number=not (await self.uis.get(rec.id, seat)).by_number)
            await self.delivery.put_hand(rec, seat)
            return
        if word == "hint":
            await self.replies.reply(update, await self.hints.hint_text(rec, me, lang))
            return
        if word in ("hand", "rack", "table"):
            await self.delivery.put_hand(rec, seat, fresh=True)
            return
        await self.moves.act(rec, me, seat, text, None, lambda m: self.replies.reply(update, html.escape(m)), msg_key(msg))


__all__ = ["Commands"]
