"""Building and running the Telegram application (python-telegram-bot 22, asyncio)."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from telegram import Bot, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults

from bot import event_loop
from bot.core.ai_pool import AiPool
from bot.core.service import TableService
from bot.running import close_service, web_table
from bot.settings import Settings
from bot.startup import StartupError
from bot.stopping import Grace, StopSignal
from bot.telegram.bot import TelegramBot, TelegramConfig
from bot.telegram.common import PLATFORM
from bot.telegram.processing import PerChatUpdateProcessor
from bot.telegram.webhook import serve_webhook
from storage import ClaimScope, Store

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
# Only what the handlers read: commands, DM text and a group's migration (message), buttons
# (callback_query), the bot added to or removed from a group (my_chat_member).
# Edits are not subscribed: an edited command or move is not a new one (and would only replay the
# first outcome through its idempotency key); other members' changes and the rest are not used.
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY, Update.MY_CHAT_MEMBER]
# The clock work of Telegram's tables only: a timeout taken by a process that cannot edit a table's
# message would be played, stored and never shown (issue 27).
CLAIMS = ClaimScope(platforms=(PLATFORM,))
# The logger AIORateLimiter writes to (PTB's get_logger with class_name).
RATE_LIMITER_LOGGER = "telegram.ext.AIORateLimiter"


class RetryAfterIsHandled(logging.Filter):
    """With `max_retries=0` AIORateLimiter logs every `RetryAfter` at ERROR, traceback included,
    before raising it; the outbox then waits and retries for that chat (outbox.obey_retry_after),
    so it is an expected event, not an error: the record goes on as one INFO line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR and record.getMessage().startswith("Rate limit hit after maximum of 0"):
            record.levelno, record.levelname = logging.INFO, "INFO"
            record.msg, record.args = "Rate limit hit: the outbox waits and retries for that chat", ()
            record.exc_info = record.exc_text = None
        return True


def quiet_handled_retry_after() -> None:
    limiter_log = logging.getLogger(RATE_LIMITER_LOGGER)
    if not any(isinstance(f, RetryAfterIsHandled) for f in limiter_log.filters):
        limiter_log.addFilter(RetryAfterIsHandled())


def build_application(
    token: str,
    service: TableService,
    store: Store,
    *,
    config: TelegramConfig | None = None,
    base_url: str | None = None,
    rate_limit: bool = True,
    overall_max_rate: float = 30,
    group_max_rate: float = 20,
    group_time_period: float = 60,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    concurrent: bool = True,
) -> tuple[Application, TelegramBot]:
    """An Application with the adapter installed. `base_url` points it at another Bot API server
    (a local one, or the fake in tests).

    Updates of one chat run in order, different chats concurrently (processing.py); `concurrent=False`
    is PTB's one-at-a-time processing, kept for the bench's before/after. Every text is HTML without
    link previews (`Defaults`).

    Rates: `group_max_rate` messages in any `group_time_period` seconds per group is the outbox's own
    sliding window (window.py). AIORateLimiter keeps only the overall limit: its group limit is a
    leaky bucket that lets a full bucket through and then refills, 39-40 calls in the first 60 s
    where Telegram allows 20. Its own retries are off (max_retries=0): on a `RetryAfter` it clears
    one event that *every* request waits for, so one group told to wait would stall every chat. The
    outbox obeys `RetryAfter` per chat instead (its retries run in the caller: that chat's worker or
    that chat's update).

    `running` starts and stops it."""
    config = replace(config or TelegramConfig(), group_limit=int(group_max_rate) if rate_limit else 0,
                     group_period_s=group_time_period, restore_calls_per_s=overall_max_rate / 2 if rate_limit else 0)
    defaults = Defaults(parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True))
    # Pool: the connections running updates and outbox workers share (getUpdates has its own).
    # Any: the bot's type parameter differs with and without the rate limiter, and this builder is either.
    builder: ApplicationBuilder[Any, Any, Any, Any, Any, Any] = \
        ApplicationBuilder().token(token).defaults(defaults).connection_pool_size(64)
    builder = builder.concurrent_updates(PerChatUpdateProcessor() if concurrent else False)
    if base_url:
        builder = builder.base_url(base_url)
    if rate_limit:
        quiet_handled_retry_after()
        builder = builder.rate_limiter(AIORateLimiter(overall_max_rate=overall_max_rate, group_max_rate=0,
                                                      max_retries=0))

    app = builder.build()
    tg = TelegramBot(app.bot, service, store, config, sleep)
    tg.install(app)
    return app, tg


# Starts taking updates; returns how to stop taking them.
StartUpdates = Callable[[Application], Awaitable[Callable[[], Awaitable[object]]]]


@asynccontextmanager
async def running(app: Application, tg: TelegramBot, grace: Grace,
                  start_updates: StartUpdates | None = None) -> AsyncIterator[None]:
    """The application started (tg.startup: command menus, the tables restored, the clock) and,
    with `start_updates`, taking updates, for as long as the block runs. PTB's `run_polling` does the
    same steps, but it owns the event loop and its signal handling, and Discord may run beside it:
    here every mode goes up and down the same way (bot/stopping.py). On the way out: no more updates
    fetched, the ones fetched already handled (`Application.stop`), the clock stopped and the queued
    messages sent within what is left of `grace` (a group's window is not waited out: the restored
    render shows the tables again at the next start)."""
    await app.initialize()
    stop_updates: Callable[[], Awaitable[object]] | None = None
    try:
        try:
            # In run_polling's order: a webhook Telegram refuses fails before the application starts.
            await tg.startup(app)
            stop_updates = await start_updates(app) if start_updates is not None else None
            await app.start()
            yield
        finally:
            if stop_updates is not None:
                await stop_updates()
            tg.leaving()  # the updates fetched are handled now, without waiting out a group's window
            if app.running:
                # Handled within the grace; past it the AI moves they wait for are handed back.
                stopping = asyncio.ensure_future(app.stop())
                await asyncio.wait({stopping}, timeout=grace.left())
                if not stopping.done():
                    await tg.service.hand_back(0)
                await stopping
            await tg.shutdown(grace.left())
    finally:
        await app.shutdown()


def polling() -> StartUpdates:
    async def start(app: Application) -> Callable[[], Awaitable[object]]:
        assert app.updater is not None
        await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
        return app.updater.stop
    return start


def webhook(url: str, listen: str, port: int, secret: str | None) -> StartUpdates:
    """Serve the webhook on the same path as the public URL (a proxy in front forwards to it), on
    aiohttp (bot/telegram/webhook.py)."""
    return lambda app: serve_webhook(app, url, listen, port, secret, list(ALLOWED_UPDATES))


async def check_bot_api(token: str, base_url: str | None) -> None:
    """getMe once, before the Application exists. Inside `initialize`, PTB's bootstrap
    loop logs a rejected token or an unreachable server at ERROR with a traceback (the token in
    it) before re-raising; here the same InvalidToken / NetworkError comes out alone, for
    bot/startup.py to put into one line."""
    bot = Bot(token, base_url=base_url) if base_url else Bot(token)
    async with bot:  # initialize() is the getMe
        pass


class BootstrapFailureFilter(logging.Filter):
    """PTB logs a failed start-up step (a setWebhook Telegram refuses, say) at ERROR with its
    traceback, then raises the same exception out of `start_webhook`, where bot/startup.py
    puts it into one line. Below DEBUG the record would only repeat that line with a traceback, so
    it is dropped. Only bootstrap steps: a failure of the running polling loop is logged as ever."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno >= logging.ERROR and record.getMessage().startswith("Network Retry Loop (Bootstrap")
                    and logging.getLogger().getEffectiveLevel() > logging.DEBUG)


def check_webhook_port(listen: str, port: int) -> None:
    """Bind the webhook's address once before starting: failing inside `start_webhook`, after the
    tables were restored and the scheduler started, leaves a traceback and a pending task behind. SO_REUSEADDR as the
    webhook server itself sets it, so a port in TIME_WAIT is not taken for one in use."""
    try:
        infos = socket.getaddrinfo(listen, port, type=socket.SOCK_STREAM)
        family, _, _, _, address = infos[0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as err:
        if err.errno == errno.EADDRINUSE:
            why = f"{listen}:{port} is already in use — stop what listens there, or pick another TELEGRAM_WEBHOOK_PORT"
        elif err.errno == errno.EACCES:
            why = f"port {port} needs privileges this user lacks — use a port above 1023 behind your proxy"
        else:
            why = (f"cannot listen on {listen}:{port} ({err.strerror}) — check TELEGRAM_WEBHOOK_LISTEN, an address "
                   "of this machine")
        raise StartupError(f"TELEGRAM_WEBHOOK_PORT: {why}") from err


def config_from(settings: Settings) -> TelegramConfig:
    return TelegramConfig(default_lang=settings.default_lang, tick_interval_s=settings.tick_interval_s,
                          webapp_name=settings.telegram_webapp_name)


def run_from_settings(settings: Settings, store: Store) -> int:
    """`rummyclub run` with a Telegram token: polling by default, a webhook when configured."""
    assert settings.telegram_token is not None
    if settings.telegram_mode == "webhook" and not settings.telegram_webhook_url:
        raise StartupError("TELEGRAM_WEBHOOK_URL: TELEGRAM_MODE=webhook needs the public HTTPS URL Telegram posts "
                           "updates to — set it, or TELEGRAM_MODE=polling")
    if settings.telegram_mode == "webhook":
        check_webhook_port(settings.telegram_webhook_listen, settings.telegram_webhook_port)
    event_loop.run(check_bot_api(settings.telegram_token.get_secret_value(), settings.telegram_api_url))
    logging.getLogger("telegram.ext").addFilter(BootstrapFailureFilter())
    return event_loop.run(serve(settings, store))


async def serve(settings: Settings, store: Store) -> int:
    """The bot until a stop signal (bot/stopping.py), then down within SHUTDOWN_GRACE_S."""
    assert settings.telegram_token is not None
    if settings.telegram_mode == "webhook":
        assert settings.telegram_webhook_url is not None
        secret = settings.telegram_webhook_secret.get_secret_value() if settings.telegram_webhook_secret else None
        updates = webhook(settings.telegram_webhook_url, settings.telegram_webhook_listen,
                          settings.telegram_webhook_port, secret)
    else:
        updates = polling()
    grace = Grace(settings.shutdown_grace_s)
    with StopSignal() as stop:
        await store.open()
        service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                               claim_lease_s=settings.claim_lease_s, scope=CLAIMS)
        app, tg = build_application(
            settings.telegram_token.get_secret_value(), service, store, config=config_from(settings),
            base_url=settings.telegram_api_url, rate_limit=settings.telegram_rate_limit,
            overall_max_rate=settings.telegram_overall_max_per_s,
            group_max_rate=settings.telegram_group_max_per_min)
        try:
            # The web table starts first, so the hands restored at start carry its button; it stops
            # first too: no page takes a move while the rest goes down.
            async with web_table(settings, service, store, tg), running(app, tg, grace, updates):
                await stop.until_stopped()
        finally:
            await close_service(service, store, grace)
    return 0
