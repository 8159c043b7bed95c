"""Localised command names and descriptions through discord.py's translator (catalog keys `dc.cmd.*`)."""

from __future__ import annotations

from functools import cache

import discord
from discord import app_commands

from bot.core.i18n import has, resolve_language, t


@cache
def lang_of(locale: discord.Locale | str | None) -> str | None:
    """Our language for a Discord locale (`ru` → ru, `en-US` → en, `pt-BR` → pt_BR, `es-419` → es),
    None when we have none for it. Cached: asked on every interaction, and Discord has 34 locales."""
    if locale is None:
        return None
    return resolve_language(str(locale.value if isinstance(locale, discord.Locale) else locale))


def ls(message: str, key: str) -> app_commands.locale_str:
    """A command string with the catalog key that translates it."""
    return app_commands.locale_str(message, key=key)


class CatalogTranslator(app_commands.Translator):
    """Discord asks for every locale at sync; we answer for the catalogs we have and leave the rest
    to the English defaults written in the code."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContextTypes) -> str | None:
        lang = lang_of(locale)
        key = string.extras.get("key")
        if lang is None or lang == "en" or not key or not has(key, lang):
            return None
        return t(key, lang)
