"""Discord adapter (discord.py 2): slash commands, persistent codec buttons, ephemeral hands."""

from bot.discord.bot import PLATFORM, DiscordBot, DiscordConfig, build_client, player_of

__all__ = ["PLATFORM", "DiscordBot", "DiscordConfig", "build_client", "player_of"]
