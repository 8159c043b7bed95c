"""Each chat's settings (`/lang`, `/look`, whether the bot can write to a user, the seats stood in
for), read once from the store and kept, and the languages they decide."""

from __future__ import annotations

from typing import Any

from telegram import User

from bot.core.i18n import resolve_language
from bot.telegram.common import PLATFORM
from storage import Store


class ChatSettings:
    def __init__(self, store: Store, default_lang: str) -> None:
        self.store = store
        self.default_lang = default_lang
        self._settings: dict[str, dict[str, Any]] = {}

    async def get(self, chat_id: int | str) -> dict[str, Any]:
        key = str(chat_id)
        if key not in self._settings:
            self._settings[key] = await self.store.chat_settings(PLATFORM, key)
        return self._settings[key]

    async def update(self, chat_id: int | str, **changes: Any) -> None:
        settings = dict(await self.get(chat_id))
        if all(settings.get(k) == v for k, v in changes.items()):
            return
        settings.update(changes)
        self._settings[str(chat_id)] = settings
        await self.store.set_chat_settings(PLATFORM, str(chat_id), settings)

    @staticmethod
    def norm_lang(code: str | None) -> str | None:
        """Our language for a Telegram `language_code` (an IETF tag: `ru`, `pt-br`, `es-419`)."""
        return resolve_language(code)

    async def chat_lang(self, chat_id: int | str, user: User | None = None) -> str:
        """The chat's /lang setting, else the user's Telegram language (or the one remembered for a
        DM), else the default."""
        settings = await self.get(chat_id)
        lang = settings.get("lang") or (self.norm_lang(user.language_code) if user else None)
        return lang or settings.get("user_lang") or self.default_lang

    async def player_lang(self, user_id: int | str, chat_id: int | str) -> str:
        """The language of what only a player sees (their hand, their notices): the /lang they set in
        their DM with the bot, else their Telegram language, else the group's /lang, else the default."""
        own = await self.get(user_id)
        lang = own.get("lang") or own.get("user_lang")
        return lang or (await self.get(chat_id)).get("lang") or self.default_lang

    async def seen_user(self, user: User, private: bool) -> None:
        changes: dict[str, Any] = {}
        lang = self.norm_lang(user.language_code)
        if lang:
            changes["user_lang"] = lang
        if private:
            changes["dm"] = True
        if changes:
            await self.update(user.id, **changes)

    async def dm_ok(self, user_id: int | str) -> bool:
        return bool((await self.get(user_id)).get("dm"))


__all__ = ["ChatSettings"]
