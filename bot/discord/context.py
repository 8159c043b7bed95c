"""What every part of the Discord adapter shares, handed to each part's constructor: the settings,
the service and store, the presenter and the hand screens, the channel's delivery, the client once
attached, the web table while it runs, and the recent failures. Built once by DiscordBot (bot.py);
the parts hold no reference to the bot itself."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import discord

from bot.core.presenter import HandUIs, Presenter
from bot.core.service import TableService
from bot.discord.common import PLATFORM
from bot.discord.delivery import Delivery
from storage import ClaimScope, Store

if TYPE_CHECKING:
    from bot.web.server import WebServer  # aiohttp's server loads only when the web table is on


@dataclass
class DiscordConfig:
    default_lang: str = "en"
    tick_interval_s: float = 1.0
    run_scheduler: bool = True
    ack_after_s: float = 2.0  # Discord wants an answer within 3 s: defer when the work is not done by then
    sync_commands: bool = True
    sharded: bool = False
    guild_ready_timeout: float = 2.0
    # DISCORD_SHARD_COUNT / DISCORD_SHARD_IDS: this process runs these gateway shards of that many
    # (an AutoShardedClient), and only their guilds' tables.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None

    def claims(self) -> ClaimScope:
        """The tables whose clock this process runs: Discord's, of its shards' guilds."""
        if self.shard_count is None or self.shard_ids is None:
            return ClaimScope(platforms=(PLATFORM,))
        return ClaimScope(platforms=(PLATFORM,), shards=(self.shard_count, self.shard_ids))


@dataclass
class DcContext:
    service: TableService
    store: Store
    config: DiscordConfig
    uis: HandUIs
    presenter: Presenter
    delivery: Delivery
    client: discord.Client | None = None  # set by DiscordBot.attach
    web: WebServer | None = None  # the web table (WEB_PORT), set by bot/running.py while it runs
    # Recent handler failures, for tests and logs.
    errors: deque[BaseException] = field(default_factory=lambda: deque(maxlen=100))


__all__ = ["DcContext", "DiscordConfig"]
