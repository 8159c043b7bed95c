"""The Telegram adapter: commands and buttons in, table service calls, presenter updates out.

One table message per table in the group (lobby, then the game), edited in place; each human's
hand in a DM message edited in place, and a turn notice there when their turn starts (delivery.py
has the policy). Nothing here knows a game rule: texts, hands and their controls come from the
presenter (bot.core.presenter), moves are the engines' text commands.

The bot is composed of objects, each with its own state, built in TelegramBot's constructor and
handed what it uses (the shared TgContext of context.py, and the parts it calls): commands.py
(commands and DM text), standings.py, buttons.py (presses), lobby.py (the lobby's buttons), hints.py
(`hint`), moves.py (a move played), stand_ins.py (the AI standing in for an unreachable player),
membership.py (the bot added to, removed from or moved with a group), profile.py (menus and descriptions) and
delivery.py (what goes out, through outbox.py, drawn by pictures.py, linked by web_links.py). No part
imports this module: the handlers are registered here, flatly, on the parts' methods.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from telegram import Bot, Update
from telegram.ext import (
    Application,
    ApplicationHandlerStop,
    CallbackQueryHandler,
    ChatMemberHandler,
    CommandHandler,
    ContextTypes,
    MessageHandler,
    TypeHandler,
    filters,
)

from bot.core import metrics
from bot.core.i18n import t
from bot.core.models import Outcome, StoreUnavailable
from bot.core.presenter import HandUIs, Presenter
from bot.core.restored import RestoredRender
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.telegram.buttons import Buttons
from bot.telegram.chat_settings import ChatSettings
from bot.telegram.commands import Commands
from bot.telegram.common import PLATFORM, player_of
from bot.telegram.context import TelegramConfig, TgContext
from bot.telegram.delivery import Delivery
from bot.telegram.hints import Hints
from bot.telegram.lobby import Lobby
from bot.telegram.membership import Membership
from bot.telegram.moves import Moves
from bot.telegram.outbox import Leaving, Outbox, obey_retry_after
from bot.telegram.pictures import Pictures
from bot.telegram.profile import BotProfile
from bot.telegram.replies import Replies
from bot.telegram.stand_ins import StandIns
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
# A table version shown again after a start is claimed under this name: of several processes started
# together, one edits a table that is behind. A claim older than RUNNING_LEASE_S is a dead start's.
RESTORING = f"{PLATFORM}:restoring"


class TelegramBot:
    """The adapter put together: its parts built once here, each handed what it uses, their handlers
    registered flatly on the Application; here too the life of an update (claimed, handled, marked)."""

    def __init__(
        self,
        bot: Bot,
        service: TableService,
        store: Store,
        config: TelegramConfig | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.service = service
        self.store = store
        self.config = config or TelegramConfig()
        # The group window runs on the service's clock: the injected one in tests, with the injected sleep.
        self.outbox = Outbox(bot, store, sleep, group_limit=self.config.group_limit,
                             group_period=self.config.group_period_s, clock=service.clock.now)
        metrics.queued["telegram"] = self.outbox.queued
        self.chats = ChatSettings(store, self.config.default_lang)
        self.replies = Replies(self.outbox)
        self.uis = HandUIs(store)
        self.presenter = Presenter(self.uis)
        self.ctx = TgContext(service, store, self.config, self.outbox, self.chats, self.replies, self.uis,
                             self.presenter)
        self.links = WebLinks(self.ctx)
        self.pictures = Pictures(self.chats, self.config.look)
        self.delivery = Delivery(self.ctx, self.pictures, self.links)
        self.stand_ins = StandIns(self.ctx, self.delivery)
        self.outbox.on_unreachable = self.stand_ins.unreachable
        self.membership = Membership(self.ctx, self.delivery)
        self.profile = BotProfile(store, self.outbox.call)
        self.outbox.on_group_gone = self.membership.removed
        self.outbox.on_migrated = self.membership.migrated
        self.moves = Moves(self.ctx, self.delivery)
        self.hints = Hints(self.ctx, self.delivery, self.moves)
        self.lobby = Lobby(self.ctx, self.delivery)
        self.buttons = Buttons(self.ctx, self.delivery, self.lobby, self.hints, self.moves)
        self.standings = Standings(self.ctx, self.delivery)
        self.commands = Commands(self.ctx, self.delivery, self.hints, self.moves, self.stand_ins)
        self.scheduler = Scheduler(service, self.config.tick_interval_s, self.delivery.render_outcomes,
                                   platforms=(PLATFORM, RUNNING))
        self.restored = RestoredRender()  # the tables a start resumed, shown again beside new updates
        self.started = False  # `startup` done and not leaving: /readyz
        self.processed: deque[int] = deque(maxlen=4096)  # recent updates handled to the end (tests wait on them)
        self._processed_cond = asyncio.Condition()

    @property
    def web(self) -> WebServer | None:
        """The web table (WEB_PORT), set by bot/running.py while it runs."""
        return self.ctx.web

    @web.setter
    def web(self, server: WebServer | None) -> None:
        self.ctx.web = server

    def tables_kept(self) -> dict[str, int]:
        """The sizes of what is kept per table (the soak bench and tests watch them level off)."""
        return self.delivery.tables_kept()

    # ---- wiring ---------------------------------------------------------------------------------

    def install(self, app: Application) -> None:
        commands, standings = self.commands, self.standings
        app.add_handler(TypeHandler(Update, self._dedupe), group=-2)
        app.add_handler(TypeHandler(Update, self.stand_ins.come_back), group=-1)  # after: a repeat stops at _dedupe
        app.add_handler(CommandHandler("start", commands.cmd_start))
        app.add_handler(CommandHandler("new", commands.cmd_new))
        app.add_handler(CommandHandler("help", commands.cmd_help))
        app.add_handler(CommandHandler("rules", commands.cmd_rules))
        app.add_handler(CommandHandler("lang", commands.cmd_lang))
        app.add_handler(CommandHandler("look", commands.cmd_look))
        app.add_handler(CommandHandler("away", commands.cmd_away))
        app.add_handler(CommandHandler("back", commands.cmd_back))
        app.add_handler(CommandHandler("end", commands.cmd_end))
        app.add_handler(CommandHandler("hand", commands.cmd_hand))
        app.add_handler(CommandHandler("hint", self.hints.cmd_hint))
        app.add_handler(CommandHandler("leaderboard", standings.cmd_leaderboard))
        app.add_handler(CommandHandler("stats", standings.cmd_stats))
        app.add_handler(CommandHandler("teams", standings.cmd_teams))
        app.add_handler(CommandHandler("team", standings.cmd_team))
        app.add_handler(CommandHandler("history", standings.cmd_history))
        app.add_handler(CommandHandler("rematch", standings.cmd_rematch))
        app.add_handler(CallbackQueryHandler(self.buttons.on_button))
        app.add_handler(ChatMemberHandler(self.membership.on_my_chat_member, ChatMemberHandler.MY_CHAT_MEMBER))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self.membership.on_migrate))
        app.add_handler(MessageHandler(filters.ChatType.PRIVATE & filters.TEXT & ~filters.COMMAND,
                                       commands.on_dm_text))
        app.add_handler(MessageHandler(filters.COMMAND, commands.on_unknown_command))
        app.add_handler(TypeHandler(Update, self._done), group=99)
        app.add_error_handler(self.on_error)

    async def startup(self, app: Application) -> None:
        """After `initialize`: the bot's profile (menus, descriptions, menu button: profile.py),
        the tables behind their messages shown again, the clock started."""
        self.ctx.bot_username = app.bot.username or self.ctx.bot_username
        await self.profile.apply(app.bot, self.links.menu_url(), self.config.default_lang, self.service.clock.now())
        restored = [o for o in await self.service.resume_all() if o.table.platform == PLATFORM]
        await self.store.prune_updates(RESTORING, self.service.clock.now() - RUNNING_LEASE_S)
        self.restored.start(restored, self._restore)
        await self.store.prune_updates(PLATFORM, self.service.clock.now() - UPDATE_MEMORY_S)
        # Whatever was being handled before this start (this second included: a clock that has not
        # moved) was a dead process's: Telegram sends it again.
        await self.store.prune_updates(RUNNING, self.service.clock.now() + 1.0)
        if self.config.run_scheduler:
            self.scheduler.start()
        self.started = True

    async def _restore(self, outcome: Outcome) -> None:
        """A table resumed at start shown again where its messages are behind it, and only there: a
        restart with every message current costs no Bot API call. What goes out is paced to
        `restore_calls_per_s`, so a start with many tables behind leaves the rest of the overall
        budget to the moves made meanwhile."""
        rec = outcome.table
        slots = await self.delivery.behind(rec)
        if not slots or not await self.store.claim_update(RESTORING, f"{rec.id}@{rec.version}",
                                                          self.service.clock.now()):
            return
        await self.delivery.render_restored(outcome, slots)
        if self.config.restore_calls_per_s > 0:
            await self.outbox.sleep(len(slots) / self.config.restore_calls_per_s)

    def ready(self) -> bool:
        """Taking updates (the web server's /readyz): started, and not on the way down."""
        return self.started

    def leaving(self) -> None:
        """Shutting down: no group window or RetryAfter is waited out any more (a command's reply
        that would have to wait is given up; the restored render shows the tables at the next start)."""
        self.started = False
        self.outbox.stop_waiting()

    async def shutdown(self, grace_s: float | None = None) -> None:
        """The clock stopped (a tick under way may finish), then the queued messages sent: all of
        them, or with `grace_s` what goes out by then (a group's window is not waited out: the
        restored render shows its tables again at the next start)."""
        await self.scheduler.stop(grace_s or 0.0)
        await self.restored.stop()
        await self.outbox.close(grace_s)

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
                await self.replies.answer(update.callback_query, t("tg.error", self.config.default_lang))
            await self._mark_processed(update)

    async def _store_lost(self, update: Update, err: BaseException) -> None:
        """Nothing of the update was done, the store being out of reach: the player is told so, as
        the service's own StoreUnavailable is told, and sends it again in a moment."""
        log.warning("update %s not handled, the store is unreachable: %s", update.update_id, err)
        user = update.effective_user
        lang = (self.chats.norm_lang(user.language_code) if user else None) or self.config.default_lang
        if update.callback_query is not None:
            await self.replies.answer(update.callback_query, t("error.E_STORE_UNAVAILABLE", lang))
        elif update.effective_message is not None:
            await self.replies.reply(update, html.escape(t("error.E_STORE_UNAVAILABLE", lang)))
        await self._mark_processed(update)


__all__ = ["PLATFORM", "TelegramBot", "TelegramConfig", "obey_retry_after", "player_of"]
