"""The Discord adapter: `/rummy …` slash commands and codec buttons in, table service calls, the
presenter's updates out (see ARCHITECTURE.md, "Adapters", and issue 13's delivery policy).

One message per table in the channel (lobby, then the game: an embed plus buttons), edited in place;
hands as ephemeral answers (or by DM on request) with a Refresh button, since interaction tokens
expire after 15 minutes and another player's move cannot reach an ephemeral message; one turn ping
per table, replacing the previous one; the results of rounds and matches.

The adapter is composed of objects, each with its own state, built in DiscordBot's constructor and
handed what it uses (the shared DcContext of context.py, and the parts it calls): interactions.py
(an interaction's language, its answer within 3 s through answer.py, its refusals, the channel's
table), looks.py (pictures or text, the web table's links), render.py (the presenter's updates to
Discord, through delivery.py), lobby.py, moves.py (a move played), commands.py (`/rummy …`) and
components.py (presses, reached through views.CodecItem, the DynamicItem every component is). No
part imports this module: the slash commands are registered flatly on the parts' methods in tree.py.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.core import metrics
from bot.core.i18n import t
from bot.core.models import Outcome
from bot.core.presenter import HandUIs, Presenter
from bot.core.restored import RestoredRender
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.discord import views as ui
from bot.discord.commands import Commands
from bot.discord.common import PLATFORM, player_of
from bot.discord.components import Components
from bot.discord.context import DcContext, DiscordConfig
from bot.discord.delivery import Delivery
from bot.discord.interactions import Interactions
from bot.discord.lobby import Lobby
from bot.discord.looks import Looks
from bot.discord.moves import Moves
from bot.discord.render import Render
from bot.discord.safe import NOBODY
from bot.discord.sync import sync_if_changed
from bot.discord.translator import CatalogTranslator
from bot.discord.tree import command_group
from storage import Store

if TYPE_CHECKING:
    from bot.web.server import WebServer  # aiohttp's server loads only when the web table is on

log = logging.getLogger(__name__)


class DiscordBot:
    """The adapter put together: its parts built once here, each handed what it uses; the command
    tree of one client (its commands registered flatly in tree.py) and the press route (views.CodecItem)."""

    def __init__(self, service: TableService, store: Store, config: DiscordConfig | None = None) -> None:
        self.service = service
        self.store = store
        self.config = config or DiscordConfig()
        self.uis = HandUIs(store)
        self.delivery = Delivery(store)
        self.ctx = DcContext(service, store, self.config, self.uis, Presenter(self.uis), self.delivery)
        self.interactions = Interactions(self.ctx)
        self.looks = Looks(self.ctx)
        self.render = Render(self.ctx, self.interactions, self.looks)
        self.lobby = Lobby(self.ctx, self.interactions, self.render)
        self.moves = Moves(self.ctx, self.interactions, self.render)
        self.commands = Commands(self.ctx, self.interactions, self.looks, self.render, self.moves)
        self.components = Components(self.ctx, self.interactions, self.render, self.lobby, self.commands, self.moves)
        self.scheduler = Scheduler(service, self.config.tick_interval_s, self.render.render_outcomes)
        self.restored = RestoredRender()  # the tables a start resumed, shown again beside new interactions
        self.tree: app_commands.CommandTree[discord.Client] | None = None

    @property
    def client(self) -> discord.Client | None:
        return self.ctx.client

    @property
    def web(self) -> WebServer | None:
        """The web table (WEB_PORT), set by bot/running.py while it runs: links to it on hands and tables."""
        return self.ctx.web

    @web.setter
    def web(self, server: WebServer | None) -> None:
        self.ctx.web = server

    @property
    def errors(self) -> deque[BaseException]:
        """Recent handler failures, for tests and logs."""
        return self.ctx.errors

    @property
    def processed(self) -> deque[int]:
        """Recent interactions handled to the end (replies and edits sent)."""
        return self.interactions.processed

    async def wait_processed(self, interaction_id: int, timeout: float = 10.0) -> None:
        await self.interactions.wait_processed(interaction_id, timeout)

    def attach(self, client: discord.Client) -> None:
        self.ctx.client = client
        self.delivery.client = client
        client.rummy = self.components  # type: ignore[attr-defined]  # dynamic items find their handler through the client
        self.tree = app_commands.CommandTree(client)
        self.tree.add_command(command_group(self.commands, self.lobby))
        self.tree.error(self._on_tree_error)  # discord.py's way to set the tree's on_error
        client.add_dynamic_items(ui.CodecItem)

    def ready(self) -> bool:
        """Connected to the gateway and taking interactions (the web server's /readyz)."""
        client = self.ctx.client
        return client is not None and client.is_ready() and not client.is_closed()

    async def setup(self) -> None:
        """From the client's setup_hook: translations, command sync, restore every table, start the clock."""
        assert self.tree is not None
        await self.tree.set_translator(CatalogTranslator())
        if self.config.sync_commands:
            await sync_if_changed(self.tree, self.store)
        restored = [o for o in await self.service.resume_all() if o.table.platform == PLATFORM]
        self.restored.start(restored, self._restore)
        if self.config.run_scheduler:
            self.scheduler.start()

    async def _restore(self, outcome: Outcome) -> None:
        """A table resumed at start shown again where its messages are behind it, and only there: a
        restart with every message current costs no request."""
        behind = await self.render.behind(outcome.table)
        if behind:
            await self.render.render_restored(outcome, behind)

    async def shutdown(self, grace_s: float = 0.0) -> None:
        """The clock stopped (a tick under way may finish within `grace_s`), the restored render too."""
        await self.scheduler.stop(grace_s)
        await self.restored.stop()

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.ctx.errors.append(error)
        log.error("command failed: %s", error, exc_info=error)
        await self.interactions.refuse(interaction, t("dc.error", self.interactions.ulang(interaction)))
        await self.interactions.mark_processed(interaction)


class CountRateLimits(logging.Filter):
    """discord.py waits out a 429 itself and tells nobody but its log ("We are being rate limited"):
    each such line counts in `rummy_rate_limited` (the line itself goes on as it was)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and record.msg.startswith("We are being rate limited"):
            metrics.RATE_LIMITED.labels(PLATFORM).inc()
        return True


logging.getLogger("discord.http").addFilter(CountRateLimits())

# The gateway events the bot reads: its guilds (the channels and permissions an interaction is checked
# against). Commands and presses arrive as interactions, which need no intent; messages, members,
# reactions, presences, typing and voice are never read, so Discord is not asked to send them.
INTENTS = discord.Intents(guilds=True)


def build_client(adapter: DiscordBot, *, intents: discord.Intents | None = None) -> discord.Client:
    """A Client, or an AutoShardedClient running `shard_ids` of `shard_count` shards (DISCORD_SHARD_*:
    this process gets those shards' guilds' interactions, and claims only their tables), whose setup
    hook installs the adapter."""
    config = adapter.config
    base: type[discord.Client] = discord.AutoShardedClient if config.sharded else discord.Client
    shards: dict[str, object] = {}
    if config.sharded and config.shard_count is not None:
        shards = {"shard_count": config.shard_count,
                  "shard_ids": list(config.shard_ids) if config.shard_ids is not None else None}

    class RummyClient(base):  # type: ignore[valid-type,misc]  # a base chosen at run time (sharded or not)
        def __init__(self) -> None:
            # Nobody is pinged unless a message names its one user (bot.discord.safe.only).
            super().__init__(intents=intents or INTENTS, allowed_mentions=NOBODY,
                             guild_ready_timeout=config.guild_ready_timeout, **shards)
            self.ready_event = asyncio.Event()

        async def setup_hook(self) -> None:
            await adapter.setup()

        async def on_ready(self) -> None:
            self.ready_event.set()

        async def close(self) -> None:
            await adapter.shutdown()
            await super().close()

    client = RummyClient()
    adapter.attach(client)
    return client


__all__ = ["PLATFORM", "DiscordBot", "DiscordConfig", "build_client", "player_of"]
