"""What every part of the Discord adapter shares: its configuration, the service, store, presenter
and delivery it talks to, languages, the answer to an interaction and its refusals, and which table
a channel holds."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from discord import app_commands

from bot.core import metrics
from bot.core.i18n import has, t
from bot.core.log_context import about_chat
from bot.core.models import Player, ServiceError
from bot.core.pictures import PictureCache
from bot.core.presenter import HandUIs, Presenter
from bot.core.presenter.games import IllegalAction
from bot.core.render import render_error
from bot.core.service import TableService
from bot.core.text import display_name
from bot.discord import answer
from bot.discord.delivery import Delivery
from bot.discord.hand_pictures import HandPictures
from bot.discord.translator import lang_of
from storage import ClaimScope, Store, TableRecord
from storage.unavailable import unavailable

if TYPE_CHECKING:
    from bot.web.server import WebServer  # aiohttp's server loads only when the web table is on

log = logging.getLogger(__name__)

PLATFORM = "discord"
T = TypeVar("T")


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


def shard_key(guild_id: int | None) -> int | None:
    """A guild's table's `shard_key`: the part of the guild id Discord shards by, as it assigns
    guilds to shards ((guild_id >> 22) % shard_count), so any shard count splits the stored tables."""
    return None if guild_id is None else guild_id >> 22


def player_of(user: discord.abc.User) -> Player:
    # Display names are free text (control and bidi characters): stored clean and short.
    return Player(PLATFORM, str(user.id), display_name(user.display_name or user.name or "", str(user.id)))


def interaction_key(interaction: discord.Interaction) -> str:
    """The idempotency key of a command or press: its interaction id, unique and never reused."""
    return f"{PLATFORM}:i:{interaction.id}"


def error_text(err: Exception, lang: str, game: str | None = None) -> str:
    """The shared sentence for an error, in Discord's words where the shared one names Telegram's
    commands (`/new`, "type help"): `dc.error.<CODE>` wins, and the parse hint points at /rummy help."""
    code = getattr(err, "code", None)
    if code and has(f"dc.error.{code}", lang):
        return t(f"dc.error.{code}", lang)
    return render_error(err, lang, game).replace(t("parse.way.help", lang), t("dc.parse_help", lang))


class AdapterBase:
    def __init__(self, service: TableService, store: Store, config: DiscordConfig | None = None) -> None:
        self.service = service
        self.store = store
        self.config = config or DiscordConfig()
        self.client: discord.Client | None = None
        self.tree: app_commands.CommandTree[Any] | None = None
        self.uis = HandUIs(store)
        self.presenter = Presenter(self.uis)
        self.delivery = Delivery(store)
        self.pictures = PictureCache()
        self.hand_pictures = HandPictures()  # what each hand message shows: an unchanged picture is kept
        self._drawing = threading.Lock()  # the cache is shared by the drawing threads, one at a time
        self._looks: dict[str, bool] = {}  # channel id -> pictures on (`/rummy look`), read once per channel
        self.web: WebServer | None = None  # the web table (WEB_PORT): links to it on hands and tables
        self._links: dict[tuple[str, int | None, str], tuple[str, float]] = {}  # -> (url, when signed)
        self.errors: deque[BaseException] = deque(maxlen=100)  # recent handler failures, for tests and logs
        self.processed: deque[int] = deque(maxlen=4096)  # recent interactions fully handled (replies and edits sent)
        self._processed_cond = asyncio.Condition()

    # ---- bookkeeping --------------------------------------------------------------------------------

    async def _mark_processed(self, interaction: discord.Interaction) -> None:
        metrics.UPDATES.labels(PLATFORM).inc()
        async with self._processed_cond:
            self.processed.append(interaction.id)
            self._processed_cond.notify_all()

    async def wait_processed(self, interaction_id: int, timeout: float = 10.0) -> None:
        async def _wait() -> None:
            async with self._processed_cond:
                await self._processed_cond.wait_for(lambda: interaction_id in self.processed)
        await asyncio.wait_for(_wait(), timeout)

    # ---- languages -----------------------------------------------------------------------------------

    def _ulang(self, interaction: discord.Interaction) -> str:
        return lang_of(interaction.locale) or self.config.default_lang

    async def _table_lang(self, rec: TableRecord) -> str:
        return (await self.delivery.refs(rec.id)).get("lang") or self.config.default_lang

    async def _user_lang(self, user_id: str) -> str | None:
        """The player's own language for their DM hands (their Discord locale at `/rummy dm on`)."""
        lang = (await self.store.chat_settings(PLATFORM, f"user:{user_id}")).get("lang")
        return lang if isinstance(lang, str) else None

    async def _dm_on(self, user_id: str) -> bool:
        return bool((await self.store.chat_settings(PLATFORM, f"user:{user_id}")).get("dm"))

    # ---- pictures ------------------------------------------------------------------------------------

    async def pictures_on(self, rec: TableRecord) -> bool:
        """`/rummy look pictures|text` of the table's channel (pictures unless set to text)."""
        if rec.chat_id not in self._looks:
            settings = await self.store.chat_settings(PLATFORM, rec.chat_id)  # the channel's settings
            self._looks[rec.chat_id] = settings.get("look", "pictures") == "pictures"
        return self._looks[rec.chat_id]

    async def set_look(self, channel_id: str, pictures: bool) -> None:
        settings = await self.store.chat_settings(PLATFORM, channel_id)
        await self.store.set_chat_settings(PLATFORM, channel_id, {**settings, "look": "pictures" if pictures else "text"})
        self._looks[channel_id] = pictures

    async def picture(self, rec: TableRecord, view: dict[str, Any] | None, viewer: int | None, lang: str,
                      by_number: bool = False) -> bytes | None:
        """The PNG of the table (`viewer` None, from the public view) or of seat `viewer`'s hand (from
        its own view), when the channel shows pictures; drawn off the event loop, once per version."""
        if view is None or rec.state is None or not await self.pictures_on(rec):
            return None

        def draw() -> bytes:
            with self._drawing:
                return self.pictures.picture(rec, view, viewer, lang, by_number)
        return await asyncio.to_thread(draw)

    # ---- the web table ---------------------------------------------------------------------------------

    def web_link(self, rec: TableRecord, seat: int | None, lang: str) -> str | None:
        """A signed link to the table in a browser: seat `seat`'s own page (only ever in that seat's
        ephemeral or DM hand) or, for None, the spectator's (the channel's table message). Re-signed
        once half its lifetime is gone, not on every edit: an unchanged table is not edited for a
        new expiry, and a link in the channel works for at least half the TTL."""
        if self.web is None:
            return None
        now = self.web.clock.now()
        key = (rec.id, seat, lang)
        signed = self._links.get(key)
        if signed is None or now - signed[1] >= self.web.link_ttl_s / 2:
            signed = self._links[key] = (self.web.url(rec.id, seat, lang), now)
        return signed[0]

    def forget_links(self, table_id: str) -> None:
        for key in [k for k in self._links if k[0] == table_id]:
            del self._links[key]

    # ---- answers -------------------------------------------------------------------------------------

    async def _within(self, interaction: discord.Interaction, work: Awaitable[T], *, update: bool) -> T:
        return await answer.within(interaction, work, self.config.ack_after_s, update=update)

    async def _refuse(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await answer.say(interaction, text)
        except discord.HTTPException:
            log.exception("could not answer an interaction")

    async def _guarded(self, interaction: discord.Interaction, work: Awaitable[None], game: str | None = None,
                       public: bool = False, direct: bool = False) -> None:
        """A slash command: deferred at entry (ephemeral unless `public`), or, when `direct`, answered
        by the work itself unless it runs past the budget; run, its errors answered."""
        about_chat(PLATFORM, interaction.channel_id)  # discord.py runs each interaction in a task of its own
        try:
            if direct:
                await self._within(interaction, work, update=False)
            else:
                await answer.ack(interaction, update=False, ephemeral=not public)
                await work
        except (ServiceError, IllegalAction) as err:
            await self._refuse(interaction, error_text(err, self._ulang(interaction), game))
        except discord.HTTPException as err:
            self.errors.append(err)
            log.exception("a command's reply failed")
        except Exception as err:
            if not unavailable(err):
                raise
            # The store out of reach outside the service (the channel's table read): nothing was done.
            log.warning("a command not handled, the store is unreachable: %s", err)
            await self._refuse(interaction, t("error.E_STORE_UNAVAILABLE", self._ulang(interaction)))
        finally:
            await self._mark_processed(interaction)

    # ---- the channel's table -------------------------------------------------------------------------

    async def _table_here(self, interaction: discord.Interaction) -> TableRecord | None:
        """The channel's active table; inside a table's thread, the table of its parent channel."""
        if interaction.channel_id is None:
            return None
        rec = await self.store.active_table_for_chat(PLATFORM, str(interaction.channel_id))
        parent = getattr(interaction.channel, "parent_id", None)
        if rec is None and parent:
            rec = await self.store.active_table_for_chat(PLATFORM, str(parent))
        return rec

    async def _need_table(self, interaction: discord.Interaction) -> TableRecord:
        rec = await self._table_here(interaction)
        if rec is None:
            raise ServiceError("E_NO_TABLE")
        return rec

    @staticmethod
    def _is_admin(interaction: discord.Interaction, rec: TableRecord) -> bool:
        perms = interaction.permissions
        return rec.host_user_id != str(interaction.user.id) and bool(perms.manage_guild or perms.administrator)
