"""Names every part of the Discord adapter uses: the platform, its tables' shard key, a user as a
player, an interaction's idempotency key, the sentence for an error, and who may end a table."""

from __future__ import annotations

import discord

from bot.core.i18n import has, t
from bot.core.models import Player
from bot.core.render import render_error
from bot.core.text import display_name
from storage import TableRecord

PLATFORM = "discord"


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


def is_admin(interaction: discord.Interaction, rec: TableRecord) -> bool:
    """Someone other than the host with Manage Server (or Administrator): may end the table."""
    perms = interaction.permissions
    return rec.host_user_id != str(interaction.user.id) and bool(perms.manage_guild or perms.administrator)
