"""Building and running the Discord client (discord.py 2, asyncio), alone or next to Telegram."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import discord
import yarl

from bot.core.ai_pool import AiPool
from bot.core.service import TableService
from bot.discord.bot import DiscordBot, DiscordConfig, build_client
from bot.settings import Settings
from bot.startup import PLATFORM, StartupError
from storage import Store

if TYPE_CHECKING:
    from bot.telegram.bot import TelegramBot

log = logging.getLogger(__name__)


def point_at(api_url: str | None, gateway_url: str | None) -> None:
    """Another REST base and gateway (a proxy, or the fake in tests). discord.py keeps both
    process-wide, so this is done once at start-up."""
    if api_url:
        discord.http.Route.BASE = api_url.rstrip("/")
    if gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


async def check_gateway(url: str | None, timeout_s: float = 10.0) -> None:
    """Open a TCP connection to another gateway (DISCORD_GATEWAY_URL) before the client starts.
    When the first gateway connection fails, discord.py 2.7 logs a traceback and then dies of an
    AttributeError (its websocket is still None), which says nothing about the cause."""
    if not url:
        return  # Discord's own: reachable whenever its REST API is, which the login checks first
    gateway = yarl.URL(url)
    where = f"{gateway.host}:{gateway.port}"
    try:
        _, writer = await asyncio.wait_for(asyncio.open_connection(gateway.host, gateway.port), timeout_s)
    except (OSError, TimeoutError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else type(err).__name__
        raise StartupError(f"DISCORD_GATEWAY_URL: cannot reach the Discord gateway at {where} ({reason}) — check "
                           "the network and DISCORD_GATEWAY_URL", PLATFORM) from err
    writer.close()
    await writer.wait_closed()


def config_from(settings: Settings, run_scheduler: bool = True) -> DiscordConfig:
    return DiscordConfig(default_lang=settings.default_lang, tick_interval_s=settings.tick_interval_s,
                         run_scheduler=run_scheduler, ack_after_s=settings.discord_ack_after_s,
                         sync_commands=settings.discord_sync_commands, sharded=settings.discord_sharded)


def build(settings: Settings, service: TableService, store: Store,
          run_scheduler: bool = True) -> tuple[discord.Client, DiscordBot]:
    point_at(settings.discord_api_url, settings.discord_gateway_url)
    adapter = DiscordBot(service, store, config_from(settings, run_scheduler))
    return build_client(adapter), adapter


@asynccontextmanager
async def web_table(settings: Settings, service: TableService, store: Store,
                    *adapters: DiscordBot | TelegramBot) -> AsyncIterator[None]:
    """With WEB_PORT, one web table in this process, on the same service, given to every adapter
    (issue 18): Discord's hands carry the seat's private link and its table message the spectator's,
    Telegram's hands an "Open table" Mini App button and its group message the Mini App link."""
    if not settings.web_port:
        yield
        return
    from bot.web.server import serve  # aiohttp's server loads only when asked for

    async with serve(service, store, settings) as server:
        for adapter in adapters:
            adapter.web = server
        try:
            yield
        finally:
            for adapter in adapters:
                adapter.web = None


async def run(settings: Settings, store: Store) -> int:
    """`rummyclub run` with only DISCORD_TOKEN: the client runs until interrupted."""
    assert settings.discord_token is not None
    await check_gateway(settings.discord_gateway_url)
    await store.open()
    service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                           claim_lease_s=settings.claim_lease_s)
    client, adapter = build(settings, service, store)
    try:
        async with web_table(settings, service, store, adapter), client:
            await client.start(settings.discord_token.get_secret_value())
    finally:
        await service.close()
        await store.close()
    return 0


async def run_with_telegram(settings: Settings, store: Store) -> int:
    """Both tokens: one process, one store and one table service, the Telegram updater polling
    next to the Discord gateway. One scheduler (Telegram's) ticks the clock and hands each
    adapter the outcomes of its own tables."""
    from bot.telegram.app import ALLOWED_UPDATES, build_application, check_bot_api
    from bot.telegram.app import config_from as telegram_config

    assert settings.discord_token is not None and settings.telegram_token is not None
    # A rejected token or an unreachable Bot API surfaces here, before anything needs closing.
    await check_bot_api(settings.telegram_token.get_secret_value(), settings.telegram_api_url)
    await check_gateway(settings.discord_gateway_url)
    await store.open()
    service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                           claim_lease_s=settings.claim_lease_s)
    client, dc = build(settings, service, store, run_scheduler=False)
    app, tg = build_application(
        settings.telegram_token.get_secret_value(), service, store,
        config=telegram_config(settings),
        base_url=settings.telegram_api_url, rate_limit=settings.telegram_rate_limit,
        overall_max_rate=settings.telegram_overall_max_per_s, group_max_rate=settings.telegram_group_max_per_min)
    telegram_outcomes = tg.scheduler.on_outcomes

    async def both(outcomes: list) -> None:  # type: ignore[type-arg]
        await telegram_outcomes(outcomes)
        await dc.render_outcomes(outcomes)

    tg.scheduler.on_outcomes = both
    try:
        # Inside the try: whatever fails from here on, the store is closed (its thread would
        # otherwise keep the process alive after the error is printed). The web table starts first,
        # so the hands Telegram restores at start-up carry its button too.
        async with web_table(settings, service, store, dc, tg):
            await app.initialize()
            await app.start()
            await tg.startup(app)
            assert app.updater is not None
            await app.updater.start_polling(allowed_updates=ALLOWED_UPDATES)
            async with client:
                await client.start(settings.discord_token.get_secret_value())
    finally:
        if app.updater is not None and app.updater.running:
            await app.updater.stop()
        if app.running:
            await app.stop()
        await tg.shutdown()
        await app.shutdown()
        await service.close()
        await store.close()
    return 0
