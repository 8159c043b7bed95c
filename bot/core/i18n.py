"""The one translation layer: code holds keys, catalogs hold sentences.

Catalogs are flat JSON files (`locales/<lang>.json`: key -> template with `{param}` fields), an
equivalent of gettext that needs no compile step. A missing key falls back to English, then to the
key itself, so a gap shows up as a readable key rather than a crash; a test keeps English complete.
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from typing import Any

DEFAULT_LANG = "en"


@cache
def catalog(lang: str) -> dict[str, str]:
    try:
        text = resources.files("bot.core").joinpath(f"locales/{lang}.json").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return json.loads(text)


def available_languages() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files("bot.core").joinpath("locales").iterdir()
                  if p.name.endswith(".json"))


class _Lenient(dict[str, Any]):
    """Unknown `{field}`s render as themselves, so one missing param never hides the message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalog(lang) or key in catalog(DEFAULT_LANG)


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    template = catalog(lang).get(key) or catalog(DEFAULT_LANG).get(key) or key
    return string.Formatter().vformat(template, (), _Lenient(params))
