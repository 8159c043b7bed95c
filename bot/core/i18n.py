"""The one translation layer: code holds keys, catalogs hold sentences.

Catalogs are flat JSON files (key -> template with `{param}` fields), an equivalent of gettext that
needs no compile step: `locales/<lang>/*.json`, one file for the shared texts (`core.json`) and one
per game, merged at load. A missing key falls back to English, then to the key itself, so a gap
shows up as a readable key rather than a crash; tests keep English complete and keys unique.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

DEFAULT_LANG = "en"


def _locale_dir(lang: str) -> Traversable:
    return resources.files("bot.core").joinpath("locales", lang)


def catalog_files(lang: str) -> dict[str, dict[str, str]]:
    """Each catalog file of a language by name, as written (for the uniqueness test)."""
    folder = _locale_dir(lang)
    if not folder.is_dir():
        return {}
    return {
        f.name: json.loads(f.read_text(encoding="utf-8"))
        for f in sorted(folder.iterdir(), key=lambda f: f.name)
        if f.name.endswith(".json")
    }


@cache
def catalog(lang: str) -> dict[str, str]:
    merged: dict[str, str] = {}
    for texts in catalog_files(lang).values():
        merged.update(texts)
    return merged


def available_languages() -> list[str]:
    root = resources.files("bot.core").joinpath("locales")
    return sorted(p.name for p in root.iterdir() if p.is_dir())


class _Lenient(dict[str, Any]):
    """Unknown `{field}`s render as themselves, so one missing param never hides the message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalog(lang) or key in catalog(DEFAULT_LANG)


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    template = catalog(lang).get(key) or catalog(DEFAULT_LANG).get(key) or key
    return string.Formatter().vformat(template, (), _Lenient(params))
