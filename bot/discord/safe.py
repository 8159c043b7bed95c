"""What keeps free text (display names, echoed input) from formatting or pinging in Discord.

Names are chosen by users: `@everyone **x** <@4343>` must show as typed, bold nothing and notify
nobody. Text outside code blocks goes through `plain`; every message says whom it may ping.
"""

from __future__ import annotations

import re

import discord

# escape_mentions covers @everyone, @here and 17-20 digit ids; a raw `<@…>`, `<@&…>` or `<#…>` of any
# length still renders as a mention pill (and, in content, may ping): break it with a zero-width space.
_RAW_MENTION = re.compile(r"<([@#])")


def plain(text: str) -> str:
    """`text` shown literally in Markdown content or an embed's description: no formatting, no mention."""
    return _RAW_MENTION.sub("<\\1\u200b", discord.utils.escape_mentions(discord.utils.escape_markdown(text)))


def only(user_id: str | None) -> discord.AllowedMentions:
    """A message may ping the one user it is about (none when there is no such user)."""
    if not user_id:
        return discord.AllowedMentions.none()
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=[discord.Object(int(user_id))])


NOBODY = discord.AllowedMentions.none()
