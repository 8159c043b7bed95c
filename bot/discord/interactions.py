"""The life of one interaction on Discord: its language, the answer within Discord's 3 s (deferred
past the budget), its refusals, a slash command's errors, the channel's table it is about, and its
end (the interactions handled to the end, which tests wait on)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable
from typing import TypeVar

import discord

from bot.core import metrics
from bot.core.i18n import t
from bot.core.log_context import about_chat
from bot.core.models import ServiceError
from bot.core.presenter.games import IllegalAction
from bot.discord import answer
from bot.discord.common import PLATFORM, error_text
from bot.discord.context import DcContext
from bot.discord.translator import lang_of
from storage import TableRecord
from storage.unavailable import unavailable

log = logging.getLogger(__name__)

T = TypeVar("T")


class Interactions:
    def __init__(self, ctx: DcContext) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.config = ctx.config
        self.delivery = ctx.delivery
        self.processed: deque[int] = deque(maxlen=4096)  # recent interactions fully handled (replies and edits sent)
        self._processed_cond = asyncio.Condition()

    # ---- bookkeeping --------------------------------------------------------------------------------

    async def mark_processed(self, interaction: discord.Interaction) -> None:
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

    def ulang(self, interaction: discord.Interaction) -> str:
        return lang_of(interaction.locale) or self.config.default_lang

    async def table_lang(self, rec: TableRecord) -> str:
        return (await self.delivery.refs(rec.id)).get("lang") or self.config.default_lang

    async def user_lang(self, user_id: str) -> str | None:
        """The player's own language for their DM hands (their Discord locale at `/rummy dm on`)."""
        lang = (await self.store.chat_settings(PLATFORM, f"user:{user_id}")).get("lang")
        return lang if isinstance(lang, str) else None

    async def dm_on(self, user_id: str) -> bool:
        return bool((await self.store.chat_settings(PLATFORM, f"user:{user_id}")).get("dm"))

    # ---- answers -------------------------------------------------------------------------------------

    async def within(self, interaction: discord.Interaction, work: Awaitable[T], *, update: bool) -> T:
        return await answer.within(interaction, work, self.config.ack_after_s, update=update)

    async def refuse(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await answer.say(interaction, text)
        except discord.HTTPException:
            log.exception("could not answer an interaction")

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None], game: str | None = None,
                       public: bool = False, direct: bool = False) -> None:
        """A slash command: deferred at entry (ephemeral unless `public`), or, when `direct`, answered
        by the work itself unless it runs past the budget; run, its errors answered."""
        about_chat(PLATFORM, interaction.channel_id)  # discord.py runs each interaction in a task of its own
        try:
            if direct:
                await self.within(interaction, work, update=False)
            else:
                await answer.ack(interaction, update=False, ephemeral=not public)
                await work
        except (ServiceError, IllegalAction) as err:
            await self.refuse(interaction, error_text(err, self.ulang(interaction), game))
        except discord.HTTPException as err:
            self.ctx.errors.append(err)
            log.exception("a command's reply failed")
        except Exception as err:
            if not unavailable(err):
                raise
            # The store out of reach outside the service (the channel's table read): nothing was done.
            log.warning("a command not handled, the store is unreachable: %s", err)
            await self.refuse(interaction, t("error.E_STORE_UNAVAILABLE", self.ulang(interaction)))
        finally:
            await self.mark_processed(interaction)

    # ---- the channel's table -------------------------------------------------------------------------

    async def table_here(self, interaction: discord.Interaction) -> TableRecord | None:
        """The channel's active table; inside a table's thread, the table of its parent channel."""
        if interaction.channel_id is None:
            return None
        rec = await self.store.active_table_for_chat(PLATFORM, str(interaction.channel_id))
        parent = getattr(interaction.channel, "parent_id", None)
        if rec is None and parent:
            rec = await self.store.active_table_for_chat(PLATFORM, str(parent))
        return rec

    async def need_table(self, interaction: discord.Interaction) -> TableRecord:
        rec = await self.table_here(interaction)
        if rec is None:
            raise ServiceError("E_NO_TABLE")
        return rec
