"""The Telegram adapter: commands and buttons in, table service calls, presenter updates out.

One table message per table in the group (lobby, then the game), edited in place; each human's
hand in a DM message edited in place, and a turn notice there when their turn starts (delivery.py
has the policy). Nothing here knows a game rule: texts, hands and their controls come from the
presenter (bot.core.presenter), moves are the engines' text commands.

The bot is put together by concern: commands.py (commands and DM text), standings.py, buttons.py
(presses), lobby.py (the lobby's buttons), hints.py (`hint`) and delivery.py (what goes out, through outbox.py).
"""

from __future__ import annotations

import asyncio
import html
import logging
import threading
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from telegram import BotCommand, InlineKeyboardMarkup, Update, User
from telegram.constants import ChatType
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

from bot.core import metrics
from bot.core.i18n import DEFAULT_LANG, available_languages, resolve_language, t
from bot.core.models import Player, StoreUnavailable
from bot.core.pictures import PictureCache
from bot.core.presenter import HandUIs, Presenter
from bot.core.presenter.games import turn_of
from bot.core.restored import RestoredRender
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.telegram import keyboards as kb
from bot.telegram.buttons import Buttons
from bot.telegram.commands import Commands
from bot.telegram.common import PLATFORM, mention, player_of
from bot.telegram.delivery import Delivery
from bot.telegram.hints import Hints
from bot.telegram.limits import fit_html
from bot.telegram.lobby import Lobby
from bot.telegram.outbox import Leaving, Outbox, obey_retry_after
from bot.telegram.pictures import Pictures
from bot.telegram.standings import Standings
from bot.telegram.web_links import WebLinks
from storage import Store
from storage.unavailable import unavailable

if TYPE_CHECKING:
    from bot.web.server import WebServer  # aiohttp's server loads only when the web table is on

log = logging.getLogger(__name__)

UPDATE_MEMORY_S = 7 * 24 * 3600.0
# An update being handled is claimed under this name first, so that two processes given the same
# update at once (webhook workers behind one URL) answer it once; the claim of one that died half way
# is taken over after RUNNING_LEASE_S, or at once by the next start.
RUNNING = f"{PLATFORM}:running"
RUNNING_LEASE_S = 120.0
STOOD_IN = "stood_in"  # a user's setting: the tables whose seat went away because the bot could not reach them
def command_menus() -> list[tuple[str, str | None]]:
    """Each language's command menu and the `language_code` Telegram shows it for (ISO 639-1, so
    pt_BR's is `pt`; English is the menu of every other language)."""
    menus: dict[str | None, str] = {}
    for lang in available_languages():
        menus.setdefault(None if lang == DEFAULT_LANG else lang.split("_")[0], lang)
    return [(lang, code) for code, lang in menus.items()]


COMMANDS = ("new", "help", "rules", "lang", "look", "away", "back", "end", "hand", "hint")
STATS_COMMANDS = ("leaderboard", "stats", "teams", "team", "history", "rematch")  # texts: stats.cmd.*


@dataclass
class TelegramConfig:
    default_lang: str = "en"
    tick_interval_s: float = 1.0
    run_scheduler: bool = True
    # One group's true limit (outbox.py, window.py): Telegram's 20 messages in any 60 s.
    group_limit: int = 20
    group_period_s: float = 60.0
    webapp_name: str | None = None  # the Mini App's short name (TELEGRAM_WEBAPP_NAME): the group's link into it
    look: str = "pictures"  # tables and hands of a chat without `/look`: "pictures" or "text"


class TelegramBot(Commands, Standings, Buttons, Lobby, Hints, WebLinks, Pictures, Delivery):
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
        self._outbox: Outbox | None = None
        self.uis = HandUIs(store)
        self.presenter = Presenter(self.uis)
        self.scheduler = Scheduler(service, self.config.tick_interval_s, self.render_outcomes,
                                   platforms=(PLATFORM, RUNNING))
        self.restored = RestoredRender()  # the tables a start resumed, shown again beside new updates
        self.started = False  # `startup` done and not leaving: /readyz
        self.bot_username = "rummyclub_bot"  # replaced by the real one at startup (getMe)
        self.web: WebServer | None = None  # the web table (WEB_PORT), set by app.py while it runs
        self._settings: dict[str, dict[str, Any]] = {}
        self._picture_cache = PictureCache()
        self._drawing = threading.Lock()
        self._options_open: set[str] = set()
        self._info: dict[str, dict[str, Any]] = {}
        self._hand_lines: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}  # delivery._event_lines
        self._held_lines: dict[str, tuple[str, ...]] = {}  # table -> event lines of steps not shown yet
        self._round_results: dict[str, str | None] = {}  # table -> the last round's result (delivery)
        self.processed: deque[int] = deque(maxlen=4096)  # recent updates handled to the end (tests wait on them)
        self._processed_cond = asyncio.Condition()

    @property
    def outbox(self) -> Outbox:
        assert self._outbox is not None, "install() first"
        return self._outbox

    # ---- wiring ---------------------------------------------------------------------------------

    def install(self, app: Application) -> None:
        # The group window runs on the service's clock: the injected one in tests, with the injected sleep.
        self._outbox = Outbox(app.bot, self.store, self.sleep, group_limit=self.config.group_limit,
                              group_period=self.config.group_period_s, clock=self.service.clock.now)
        self.outbox.on_unreachable = self._unreachable
        metrics.queued["telegram"] = self._outbox.queued
        app.add_handler(TypeHandler(Update, self._dedupe), group=-2)
        app.add_handler(TypeHandler(Update, self._come_back), group=-1)  # after: a repeat stops at _dedupe
        app.add_handler(CommandHandler("start", self.cmd_start))
        app.add_handler(CommandHandler("new", self.cmd_new))
        app.add_handler(CommandHandler("help", self.cmd_help))
        app.add_handler(CommandHandler("rules", self.cmd_rules))
        app.add_handler(CommandHandler("lang", self.cmd_lang))
        app.add_handler(CommandHandler("look", self.cmd_look))
        app.add_handler(CommandHandler("away", self.cmd_away))
        app.add_handler(CommandHandler("back", self.cmd_back))
        app.add_handler(CommandHandler("end", self.cmd_end))
        app.add_handler(CommandHandler("hand", self.cmd_hand))
        app.add_handler(CommandHandler("hint", self.cmd_hint))
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
        for lang, code in command_menus():
            commands = [BotCommand(c, t(f"tg.cmd.{c}", lang)) for c in COMMANDS]
            commands += [BotCommand(c, t(f"stats.cmd.{c}", lang)) for c in STATS_COMMANDS]
            try:
                await self.outbox.call(partial(app.bot.set_my_commands, commands, language_code=code))
            except TelegramError:
                log.exception("set_my_commands failed")
        restored = [o for o in await self.service.resume_all() if o.table.platform == PLATFORM]
        self.restored.start(restored, lambda outcome: self.render_outcome(outcome, restored=True))
        await self.store.prune_updates(PLATFORM, self.service.clock.now() - UPDATE_MEMORY_S)
        # Whatever was being handled before this start (this second included: a clock that has not
        # moved) was a dead process's: Telegram sends it again.
        await self.store.prune_updates(RUNNING, self.service.clock.now() + 1.0)
        if self.config.run_scheduler:
            self.scheduler.start()
        self.started = True

    def ready(self) -> bool:
        """Taking updates (the web server's /readyz): started, and not on the way down."""
        return self.started

    def leaving(self) -> None:
        """Shutting down: no group window or RetryAfter is waited out any more (a command's reply
        that would have to wait is given up; the restored render shows the tables at the next start)."""
        self.started = False
        if self._outbox is not None:
            self._outbox.stop_waiting()

    async def shutdown(self, grace_s: float | None = None) -> None:
        """The clock stopped (a tick under way may finish), then the queued messages sent: all of
        them, or with `grace_s` what goes out by then (a group's window is not waited out: the
        restored render shows its tables again at the next start)."""
        await self.scheduler.stop(grace_s or 0.0)
        await self.restored.stop()
        if self._outbox is not None:
            await self._outbox.close(grace_s)

    async def idle(self) -> None:
        await self.restored.wait()
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
        """Drop an update handled to the end before (Telegram redelivers what it was not told of),
        or being handled right now by another process (given the same update at the same moment).

        The update id is claimed as done only once its handling is over (`_done`): a process killed
        half way leaves it undone, and the redelivery runs again. Before handling it is claimed as
        running (atomically: one process wins), a claim the next start or RUNNING_LEASE_S clears
        when its process died. What that cannot protect — a change made just before the kill — is
        protected by the idempotency key each change carries (`_msg_key`, `_press_key`), written in
        the change's own transaction: the repeat is answered with the first outcome and applies
        nothing. Nothing is answered here: the first delivery answers (or answered) its button."""
        update_id, now = str(update.update_id), self.service.clock.now()
        try:
            if await self.store.update_claimed(PLATFORM, update_id):
                log.info("update %s was handled before: ignored", update.update_id)
            elif await self.store.claim_update(RUNNING, update_id, now):
                return
            else:
                await self.store.prune_updates(RUNNING, now - RUNNING_LEASE_S)  # a claim that old is a dead process's
                if await self.store.claim_update(RUNNING, update_id, now):
                    return
                log.info("update %s is being handled by another process: ignored", update.update_id)
        except Exception as err:
            if not unavailable(err):
                raise
            # Stopped here: the handlers would otherwise go on without the check.
            await self._store_lost(update, err)
            raise ApplicationHandlerStop from None
        await self._mark_processed(update)
        raise ApplicationHandlerStop

    async def _done(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(update, Update):
            try:
                await self.store.claim_update(PLATFORM, str(update.update_id), self.service.clock.now())
            except Exception as err:
                if not unavailable(err):
                    raise
                # The update was handled (its changes carry their own keys): only a redelivery's
                # shortcut is missing, and the key answers that one as the first time.
                log.warning("update %s handled, its id not recorded (the store is unreachable: %s)",
                            update.update_id, err)
            await self._mark_processed(update)

    async def on_error(self, update: object, context: ContextTypes.DEFAULT_TYPE) -> None:
        err = context.error
        if isinstance(err, Leaving):  # shutting down: its reply would wait for a group's window
            log.info("shutting down: a reply that had to wait was not sent")
            return
        if err is not None and isinstance(update, Update) and (isinstance(err, StoreUnavailable) or unavailable(err)):
            await self._store_lost(update, err)  # the store out of reach outside the service's own calls
            return
        log.error("update failed: %s", err, exc_info=err)
        if isinstance(update, Update):
            if update.callback_query is not None:
                await self._answer(update.callback_query, t("tg.error", self.config.default_lang))
            await self._mark_processed(update)

    async def _store_lost(self, update: Update, err: BaseException) -> None:
        """Nothing of the update was done, the store being out of reach: the player is told so, as
        the service's own StoreUnavailable is told, and sends it again in a moment."""
        log.warning("update %s not handled, the store is unreachable: %s", update.update_id, err)
        user = update.effective_user
        lang = (self._norm_lang(user.language_code) if user else None) or self.config.default_lang
        if update.callback_query is not None:
            await self._answer(update.callback_query, t("error.E_STORE_UNAVAILABLE", lang))
        elif update.effective_message is not None:
            await self._reply(update, html.escape(t("error.E_STORE_UNAVAILABLE", lang)))
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
        """Our language for a Telegram `language_code` (an IETF tag: `ru`, `pt-br`, `es-419`)."""
        return resolve_language(code)

    async def chat_lang(self, chat_id: int | str, user: User | None = None) -> str:
        """The chat's /lang setting, else the user's Telegram language (or the one remembered for a
        DM), else the default."""
        settings = await self._chat_settings(chat_id)
        lang = settings.get("lang") or (self._norm_lang(user.language_code) if user else None)
        return lang or settings.get("user_lang") or self.config.default_lang

    async def player_lang(self, user_id: int | str, chat_id: int | str) -> str:
        """The language of what only a player sees (their hand, their notices): the /lang they set in
        their DM with the bot, else their Telegram language, else the group's /lang, else the default."""
        own = await self._chat_settings(user_id)
        lang = own.get("lang") or own.get("user_lang")
        return lang or (await self._chat_settings(chat_id)).get("lang") or self.config.default_lang

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
        """A hand or a notice could not be delivered: the user blocked the bot (403). The seat goes
        `/away` so the AI stands in — a table without a turn timer would wait forever — and the group
        is told once, with the one-tap way back (a message deleted at match end). Nothing more goes
        to that DM until the user writes to the bot."""
        if not slot.startswith(("hand:", "notice:")):
            return
        await self._update_settings(user_id, dm=False)
        rec = await self.store.get_table(table_id)
        if rec is None or rec.status != "playing" or rec.platform != PLATFORM:
            return
        seat = next((i for i, s in enumerate(rec.seats) if s.kind == "human" and s.user_id == str(user_id)), None)
        if seat is None or rec.seats[seat].away:
            return  # already stood in for (and already announced)
        before = (rec.log_seq, turn_of(rec))
        name = rec.seats[seat].name
        rec = await self.service.set_away(rec.id, Player(PLATFORM, str(user_id), name), True)
        await self.forget_stood_in(user_id, rec.id, add=True)
        lang = await self.chat_lang(rec.chat_id)
        link = html.escape(kb.deep_link(self.bot_username, f"h{rec.id}"))
        self.outbox.post_temporary(int(rec.chat_id), rec.id,
                                   t("tg.dm_blocked", lang, name=mention(str(user_id), name), link=link),
                                   thread_id=await self._thread(rec))
        await self.render_change(rec, before)

    async def forget_stood_in(self, user_id: int, table_id: str, add: bool = False) -> None:
        """The table leaves (or joins) the user's list of seats taken over because they were unreachable;
        a /away or /back of their own takes it off, so a later message does not undo their choice."""
        listed = (await self._chat_settings(user_id)).get(STOOD_IN) or []
        if add or table_id in listed:
            kept = [t for t in listed if t != table_id]
            await self._update_settings(user_id, **{STOOD_IN: [*kept, table_id] if add else kept})

    async def _come_back(self, update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
        """Anything the user sends the bot in private after it could not reach them (the notice's
        link, a message, a press) says they can be reached again: every seat the AI took over for
        that reason is theirs again, as with /back, before the update itself is handled (so the
        link shows a hand they can play)."""
        chat, user = update.effective_chat, update.effective_user
        if chat is None or user is None or chat.type != ChatType.PRIVATE:
            return
        tables = (await self._chat_settings(user.id)).get(STOOD_IN)
        if not tables:
            return
        await self._update_settings(user.id, dm=True)
        me = player_of(user)
        for table_id in tables:
            rec = await self.store.get_table(table_id)
            seat = self.service.seat_of(rec, me) if rec is not None and rec.status == "playing" else None
            if rec is None or seat is None or not rec.seats[seat].away:
                continue  # over, or already back (/back, a move)
            before = (rec.log_seq, turn_of(rec))
            rec = await self.service.set_away(rec.id, me, False)
            self.outbox.post(user.id, html.escape(t("tg.away_off", await self.chat_lang(user.id, user))))
            await self.render_change(rec, before)
        await self._update_settings(user.id, **{STOOD_IN: []})

    # ---- replies --------------------------------------------------------------------------------

    async def _reply(self, update: Update, text: str, markup: InlineKeyboardMarkup | None = None) -> None:
        msg = update.effective_message
        assert msg is not None
        thread = msg.message_thread_id if msg.is_topic_message else None
        text = fit_html(text)  # a reply over Telegram's limit would be dropped: cut it, tags kept whole
        await self.outbox.call(lambda: msg.get_bot().send_message(  # HTML, no link preview: the bot's Defaults
            msg.chat_id, text, reply_markup=markup, message_thread_id=thread), chat_id=msg.chat_id)


__all__ = ["PLATFORM", "TelegramBot", "TelegramConfig", "obey_retry_after", "player_of"]
