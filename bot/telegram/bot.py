"""The Telegram adapter: commands and buttons in, table service calls, rendered messages out.

One table message per table in the group (lobby, then the game), edited in place; each human's
hand in a DM message edited in place; a short new group message only when a turn passes to a
human and at round or match end. Nothing here knows a game rule: texts come from the renderers,
buttons from the view and the engine's legal moves (keyboards.py), moves are engine text commands.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from telegram import BotCommand, CallbackQuery, Chat, InlineKeyboardMarkup, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import TelegramError
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.helpers import mention_html

from bot.core.codec import ButtonData, CodecError, decode, indices_of
from bot.core.grammar import command as kb_command
from bot.core.grammar import move_command, move_template, ordered_pick
from bot.core.guides import guide_text, rules_reply, rules_request
from bot.core.i18n import available_languages, t
from bot.core.models import Outcome, Player, ServiceError
from bot.core.options_text import option_words, parse_options
from bot.core.render import render_error, render_events, render_hand, render_help, render_lobby, render_table
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.core.stats import StatsError
from bot.core.text import display_name, excerpt
from bot.telegram import keyboards as kb
from bot.telegram.guide_html import guide_messages
from bot.telegram.limits import CALLBACK_MAX, fit_html, fit_plain
from bot.telegram.outbox import Outbox, obey_retry_after
from rules import IllegalAction, engine_names, get_engine
from storage import Store, TableRecord

log = logging.getLogger(__name__)

PLATFORM = "telegram"
PEEK_MAX = CALLBACK_MAX  # Telegram's limit for a callback answer
UPDATE_MEMORY_S = 7 * 24 * 3600.0
COMMANDS = ("new", "help", "rules", "lang", "away", "back", "end", "hand")
STATS_COMMANDS = ("leaderboard", "stats", "teams", "team", "history", "rematch")  # texts: stats.cmd.*


@dataclass
class TelegramConfig:
    default_lang: str = "en"
    tick_interval_s: float = 1.0
    run_scheduler: bool = True


def player_of(user: User) -> Player:
    # Names are free text (control and bidi characters, 129 characters): stored clean and short.
    return Player(PLATFORM, str(user.id), display_name(user.full_name or user.first_name or "", str(user.id)))


def _pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def mention(seat_user_id: str | None, name: str) -> str:
    """A seat's name as HTML: a mention (it notifies) for a human, the plain name for an AI."""
    if seat_user_id is None:
        return html.escape(display_name(name))
    return mention_html(int(seat_user_id), display_name(name))


class TelegramBot:
    def __init__(
        self,
        service: TableService,
        store: Store,
        config: TelegramConfig | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.service = service
        self.store = store
        self.config = config or TelegramConfig()
        self.sleep = sleep
        self.outbox: Outbox | None = None
        self.scheduler = Scheduler(service, self.config.tick_interval_s, self.render_outcomes)
        self.bot_username = "rummyclub_bot"  # replaced by the real one at startup (getMe)
        self._settings: dict[str, dict[str, Any]] = {}
        self._selection: dict[tuple[str, int], list[int]] = {}  # (table, seat) -> picked item positions
        self._by_number: dict[tuple[str, int], bool] = {}
        self._options_open: set[str] = set()
        self._info: dict[str, dict[str, Any]] = {}
        self._moving: dict[tuple[str, int], int | None] = {}  # (table, seat) -> table item (move option) moved
        self.processed: list[int] = []
        self._processed_cond = asyncio.Condition()

    # ---- wiring ---------------------------------------------------------------------------------

    def install(self, app: Application) -> None:
        self.outbox = Outbox(app.bot, self.store, self.sleep)
        self.outbox.on_unreachable = self._unreachable
        app.add_handler(TypeHandler(Update, self._dedupe), group=-1)
        app.add_handler(CommandHandler("start", self.cmd_start))
        app.add_handler(CommandHandler("new", self.cmd_new))
        app.add_handler(CommandHandler("help", self.cmd_help))
        app.add_handler(CommandHandler("rules", self.cmd_rules))
        app.add_handler(CommandHandler("lang", self.cmd_lang))
        app.add_handler(CommandHandler("away", self.cmd_away))
        app.add_handler(CommandHandler("back", self.cmd_back))
        app.add_handler(CommandHandler("end", self.cmd_end))
        app.add_handler(CommandHandler("hand", self.cmd_hand))
        app.add_handler(CommandHandler("leaderboard", self.cmd_leaderboard))
        app.add_handler(CommandHandler("stats", self.cmd_stats))
        app.add_handler(CommandHandler("teams", self.cmd_teams))
        app.add_handler(CommandHandler("team", self.cmd_team))
        app.add_handler(CommandHandler("history", self.cmd_history))
        app.add_handler(CommandHandler("rematch", self.cmd_rematch))
        app.add_handler(CallbackQueryHandler(self.on_button))
        app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND, self.on_dm_text))
        app.add_handler(MessageHandler(filters.COMMAND, self.on_unknown_command))
        app.add_handler(TypeHandler(Update, self._done), group=99)
        app.add_error_handler(self.on_error)

    async def startup(self, app: Application) -> None:
        """After `initialize`: register command menus, restore every table, start the clock."""
        self.bot_username = app.bot.username or self.bot_username
        assert self.outbox is not None
        for lang in ("en", "ru"):
            commands = [BotCommand(c, t(f"tg.cmd.{c}", lang)) for c in COMMANDS]
            commands += [BotCommand(c, t(f"stats.cmd.{c}", lang)) for c in STATS_COMMANDS]
            code = None if lang == "en" else lang
            try:
                await self.outbox.call(lambda cs=commands, c=code: app.bot.set_my_commands(cs, language_code=c))
            except TelegramError:
                log.exception("set_my_commands failed")
        for outcome in await self.service.resume_all():
            if outcome.table.platform == PLATFORM:
                await self.render_outcome(outcome, restored=True)
        await self.store.prune_updates(PLATFORM, self.service.clock.now() - UPDATE_MEMORY_S)
        if self.config.run_scheduler:
            self.scheduler.start()

    async def shutdown(self) -> None:
        await self.scheduler.stop()
        if self.outbox is not None:
            await self.outbox.idle()
            await self.outbox.close()

    async def idle(self) -> None:
        assert self.outbox is not None
        await self.outbox.idle()

    async def wait_processed(self, update_id: int, timeout: float = 10.0) -> None:
        async def _wait() -> None:
            async with self._processed_cond:
                await self._processed_cond.wait_for(lambda: update_id in self.processed)
        await asyncio.wait_for(_wait(), timeout)
        await self.idle()

    async def _mark_processed(self, update: Update) -> None:
        async with self._processed_cond:
            self.processed.append(update.update_id)
            self._processed_cond.notify_all()

    async def _dedupe(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Drop an update handled to the end before (Telegram redelivers what it was not told of).

        The update id is claimed only once its handling is over (`_done`): a process killed half
        way leaves it unclaimed, and the redelivery runs again. What that cannot protect — a change
        made just before the kill — is protected by the idempotency key each change carries
        (`_msg_key`, `_press_key`), written in the change's own transaction: the repeat is answered
        with the first outcome and applies nothing. Nothing is answered here: the first delivery
        answered its button already."""
        if not await self.store.update_claimed(PLATFORM, str(update.update_id)):
            return
        log.info("update %s was handled before: ignored", update.update_id)
        await self._mark_processed(update)
        raise ApplicationHandlerStop

    async def _done(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(update, Update):
            await self.store.claim_update(PLATFORM, str(update.update_id), self.service.clock.now())
            await self._mark_processed(update)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        log.error("update failed: %s", context.error, exc_info=context.error)
        if isinstance(update, Update):
            if update.callback_query is not None:
                await self._answer(update.callback_query, t("tg.error", self.config.default_lang))
            await self._mark_processed(update)

    # ---- languages and chat settings ------------------------------------------------------------

    async def _chat_settings(self, chat_id: int | str) -> dict[str, Any]:
        key = str(chat_id)
        if key not in self._settings:
            self._settings[key] = await self.store.chat_settings(PLATFORM, key)
        return self._settings[key]

    async def _update_settings(self, chat_id: int | str, **changes: Any) -> None:
        settings = dict(await self._chat_settings(chat_id))
        if all(settings.get(k) == v for k, v in changes.items()):
            return
        settings.update(changes)
        self._settings[str(chat_id)] = settings
        await self.store.set_chat_settings(PLATFORM, str(chat_id), settings)

    @staticmethod
    def _norm_lang(code: str | None) -> str | None:
        if not code:
            return None
        short = code.split("-")[0].lower()
        return short if short in available_languages() else None

    async def chat_lang(self, chat_id: int | str, user: User | None = None) -> str:
        """The chat's /lang setting, else the user's Telegram language (or the one remembered for a
        DM), else the default."""
        settings = await self._chat_settings(chat_id)
        lang = settings.get("lang") or (self._norm_lang(user.language_code) if user else None)
        return lang or settings.get("user_lang") or self.config.default_lang

    async def _seen_user(self, user: User, private: bool) -> None:
        changes: dict[str, Any] = {}
        lang = self._norm_lang(user.language_code)
        if lang:
            changes["user_lang"] = lang
        if private:
            changes["dm"] = True
        if changes:
            await self._update_settings(user.id, **changes)

    async def dm_ok(self, user_id: int | str) -> bool:
        return bool((await self._chat_settings(user_id)).get("dm"))

    async def _unreachable(self, user_id: int, table_id: str, slot: str) -> None:
        """A hand could not be delivered: the user blocked the bot (403). The seat goes `/away` so
        the AI stands in — a table without a turn timer would wait forever — and the group is told
        once, with the one-tap way back. Hands are not sent again until the user writes to the bot."""
        if not slot.startswith("hand:"):
            return
        await self._update_settings(user_id, dm=False)
        rec = await self.store.get_table(table_id)
        if rec is None or rec.status != "playing" or rec.platform != PLATFORM:
            return
        seat = next((i for i, s in enumerate(rec.seats) if s.kind == "human" and s.user_id == str(user_id)), None)
        if seat is None or rec.seats[seat].away:
            return  # already stood in for (and already announced)
        before = (rec.log_seq, get_engine(rec.game).current_seat(rec.state) if rec.state is not None else None)
        name = rec.seats[seat].name
        rec = await self.service.set_away(rec.id, Player(PLATFORM, str(user_id), name), True)
        assert self.outbox is not None
        lang = await self.chat_lang(rec.chat_id)
        link = html.escape(kb.deep_link(self.bot_username, f"h{rec.id}"))
        self.outbox.post(int(rec.chat_id), t("tg.dm_blocked", lang, name=mention(str(user_id), name), link=link),
                         thread_id=await self._thread(rec))
        await self.render_record(rec)
        turn = get_engine(rec.game).current_seat(rec.state) if rec.state is not None and rec.status == "playing" \
            else None
        if turn is not None and (rec.log_seq, turn) != before:  # the AI played the seat: whose turn now?
            await self._ping(rec, turn)

    # ---- replies --------------------------------------------------------------------------------

    async def _reply(self, update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        msg = update.effective_message
        assert msg is not None and self.outbox is not None
        thread = msg.message_thread_id if msg.is_topic_message else None
        text = fit_html(text)  # a reply over Telegram's limit would be dropped: cut it, tags kept whole
        await self.outbox.call(lambda: msg.get_bot().send_message(  # HTML, no link preview: the bot's Defaults
            msg.chat_id, text, reply_markup=markup, message_thread_id=thread))

    async def _answer(self, query: CallbackQuery, text: str | None, alert: bool = False, url: str | None = None) -> None:
        assert self.outbox is not None
        if text:
            text = fit_plain(text, PEEK_MAX)
        try:
            await self.outbox.call(lambda: query.answer(text, show_alert=alert, url=url))
        except TelegramError:
            log.exception("answerCallbackQuery failed")

    # ---- commands -------------------------------------------------------------------------------

    async def cmd_start(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        if chat.type != ChatType.PRIVATE:
            await self._reply(update, html.escape(t("tg.start_group", await self.chat_lang(chat.id, user))))
            return
        await self._seen_user(user, private=True)
        lang = await self.chat_lang(chat.id, user)
        payload = context.args[0] if context.args else ""
        if payload.startswith("j") and len(payload) > 1:
            await self._deep_join(update, payload[1:], lang)
        elif payload.startswith("h") and len(payload) > 1:
            await self._show_hand_again(update, payload[1:], lang)
        else:
            await self._reply(update, html.escape(t("tg.welcome", lang, games=", ".join(self._games()))))

    def _games(self) -> list[str]:
        return engine_names()

    async def _deep_join(self, update: Update, table_id: str, lang: str) -> None:
        user = update.effective_user
        assert user is not None
        try:
            rec = await self.service.join(table_id, player_of(user), key=_msg_key(update.effective_message))
        except ServiceError as err:
            await self._reply(update, html.escape(render_error(err, lang)))
            return
        title = (await self._table_info(rec.id))["chat_title"]
        await self._reply(update, html.escape(t("tg.joined_dm", lang, game=t(f"game.{rec.game}", lang), chat=title)))
        await self.render_lobby(rec)

    async def _show_hand_again(self, update: Update, table_id: str, lang: str) -> None:
        user = update.effective_user
        assert user is not None
        rec = await self.store.get_table(table_id)
        if rec is None or rec.status not in ("lobby", "playing"):
            await self._reply(update, html.escape(render_error(ServiceError("E_NOT_PLAYING"), lang)))
            return
        seat = self.service.seat_of(rec, player_of(user))
        if seat is None:
            await self._reply(update, html.escape(render_error(ServiceError("E_NOT_SEATED"), lang)))
            return
        if rec.status == "lobby":
            await self._reply(update, html.escape(t("tg.hand_after_start", lang)))
            return
        await self.put_hand(rec, seat, fresh=True)

    async def cmd_new(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
        assert chat is not None and user is not None and msg is not None
        await self._seen_user(user, private=chat.type == ChatType.PRIVATE)
        lang = await self.chat_lang(chat.id, user)
        if chat.type == ChatType.PRIVATE:
            await self._reply(update, html.escape(t("tg.new_in_group", lang)))
            return
        if not context.args:
            await self._reply(update, html.escape(t("tg.new_usage", lang, games=", ".join(self._games()))))
            return
        host = player_of(user)
        topic = _topic(update)
        try:
            # /new rummikub turn_timer_s=120 match_games=3, or canasta match_length="3 rounds": the
            # message text, not context.args, so that a quoted value keeps its space.
            _command, game, *line = (msg.text or "").split(maxsplit=2)  # context.args is not empty
            options = parse_options(option_words(line[0]) if line else [])
            rec = await self.service.open_table(
                game, PLATFORM, str(chat.id), host, topic_id=topic, options=options,
                seat_host=await self.dm_ok(user.id), key=_msg_key(msg))
        except ServiceError as err:
            await self._reply(update, html.escape(render_error(err, lang)))
            return
        await self.store.set_table_ref(rec.id, "chat_title", chat.title or "")
        if topic is not None:
            await self.store.set_table_ref(rec.id, "thread", int(topic))
        await self.render_lobby(rec)

    async def cmd_help(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        if context.args and context.args[0].lower() in ("rules", "guide"):
            await self._send_guide(update, "rules " + " ".join(context.args[1:]), rec, lang)
            return
        text = html.escape(t("tg.help", lang, games=", ".join(self._games())))
        if rec is not None:
            text += "\n\n" + _pre(render_help(rec.game, lang))
        text += "\n" + html.escape(t("guide.hint", lang))
        await self._reply(update, text)

    async def cmd_rules(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """`/rules [game]` (and `/help rules [game]`): the player's guide, in as many messages as it needs."""
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        await self._send_guide(update, "rules " + " ".join(context.args or []), rec, lang)

    async def _send_guide(self, update: Update, command: str, rec: TableRecord | None, lang: str) -> None:
        request = rules_request(command)
        assert request is not None
        game, problem = rules_reply(request, rec.game if rec is not None else None, lang)
        if game is None:
            await self._reply(update, html.escape(problem))
            return
        for message in guide_messages(guide_text(game, lang)):
            await self._reply(update, message)

    async def cmd_lang(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        langs = available_languages()
        choice = (context.args[0].lower() if context.args else "")
        if choice not in langs:
            lang = await self.chat_lang(chat.id, user)
            await self._reply(update, html.escape(t("tg.lang_usage", lang, langs=", ".join(langs))))
            return
        if chat.type != ChatType.PRIVATE and not await self._is_admin(chat, user):
            rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), _topic(update))
            if rec is None or rec.host_user_id != str(user.id):
                await self._reply(update, html.escape(render_error(ServiceError("E_NOT_HOST"), choice)))
                return
        await self._update_settings(chat.id, lang=choice)
        await self._reply(update, html.escape(t("tg.lang_set", choice)))
        rec = await self.store.active_table_for_chat(PLATFORM, str(chat.id), _topic(update))
        if rec is not None:
            await self.render_table_message(rec, None, [])

    async def _is_admin(self, chat: Chat, user: User) -> bool:
        assert self.outbox is not None
        try:
            member = await self.outbox.call(lambda: chat.get_member(user.id))
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    async def _table_for(self, chat: Chat, user: User, topic: str | None = None) -> TableRecord | None:
        """The group's active table, or in a DM the table where this user plays (the one on turn first)."""
        if chat.type != ChatType.PRIVATE:
            return await self.store.active_table_for_chat(PLATFORM, str(chat.id), topic)
        me = player_of(user)
        mine = []
        for rec in await self.store.list_tables(["playing"]):
            seat = self.service.seat_of(rec, me) if rec.platform == PLATFORM else None
            if seat is not None:
                on_turn = rec.state is not None and get_engine(rec.game).current_seat(rec.state) == seat
                mine.append((on_turn, rec.updated_at, rec))
        return max(mine, key=lambda m: (m[0], m[1]))[2] if mine else None

    async def _set_away(self, update: Update, away: bool) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        if rec is None:
            await self._reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        engine = get_engine(rec.game)
        before = (rec.log_seq, engine.current_seat(rec.state) if rec.state is not None else None)
        try:
            rec = await self.service.set_away(rec.id, player_of(user), away, key=_msg_key(update.effective_message))
        except ServiceError as err:
            await self._reply(update, html.escape(render_error(err, lang)))
            return
        await self._reply(update, html.escape(t("tg.away_on" if away else "tg.away_off", lang)))
        await self.render_record(rec)
        turn = engine.current_seat(rec.state) if rec.state is not None and rec.status == "playing" else None
        if turn is not None and (rec.log_seq, turn) != before:  # the AI played the seat: whose turn now?
            await self._ping(rec, turn)

    async def cmd_away(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._set_away(update, True)

    async def cmd_back(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        await self._set_away(update, False)

    async def cmd_end(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        if rec is None:
            await self._reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        is_admin = chat.type != ChatType.PRIVATE and rec.host_user_id != str(user.id) and \
            await self._is_admin(chat, user)
        try:
            rec = await self.service.end_table(rec.id, player_of(user), is_admin=is_admin,
                                               key=_msg_key(update.effective_message))
        except ServiceError as err:
            await self._reply(update, html.escape(render_error(err, lang)))
            return
        await self.render_closed(rec, "lobby.abandoned")

    async def cmd_hand(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        if rec is None or rec.status != "playing":
            await self._reply(update, html.escape(render_error(ServiceError("E_NO_TABLE"), lang)))
            return
        if chat.type != ChatType.PRIVATE:
            link = kb.deep_link(self.bot_username, f"h{rec.id}")
            await self._reply(update, html.escape(t("tg.hand_in_dm", lang)) + f"\n{html.escape(link)}")
            return
        seat = self.service.seat_of(rec, player_of(user))
        if seat is not None:
            await self.put_hand(rec, seat, fresh=True)

    # ---- standings: /leaderboard /stats /teams /team /history /rematch ------------------------------

    async def _stats_reply(self, update: Update, make: Callable[[str], Awaitable[str]]) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None
        lang = await self.chat_lang(chat.id, user)
        try:
            text = await make(lang)
        except StatsError as err:
            text = err.render(lang)
        await self._reply(update, html.escape(text))

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
        await self._stats_reply(update, lambda lang: self.service.standings.history(
            PLATFORM, str(chat.id), list(context.args or []), lang))

    async def cmd_rematch(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None and user is not None
        lang = await self.chat_lang(chat.id, user)
        if chat.type == ChatType.PRIVATE:
            await self._reply(update, html.escape(t("tg.new_in_group", lang)))
            return
        topic = _topic(update)
        try:
            rec = await self.service.rematch(PLATFORM, str(chat.id), player_of(user), topic_id=topic,
                                             key=_msg_key(update.effective_message))
        except ServiceError as err:
            await self._reply(update, html.escape(render_error(err, lang)))
            return
        await self.store.set_table_ref(rec.id, "chat_title", chat.title or "")
        if topic is not None:
            await self.store.set_table_ref(rec.id, "thread", int(topic))
        await self._reply(update, html.escape(t("stats.rematch_opened", lang)))
        await self.render_lobby(rec)

    async def on_unknown_command(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user = update.effective_chat, update.effective_user
        assert chat is not None
        lang = await self.chat_lang(chat.id, user)
        await self._reply(update, html.escape(t("tg.unknown_command", lang)))

    # ---- DM text: the engine grammar ------------------------------------------------------------

    async def on_dm_text(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        chat, user, msg = update.effective_chat, update.effective_user, update.effective_message
        assert chat is not None and user is not None and msg is not None and msg.text is not None
        await self._seen_user(user, private=True)
        lang = await self.chat_lang(chat.id, user)
        rec = await self._table_for(chat, user, _topic(update))
        if rules_request(msg.text) is not None:  # a guide needs no table: `rules rummikub` works anywhere
            await self._send_guide(update, msg.text, rec, lang)
            return
        if rec is None:
            await self._reply(update, html.escape(t("tg.no_game", lang)))
            return
        text = msg.text.strip()
        me = player_of(user)
        seat = self.service.seat_of(rec, me)
        assert seat is not None
        word = text.lower()
        if word in ("help", "?"):
            await self._reply(update, _pre(render_help(rec.game, lang)) + "\n" + html.escape(t("tg.dm_extra", lang)))
            return
        if word == "sort":
            self._by_number[(rec.id, seat)] = not self._by_number.get((rec.id, seat), False)
            await self.put_hand(rec, seat)
            return
        if word in ("hand", "rack", "table"):
            await self.put_hand(rec, seat, fresh=True)
            return
        await self._act(rec, me, seat, text, None, lambda m: self._reply(update, html.escape(m)), _msg_key(msg))

    async def _act(
        self,
        rec: TableRecord,
        me: Player,
        seat: int,
        command: str,
        version: int | None,
        refuse: Callable[[str], Awaitable[None]],
        key: str,
    ) -> bool:
        lang = await self.chat_lang(me.user_id)
        engine = get_engine(rec.game)
        prev_turn = engine.current_seat(rec.state) if rec.state is not None else None
        try:
            outcome = await self.service.act(rec.id, me, command, expected_version=version, key=key)
        except (IllegalAction, ServiceError) as err:
            await refuse(render_error(err, lang, rec.game))
            if getattr(err, "code", "") == "E_STALE":
                fresh = await self.service.get(rec.id)
                await self.put_hand(fresh, seat)
            return False
        self._selection.pop((rec.id, seat), None)
        self._moving.pop((rec.id, seat), None)
        await self.render_outcome(outcome, prev_turn=prev_turn)
        return True

    # ---- buttons --------------------------------------------------------------------------------

    async def on_button(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        assert query is not None
        user = query.from_user
        chat_id = query.message.chat.id if query.message is not None else user.id
        lang = await self.chat_lang(chat_id, user)
        try:
            data = decode(query.data)
        except CodecError:
            await self._answer(query, t("error.E_BAD_BUTTON", lang), alert=True)
            return
        rec = await self.store.get_table(data.table_id)
        if rec is None or rec.platform != PLATFORM:
            await self._answer(query, render_error(ServiceError("E_NO_TABLE"), lang))
            return
        try:
            await self._button(query, user, rec, data, lang)
        except (ServiceError, IllegalAction) as err:
            await self._answer(query, render_error(err, lang, rec.game))
        except CodecError:
            await self._answer(query, t("error.E_BAD_BUTTON", lang), alert=True)

    async def _button(self, query: CallbackQuery, user: User, rec: TableRecord, data: ButtonData, lang: str) -> None:
        me = player_of(user)
        verb = data.verb
        if rec.status == "lobby" and verb in ("join", "leave", "addai", "rmai", "start", "cancel", "options",
                                              "setopt", "lobby"):
            await self._lobby_button(query, user, me, rec, data, lang)
            return
        if verb in ("join", "leave", "addai", "rmai", "start", "options", "setopt", "lobby"):
            raise ServiceError("E_NOT_IN_LOBBY")
        if verb == "cancel":
            raise ServiceError("E_NOT_PLAYING")
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        seat = self.service.seat_of(rec, me)
        if verb == "peek":
            await self._peek(query, rec, seat, lang)
            return
        if verb not in ("pick", "sort", "cmd", "mvs", "mvt", "mv") or not data.args or not data.args[0].isdigit():
            raise CodecError("unknown action")
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        if int(data.args[0]) != seat:
            await self._answer(query, t("tg.not_your_buttons", lang), alert=True)
            return
        if verb == "sort":
            self._by_number[(rec.id, seat)] = not self._by_number.get((rec.id, seat), False)
            await self._answer(query, None)
            await self.put_hand(rec, seat)
            return
        if data.version != rec.version and not await self._pressed_before(_press_key(query)):
            await self._answer(query, render_error(ServiceError("E_STALE"), lang))
            await self.put_hand(rec, seat)
            return
        view = get_engine(rec.game).view(rec.state or {}, seat)
        items = kb.hand_items(view)
        if verb == "pick":
            if len(data.args) != 2:
                raise CodecError("bad pick")
            # Kept in pick order: where a joker stands in a meld is the player's choice.
            previous = self._selection.get((rec.id, seat), [])
            self._selection[(rec.id, seat)] = ordered_pick(previous, indices_of(data.args[1], len(items)))
            self._moving.pop((rec.id, seat), None)
            await self._answer(query, None)
            await self.put_hand(rec, seat)
            return
        if verb in ("mvs", "mvt", "mv"):
            await self._move_button(query, me, rec, seat, view, data)
            return
        # cmd <seat> <move index> <mask> [<option>]: the move of `engine.moves(view)`, filled by compose
        if len(data.args) < 3 or not data.args[1].isdigit():
            raise CodecError("bad command")
        mask = set(indices_of(data.args[2], len(items)))
        order = [i for i in self._selection.get((rec.id, seat), []) if i in mask]
        picked = [items[i] for i in order + sorted(mask - set(order))]
        option = int(data.args[3]) if len(data.args) > 3 and data.args[3].isdigit() else None
        try:
            command = kb_command(get_engine(rec.game).moves(view), int(data.args[1]), option, picked)
        except ValueError as err:
            raise CodecError("bad command") from err
        async def refuse(text: str) -> None:
            await self._answer(query, text, alert=len(text) > 60)

        if await self._act(rec, me, seat, command, data.version, refuse, _press_key(query)):
            await self._answer(query, command)

    async def _pressed_before(self, key: str) -> bool:
        """A redelivered press made the button stale itself: it gets its first answer, not "stale"."""
        return await self.store.action_key(key) is not None

    async def _move_button(self, query: CallbackQuery, me: Player, rec: TableRecord, seat: int,
                           view: dict[str, Any], data: ButtonData) -> None:
        """Moving an item between melds: mvs starts, mvt <piece> picks the table item, mv <move> <piece> <dest> sends."""
        nums = [int(a) for a in data.args[1:] if a.isdigit()]
        if len(nums) != len(data.args) - 1:
            raise CodecError("bad move")
        found = move_template(get_engine(rec.game).moves(view))
        if found is None:
            raise CodecError("bad move")
        index, tpl = found
        if data.verb == "mvs" and not nums:
            self._selection.pop((rec.id, seat), None)
            self._moving[(rec.id, seat)] = None
        elif data.verb == "mvt" and len(nums) == 1 and nums[0] < len(tpl.open_slots()[0].options):
            self._moving[(rec.id, seat)] = nums[0]
        elif data.verb == "mv" and len(nums) == 3 and nums[0] == index:
            try:
                command = move_command(tpl, nums[1], nums[2])
            except ValueError as err:
                raise CodecError("bad move") from err

            async def refuse(text: str) -> None:
                await self._answer(query, text, alert=len(text) > 60)

            self._moving.pop((rec.id, seat), None)
            if await self._act(rec, me, seat, command, data.version, refuse, _press_key(query)):
                await self._answer(query, command)
            return
        else:
            raise CodecError("bad move")
        await self._answer(query, None)
        await self.put_hand(rec, seat)

    async def _peek(self, query: CallbackQuery, rec: TableRecord, seat: int | None, lang: str) -> None:
        if seat is None:
            await self._answer(query, render_error(ServiceError("E_NOT_SEATED"), lang), alert=True)
            return
        view = get_engine(rec.game).view(rec.state or {}, seat)
        items = " ".join(kb.hand_items(view))
        text = t("tg.peek", lang, game=t(f"game.{rec.game}", lang), count=len(kb.hand_items(view)), items=items)
        await self._answer(query, text, alert=True)

    async def _lobby_button(self, query: CallbackQuery, user: User, me: Player, rec: TableRecord, data: ButtonData,
                            lang: str) -> None:
        verb = data.verb
        key = _press_key(query)
        if verb == "join":
            if not await self.dm_ok(user.id):
                # No working DM yet: one tap opens the bot and joins (the seat waits for the DM).
                await self._answer(query, t("tg.open_dm_first", lang),
                                   url=kb.deep_link(self.bot_username, f"j{rec.id}"))
                return
            rec = await self.service.join(rec.id, me, key=key)
            await self._answer(query, t("tg.joined", lang))
        elif verb == "leave":
            rec = await self.service.leave(rec.id, me, key=key)
            await self._answer(query, t("tg.left", lang))
        elif verb == "addai":
            rec = await self.service.add_ai(rec.id, me, key=key)
            await self._answer(query, None)
        elif verb == "rmai":
            rec = await self.service.remove_ai(rec.id, me, key=key)
            await self._answer(query, None)
        elif verb == "cancel":
            rec = await self.service.end_table(rec.id, me, is_admin=await self._is_admin_id(rec, user), key=key)
            await self._answer(query, None)
            await self.render_closed(rec, "lobby.abandoned")
            return
        elif verb in ("options", "lobby"):
            if not self.service.is_host(rec, me):
                raise ServiceError("E_NOT_HOST")
            if verb == "options":
                self._options_open.add(rec.id)
            else:
                self._options_open.discard(rec.id)
            await self._answer(query, None)
        elif verb == "setopt":
            rec = await self._set_option(rec, me, data, key)
            await self._answer(query, None)
        elif verb == "start":
            missing = [s.name for s in rec.seats if s.kind == "human" and not await self.dm_ok(s.user_id or "")]
            if missing:
                raise ServiceError("E_NO_DM", names=", ".join(missing))
            outcome = await self.service.start(rec.id, me, key=key)
            self._options_open.discard(rec.id)
            await self._answer(query, None)
            await self.render_outcome(outcome, prev_turn=None)
            return
        await self.render_lobby(rec)

    async def _is_admin_id(self, rec: TableRecord, user: User) -> bool:
        if rec.host_user_id == str(user.id):
            return False
        assert self.outbox is not None and self.outbox.bot is not None
        try:
            member = await self.outbox.call(lambda: self.outbox.bot.get_chat_member(int(rec.chat_id), user.id))  # type: ignore[union-attr]
        except TelegramError:
            return False
        return member.status in (ChatMemberStatus.ADMINISTRATOR, ChatMemberStatus.OWNER)

    async def _set_option(self, rec: TableRecord, me: Player, data: ButtonData, key: str) -> TableRecord:
        if data.version != rec.version and not await self._pressed_before(key):
            raise ServiceError("E_STALE")
        if not self.service.is_host(rec, me):
            raise ServiceError("E_NOT_HOST")
        engine = get_engine(rec.game)
        keys = list(engine.options_model.model_fields)
        if len(data.args) != 2 or not all(a.isdigit() for a in data.args) or int(data.args[0]) >= len(keys):
            raise CodecError("bad option")
        option = keys[int(data.args[0])]
        choices = kb.option_choices(engine.options_model, rec.options, option, engine.max_seats)
        if int(data.args[1]) >= len(choices):
            raise CodecError("bad option")
        return await self.service.set_option(rec.id, me, option, choices[int(data.args[1])], key=key)

    # ---- rendering ------------------------------------------------------------------------------

    async def _table_info(self, table_id: str) -> dict[str, Any]:
        """The group's title and forum thread of a table: written once at /new, so cached."""
        if table_id not in self._info:
            refs = await self.store.table_refs(table_id)
            self._info[table_id] = {"chat_title": refs.get("chat_title", ""), "thread": refs.get("thread")}
        return self._info[table_id]

    async def _thread(self, rec: TableRecord) -> int | None:
        value = (await self._table_info(rec.id))["thread"]
        return int(value) if value is not None else None

    async def render_lobby(self, rec: TableRecord) -> None:
        assert self.outbox is not None
        lang = await self.chat_lang(rec.chat_id)
        if rec.status != "lobby":
            await self.render_closed(rec, "lobby.abandoned")
            return
        engine = get_engine(rec.game)
        lines = [render_lobby(rec, lang, engine.max_seats)]
        if not any(s.platform == rec.host_platform and s.user_id == rec.host_user_id for s in rec.seats):
            lines.append(t("tg.host_not_seated", lang))
        lines.append(t("tg.lobby_hint", lang))
        markup = kb.options_keyboard(rec, lang) if rec.id in self._options_open else kb.lobby_keyboard(rec, lang)
        self.outbox.put(int(rec.chat_id), rec.id, "table", _pre("\n".join(lines)), markup, await self._thread(rec),
                        rec.version)

    async def render_closed(self, rec: TableRecord, key: str) -> None:
        assert self.outbox is not None
        lang = await self.chat_lang(rec.chat_id)
        text = t(key, lang)
        if rec.state is not None:
            text = render_table(rec, get_engine(rec.game).view(rec.state, None), lang) + "\n\n" + text
        elif rec.status == "abandoned" and key == "tg.lobby_expired":
            text = t("tg.lobby_expired", lang)
        self.outbox.put(int(rec.chat_id), rec.id, "table", _pre(text), None, await self._thread(rec), rec.version)
        for seat, s in enumerate(rec.seats):
            if s.kind == "human" and rec.state is not None and s.user_id and await self.outbox.ref(rec.id, _hand_key(s.user_id)):
                await self.put_hand(rec, seat, note=t(key, await self.chat_lang(s.user_id)))

    async def render_table_message(self, rec: TableRecord, view: dict[str, Any] | None, lines: list[str],
                                   restored: bool = False) -> None:
        assert self.outbox is not None
        if rec.status == "lobby":
            await self.render_lobby(rec)
            return
        if rec.state is None:
            return
        lang = await self.chat_lang(rec.chat_id)
        view = view or get_engine(rec.game).view(rec.state, None)
        body = render_table(rec, view, lang, now=self.service.clock.now())
        text = _pre(body)
        if lines:
            text += "\n" + html.escape("\n".join(lines[-6:]))
        turn = view.get("turn")
        if rec.status == "playing" and turn is not None:
            s = rec.seats[turn]
            who = mention(s.user_id if s.kind == "human" else None, s.name)
            text += "\n" + t("tg.turn_line", lang, name=who)
        if restored:
            text = html.escape(t("lobby.restored", lang)) + "\n" + text
        markup = kb.table_keyboard(rec, self.bot_username, lang) if rec.status == "playing" else None
        self.outbox.put(int(rec.chat_id), rec.id, "table", text, markup, await self._thread(rec), rec.version)

    async def put_hand(self, rec: TableRecord, seat: int, note: str | None = None, events: list[str] | None = None,
                       fresh: bool = False, view: dict[str, Any] | None = None) -> None:
        """The seat's hand DM; `view` is the seat's view when the caller has it (an outcome's)."""
        assert self.outbox is not None
        s = rec.seats[seat]
        if s.kind != "human" or s.user_id is None or rec.state is None:
            return
        user_id = s.user_id
        if not await self.dm_ok(user_id):
            return  # blocked us (see _unreachable): nothing goes out until they write again
        lang = await self.chat_lang(user_id)
        view = view if view is not None else get_engine(rec.game).view(rec.state, seat)
        selected = self._selection.get((rec.id, seat), [])
        items = kb.hand_items(view)
        selected = [i for i in selected if i < len(items)]
        title = (await self._table_info(rec.id))["chat_title"]
        header = t("tg.hand_header", lang, game=t(f"game.{rec.game}", lang), chat=excerpt(title, 64))
        text = f"<b>{html.escape(header)}</b>\n" + _pre(render_hand(rec, view, lang, self._by_number.get((rec.id, seat),
                                                                                                      False)))
        if selected:
            text += "\n" + html.escape(t("tg.selected", lang, items=" ".join(items[i] for i in selected)))
        if events:
            text += "\n" + html.escape("\n".join(events[-4:]))
        if note:
            text += "\n" + html.escape(note)
        moving = self._moving.get((rec.id, seat), False)  # None: picking what to move
        markup = kb.hand_keyboard(rec, view, seat, selected, lang, moving)
        if fresh:
            # Asked for again: a new message at the bottom of the DM replaces the old one.
            await self.outbox.forget(rec.id, _hand_key(user_id))
        self.outbox.put(int(user_id), rec.id, _hand_key(user_id), text, markup, version=rec.version)

    async def render_record(self, rec: TableRecord) -> None:
        if rec.status == "lobby":
            await self.render_lobby(rec)
            return
        await self.render_table_message(rec, None, [])
        for seat, s in enumerate(rec.seats):
            if s.kind == "human":
                await self.put_hand(rec, seat)

    async def render_outcomes(self, outcomes: list[Outcome]) -> None:
        """What the scheduler produced: timeouts and expired lobbies."""
        for outcome in outcomes:
            if outcome.table.platform != PLATFORM:
                continue
            if outcome.table.status == "abandoned" and outcome.table.state is None:
                await self.render_closed(outcome.table, "tg.lobby_expired")
            else:
                await self.render_outcome(outcome)

    async def render_outcome(self, outcome: Outcome, prev_turn: int | None = None, restored: bool = False) -> None:
        assert self.outbox is not None
        rec = outcome.table
        if rec.state is None:
            await self.render_record(rec)
            return
        lang = await self.chat_lang(rec.chat_id)
        thread = await self._thread(rec)
        summaries = [line for e, line in self._public_lines(rec, outcome, lang) if e in _ANNOUNCED]
        table_lines = [line for e, line in self._public_lines(rec, outcome, lang) if e not in _ANNOUNCED]
        await self.render_table_message(rec, outcome.public_view, table_lines, restored=restored)
        for seat, s in enumerate(rec.seats):
            if s.kind != "human" or s.user_id is None:
                continue
            seat_lang = await self.chat_lang(s.user_id)
            private = [e for e in outcome.events if e.seat == seat]
            lines = render_events(rec, private, seat, seat_lang)
            note = t("tg.match_over", seat_lang) if rec.status == "finished" else None
            await self.put_hand(rec, seat, note=note, events=lines, view=outcome.private_views.get(seat))
        if summaries:
            self.outbox.post(int(rec.chat_id), html.escape("\n\n".join(summaries)), thread_id=thread)
        turn = (outcome.public_view or {}).get("turn")
        if rec.status == "playing" and turn is not None and not restored:
            s = rec.seats[turn]
            others_moved = any(e.data.get("seat") not in (None, turn) for e in outcome.events)
            if turn != prev_turn or others_moved:
                await self._ping(rec, turn)

    async def _ping(self, rec: TableRecord, turn: int) -> None:
        """A short new group message, so a human whose turn starts gets notified (edits do not notify)."""
        assert self.outbox is not None
        s = rec.seats[turn]
        if s.kind != "human" or s.away:
            return
        lang = await self.chat_lang(rec.chat_id)
        self.outbox.post(int(rec.chat_id), t("tg.your_turn", lang, name=mention(s.user_id, s.name)),
                         thread_id=await self._thread(rec))

    @staticmethod
    def _public_lines(rec: TableRecord, outcome: Outcome, lang: str) -> list[tuple[str, str]]:
        from bot.core.render import renderer
        from bot.core.render.common import names

        mod = renderer(rec.game)
        out = []
        for event in outcome.events:
            if event.seat is not None:
                continue
            line = mod.render_event(event, names(rec), None, lang)
            if line:
                out.append((event.type, line))
        return out


_ANNOUNCED = {"RoundScored", "MatchEnded", "TieBreakNeeded", "RoundEnded", "MatchOver"}


def _topic(update: Update) -> str | None:
    msg = update.effective_message
    if msg is not None and msg.is_topic_message and msg.message_thread_id:
        return str(msg.message_thread_id)
    return None


def _msg_key(msg: Message | None) -> str | None:
    """The idempotency key of a typed message: Telegram redelivers it with the same ids."""
    return None if msg is None else f"{PLATFORM}:m:{msg.chat_id}:{msg.message_id}"


def _press_key(query: CallbackQuery) -> str:
    """The idempotency key of a button press: the callback query's id, the same on redelivery."""
    return f"{PLATFORM}:q:{query.id}"


def _hand_key(user_id: str) -> str:
    return f"hand:{user_id}"


__all__ = ["PLATFORM", "TelegramBot", "TelegramConfig", "obey_retry_after", "player_of"]
