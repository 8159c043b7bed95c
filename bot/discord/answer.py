"""Answering an interaction within Discord's 3 s, in as few calls as the work allows.

Two ways in: `ack` acknowledges at entry (a defer, before any storage or network work) for paths
whose answer may wait on storage; `within` runs the work and answers with its result directly (one
call: the new hand *is* the answer to a move), deferring only if the work is not done in
`budget_s` counted from the interaction's arrival. Every answer goes through one lock per
interaction, so a defer fired by the budget and the answer itself never both reach Discord.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

from bot.discord.limits import fit_content
from bot.discord.safe import NOBODY

T = TypeVar("T")


def _lock(interaction: discord.Interaction) -> asyncio.Lock:
    return interaction.extras.setdefault("answer_lock", asyncio.Lock())


def arrived(interaction: discord.Interaction) -> float:
    """When the adapter first saw the interaction (loop time): the budget is counted from here."""
    return interaction.extras.setdefault("arrived", asyncio.get_running_loop().time())


async def _defer(interaction: discord.Interaction, update: bool, ephemeral: bool) -> None:
    if interaction.response.is_done():
        return
    if update:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def ack(interaction: discord.Interaction, *, update: bool, ephemeral: bool = True) -> None:
    """A component that edits its own message defers as an update (type 6, then edited through the
    token); anything answered with a new message defers "thinking" (type 5, then a follow-up)."""
    arrived(interaction)
    async with _lock(interaction):
        await _defer(interaction, update, ephemeral)


async def within(interaction: discord.Interaction, work: Awaitable[T], budget_s: float, *, update: bool) -> T:
    """Run the work (which answers through `say`/`edit_here`); if it is not done `budget_s` after
    the interaction arrived, acknowledge first, so the answer can come late but never too late."""
    left = max(0.0, budget_s - (asyncio.get_running_loop().time() - arrived(interaction)))
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=left)
    if not done:
        async with _lock(interaction):
            await _defer(interaction, update, True)
    return await task


async def say(interaction: discord.Interaction, content: str | None = None, *,
              embed: discord.Embed | None = None, view: discord.ui.View | None = None,
              file: discord.File | None = None) -> None:
    """An ephemeral answer to whoever acted (over 2000 characters Discord refuses it: cut), with
    the picture its embed shows, if any."""
    kwargs: dict[str, Any] = {"content": fit_content(content) if content else content, "ephemeral": True,
                              "allowed_mentions": NOBODY}
    if embed is not None:
        kwargs["embed"] = embed
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
        else:
            await interaction.followup.send(**kwargs)


async def edit_here(interaction: discord.Interaction, **kwargs: Any) -> None:
    """Edit the message a component sits on (type 7, or the original after a deferred update)."""
    if kwargs.get("content"):
        kwargs["content"] = fit_content(kwargs["content"])
    async with _lock(interaction):
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)


async def settle(interaction: discord.Interaction) -> None:
    """Acknowledge without a change (a press whose message is already up to date)."""
    async with _lock(interaction):
        await _defer(interaction, True, True)
