"""Building and running the Discord client (discord.py 2, asyncio), alone or next to Telegram."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
import yarl

from bot.core.ai_pool import AiPool
from bot.core.models import Outcome
from bot.core.service import TableService
from bot.discord.bot import DiscordBot, DiscordConfig, build_client
from bot.discord.common import PLATFORM
from bot.running import close_service, web_table
from bot.settings import Settings
from bot.startup import PLATFORM as DISCORD_EXIT
from bot.startup import StartupError
from bot.stopping import Grace, StopSignal
from storage import ClaimScope, Store

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
                           "the network and DISCORD_GATEWAY_URL", DISCORD_EXIT) from err
    writer.close()
    await writer.wait_closed()


def config_from(settings: Settings, run_scheduler: bool = True) -> DiscordConfig:
    return DiscordConfig(default_lang=settings.default_lang, tick_interval_s=settings.tick_interval_s,
                         run_scheduler=run_scheduler, ack_after_s=settings.discord_ack_after_s,
                         sync_commands=settings.discord_sync_commands,
                         sharded=settings.discord_sharded or settings.discord_shard_count is not None,
                         shard_count=settings.discord_shard_count, shard_ids=settings.discord_shard_ids)


def build(settings: Settings, service: TableService, store: Store,
          run_scheduler: bool = True) -> tuple[discord.Client, DiscordBot]:
    point_at(settings.discord_api_url, settings.discord_gateway_url)
    adapter = DiscordBot(service, store, config_from(settings, run_scheduler))
    return build_client(adapter), adapter


async def _until_stopped(client: discord.Client, adapter: DiscordBot, token: str, stop: StopSignal,
                         grace: Grace) -> None:
    """The client connected until a stop signal (or until it fails: its error is raised); then its
    clock stopped within the grace and the gateway closed — no interaction taken after that."""
    async with client:
        connected = asyncio.ensure_future(client.start(token))
        try:
            await stop.until_stopped(connected)
        finally:
            await adapter.shutdown(grace.left())
            await client.close()
            if not connected.done():
                connected.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):  # its failure was raised above
                await connected


async def run(settings: Settings, store: Store) -> int:
    """`rummyclub run` with only DISCORD_TOKEN: the client runs until a stop signal (bot/stopping.py)."""
    assert settings.discord_token is not None
    await check_gateway(settings.discord_gateway_url)
    grace = Grace(settings.shutdown_grace_s)
    with StopSignal() as stop:
        await store.open()
        service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                               claim_lease_s=settings.claim_lease_s, scope=config_from(settings).claims())
        client, adapter = build(settings, service, store)
        try:
            async with web_table(settings, service, store, adapter):
                await _until_stopped(client, adapter, settings.discord_token.get_secret_value(), stop, grace)
        finally:
            await close_service(service, store, grace)
    return 0


async def run_with_telegram(settings: Settings, store: Store) -> int:
    """Both tokens: one process, one store and one table service, the Telegram updater polling
    next to the Discord gateway. One scheduler (Telegram's) ticks the clock and hands each
    adapter the outcomes of its own tables."""
    from bot.telegram.app import build_application, check_bot_api, polling, running
    from bot.telegram.app import config_from as telegram_config
    from bot.telegram.common import PLATFORM as TELEGRAM

    assert settings.discord_token is not None and settings.telegram_token is not None
    # A rejected token or an unreachable Bot API surfaces here, before anything needs closing.
    await check_bot_api(settings.telegram_token.get_secret_value(), settings.telegram_api_url)
    await check_gateway(settings.discord_gateway_url)
    grace = Grace(settings.shutdown_grace_s)
    with StopSignal() as stop:
        await store.open()
        # One clock for both platforms' tables (Discord's of this process's shards).
        scope = ClaimScope(platforms=(TELEGRAM, PLATFORM), shards=config_from(settings).claims().shards)
        service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                               claim_lease_s=settings.claim_lease_s, scope=scope)
        client, dc = build(settings, service, store, run_scheduler=False)
        app, tg = build_application(
            settings.telegram_token.get_secret_value(), service, store,
            config=telegram_config(settings),
            base_url=settings.telegram_api_url, rate_limit=settings.telegram_rate_limit,
            overall_max_rate=settings.telegram_overall_max_per_s, group_max_rate=settings.telegram_group_max_per_min)
        telegram_outcomes = tg.scheduler.on_outcomes

        async def both(outcomes: list[Outcome]) -> None:
            await telegram_outcomes(outcomes)
            await dc.render.render_outcomes(outcomes)

        tg.scheduler.on_outcomes = both
        try:
            # Inside the try: whatever fails from here on, the store is closed (its thread would
            # otherwise keep the process alive after the error is printed). The web table starts first,
            # so the hands Telegram restores at start-up carry its button too.
            async with web_table(settings, service, store, dc, tg), running(app, tg, grace, polling()):
                await _until_stopped(client, dc, settings.discord_token.get_secret_value(), stop, grace)
        finally:
            await close_service(service, store, grace)
    return 0
