"""Building and running the Telegram application (python-telegram-bot 22, asyncio)."""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager, AsyncExitStack
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING
from urllib.parse import urlparse

from telegram import Bot, LinkPreviewOptions, Update
from telegram.constants import ParseMode
from telegram.ext import AIORateLimiter, Application, ApplicationBuilder, Defaults

from bot.core.ai_pool import AiPool
from bot.core.service import TableService
from bot.settings import Settings
from bot.startup import StartupError
from bot.telegram.bot import TelegramBot, TelegramConfig
from bot.telegram.processing import PerChatUpdateProcessor
from storage import Store

if TYPE_CHECKING:
    from bot.web.server import WebServer

log = logging.getLogger(__name__)
# Only what the handlers read: commands and DM text (message), buttons (callback_query).
# Edits are not subscribed: an edited command or move is not a new one (and would only replay the
# first outcome through its idempotency key); member changes and the rest are not used.
ALLOWED_UPDATES = [Update.MESSAGE, Update.CALLBACK_QUERY]
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
    web: Callable[[], AbstractAsyncContextManager[WebServer]] | None = None,
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

    `web` starts the web table (bot/web/server.serve) inside the application's event loop, before the
    tables are restored (so their hands carry the "Open table" button), and stops it at shutdown."""
    config = replace(config or TelegramConfig(), group_limit=int(group_max_rate) if rate_limit else 0,
                     group_period_s=group_time_period)
    tg = TelegramBot(service, store, config, sleep)
    defaults = Defaults(parse_mode=ParseMode.HTML, link_preview_options=LinkPreviewOptions(is_disabled=True))
    # Pool: the connections running updates and outbox workers share (getUpdates has its own).
    builder = ApplicationBuilder().token(token).defaults(defaults).connection_pool_size(64)
    builder = builder.concurrent_updates(PerChatUpdateProcessor() if concurrent else False)
    if base_url:
        builder = builder.base_url(base_url)
    if rate_limit:
        quiet_handled_retry_after()
        builder = builder.rate_limiter(AIORateLimiter(overall_max_rate=overall_max_rate, group_max_rate=0,
                                                      max_retries=0))

    web_stack = AsyncExitStack()

    async def post_init(app: Application) -> None:
        await store.open()  # idempotent: run_polling/run_webhook own the event loop, so open it here
        if web is not None:
            tg.web = await web_stack.enter_async_context(web())
        await tg.startup(app)

    async def post_stop(app: Application) -> None:
        await tg.shutdown()

    async def post_shutdown(app: Application) -> None:
        # Again (it is idempotent): post_stop runs only after a start, and when run_webhook fails
        # before one (setWebhook refused) the scheduler post_init started would be left pending.
        await tg.shutdown()
        tg.web = None
        await web_stack.aclose()
        await service.close()  # the AI moves in flight stored, the AI workers stopped
        await store.close()

    app = builder.post_init(post_init).post_stop(post_stop).post_shutdown(post_shutdown).build()
    tg.install(app)
    return app, tg


def run_polling(app: Application) -> None:
    app.run_polling(allowed_updates=ALLOWED_UPDATES)


def run_webhook(app: Application, url: str, listen: str, port: int, secret: str | None) -> None:
    """Serve the webhook on the same path as the public URL (a proxy in front forwards to it)."""
    path = urlparse(url).path.strip("/")
    app.run_webhook(listen=listen, port=port, url_path=path, webhook_url=url, secret_token=secret,
                    allowed_updates=ALLOWED_UPDATES)


async def check_bot_api(token: str, base_url: str | None) -> None:
    """getMe once, before the Application exists. Inside run_polling/run_webhook, PTB's bootstrap
    loop logs a rejected token or an unreachable server at ERROR with a traceback (the token in
    it) before re-raising; here the same InvalidToken / NetworkError comes out alone, for
    bot/startup.py to put into one line."""
    bot = Bot(token, base_url=base_url) if base_url else Bot(token)
    async with bot:  # initialize() is the getMe
        pass


class BootstrapFailureFilter(logging.Filter):
    """PTB logs a failed start-up step (a setWebhook Telegram refuses, say) at ERROR with its
    traceback, then raises the same exception out of run_polling/run_webhook, where bot/startup.py
    puts it into one line. Below DEBUG the record would only repeat that line with a traceback, so
    it is dropped. Only bootstrap steps: a failure of the running polling loop is logged as ever."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.levelno >= logging.ERROR and record.getMessage().startswith("Network Retry Loop (Bootstrap")
                    and logging.getLogger().getEffectiveLevel() > logging.DEBUG)


def check_webhook_port(listen: str, port: int) -> None:
    """Bind the webhook's address once before starting: failing inside run_webhook, after post_init
    has started the scheduler, leaves a traceback and a pending task behind. SO_REUSEADDR as the
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
    asyncio.run(check_bot_api(settings.telegram_token.get_secret_value(), settings.telegram_api_url))
    logging.getLogger("telegram.ext").addFilter(BootstrapFailureFilter())
    service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                           claim_lease_s=settings.claim_lease_s)
    web: Callable[[], AbstractAsyncContextManager[WebServer]] | None = None
    if settings.web_port:  # the web table in this process, on the same service (issue 18)
        from bot.web.server import serve  # aiohttp's server loads only when asked for

        web = partial(serve, service, store, settings)

    app, _ = build_application(
        settings.telegram_token.get_secret_value(), service, store, config=config_from(settings),
        base_url=settings.telegram_api_url, rate_limit=settings.telegram_rate_limit,
        overall_max_rate=settings.telegram_overall_max_per_s, group_max_rate=settings.telegram_group_max_per_min,
        web=web)
    if settings.telegram_mode == "webhook":
        assert settings.telegram_webhook_url is not None
        secret = settings.telegram_webhook_secret.get_secret_value() if settings.telegram_webhook_secret else None
        run_webhook(app, settings.telegram_webhook_url, settings.telegram_webhook_listen,
                    settings.telegram_webhook_port, secret)
    else:
        run_polling(app)
    return 0
