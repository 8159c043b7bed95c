"""What Telegram shows of the bot before anyone writes to it: the command menus (per scope and
language), the description and short description (per language), and the menu button of private
chats (the Mini App, when the web table is served over HTTPS).

Menus per scope: a private chat gets the commands that work there (the hand, hints, away/back, the
player's language and look, their stats); a group the table commands; a group's admins those plus
the chat-wide settings (/lang, /look), which only they (or a table's host) may change.

All of it is set once per content: a start that would set what is set already makes no call (the
digest of the whole profile is claimed in the store, so of several processes one sets it).
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial

from telegram import (
    Bot,
    BotCommand,
    BotCommandScope,
    BotCommandScopeAllChatAdministrators,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    MenuButton,
    MenuButtonDefault,
    MenuButtonWebApp,
    WebAppInfo,
)
from telegram.error import TelegramError

from bot.core.i18n import DEFAULT_LANG, available_languages, t
from bot.telegram.common import PLATFORM
from storage import Store

log = logging.getLogger(__name__)
# The profile set last, by its digest (claimed like an update id: one process sets a new one).
PROFILE = f"{PLATFORM}:profile"

PRIVATE = ("help", "rules", "hand", "hint", "away", "back", "end", "lang", "look", "stats", "history",
           "leaderboard")
GROUP = ("new", "help", "rules", "hand", "away", "back", "end", "rematch", "leaderboard", "stats", "teams", "team",
         "history")
ADMINS = (*GROUP, "lang", "look")
SCOPES: tuple[tuple[BotCommandScope, tuple[str, ...]], ...] = (
    (BotCommandScopeAllPrivateChats(), PRIVATE),
    (BotCommandScopeAllGroupChats(), GROUP),
    (BotCommandScopeAllChatAdministrators(), ADMINS),
)
STATS_COMMANDS = ("leaderboard", "stats", "teams", "team", "history", "rematch")  # texts: stats.cmd.*


def languages() -> list[tuple[str, str | None]]:
    """Each catalog language and the `language_code` Telegram shows its texts for (ISO 639-1, so
    pt_BR's is `pt`); the default language's are every other language's too (no code)."""
    codes: dict[str | None, str] = {}
    for lang in available_languages():
        codes.setdefault(None if lang == DEFAULT_LANG else lang.split("_")[0], lang)
    return [(lang, code) for code, lang in codes.items()]


def command_text(command: str, lang: str) -> str:
    return t(f"stats.cmd.{command}" if command in STATS_COMMANDS else f"tg.cmd.{command}", lang)


@dataclass(frozen=True)
class Step:
    """One Bot API call of the profile, and what it sets (for the digest and the tests)."""
    method: str
    what: dict[str, object]
    call: Callable[[Bot], Awaitable[bool]]


def profile_steps(menu_url: str | None, menu_lang: str) -> list[Step]:
    steps: list[Step] = []
    for lang, code in languages():
        for scope, names in SCOPES:
            commands = [BotCommand(c, command_text(c, lang)) for c in names]
            steps.append(Step("setMyCommands", {"scope": scope.type, "lang": code,
                                                "commands": [(c.command, c.description) for c in commands]},
                              partial(Bot.set_my_commands, commands=commands, scope=scope, language_code=code)))
        description, short = t("tg.bot_description", lang), t("tg.bot_short_description", lang)
        steps.append(Step("setMyDescription", {"lang": code, "text": description},
                          partial(Bot.set_my_description, description=description, language_code=code)))
        steps.append(Step("setMyShortDescription", {"lang": code, "text": short},
                          partial(Bot.set_my_short_description, short_description=short, language_code=code)))
    if menu_url is not None:
        button: MenuButton = MenuButtonWebApp(t("tg.menu_button", menu_lang), WebAppInfo(menu_url))
        what: dict[str, object] = {"url": menu_url, "text": t("tg.menu_button", menu_lang)}
    else:  # the web table no longer served: back to Telegram's own menu (the commands)
        button, what = MenuButtonDefault(), {}
    steps.append(Step("setChatMenuButton", what, partial(Bot.set_chat_menu_button, menu_button=button)))
    return steps


def digest(bot_id: int, steps: list[Step]) -> str:
    """The profile's identity: what it sets, and for which bot (a new token on the same database
    sets it again)."""
    content = json.dumps([bot_id, *((s.method, s.what) for s in steps)], sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(content.encode()).hexdigest()


class BotProfile:
    def __init__(self, store: Store, call: Callable[[Callable[[], Awaitable[bool]]], Awaitable[bool]]) -> None:
        self.store = store
        self.call = call  # the outbox's: the overall limit and RetryAfter apply

    async def apply(self, bot: Bot, menu_url: str | None, menu_lang: str, now: float) -> int:
        """Set the profile unless this very profile was set before; returns the calls made."""
        steps = profile_steps(menu_url, menu_lang)
        if not await self.store.claim_update(PROFILE, digest(bot.id, steps), now):
            return 0
        failed = False
        for step in steps:
            try:
                await self.call(partial(step.call, bot))
            except TelegramError:
                log.exception("%s failed", step.method)
                failed = True
        if failed:  # not all of it is set: the next start tries again
            await self.store.prune_updates(PROFILE, now + 1.0)
        return len(steps)


__all__ = ["ADMINS", "GROUP", "PRIVATE", "BotProfile", "languages", "profile_steps"]
