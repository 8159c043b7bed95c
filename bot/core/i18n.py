"""The one translation layer: code holds keys, catalogs hold sentences.

Catalogs are flat JSON files (key -> template with `{param}` fields), an equivalent of gettext that
needs no compile step: `locales/<lang>/*.json`, one file for the shared texts (`core.json`) and one
per game, merged at load. A missing key falls back to English, then to the key itself, so a gap
shows up as a readable key rather than a crash; tests keep English complete and keys unique.

A sentence that counts something is a dict of plural forms instead of one string:
`{"plural": "tiles", "one": "{tiles} tile", "other": "{tiles} tiles"}` — `plural` names the param
that holds the count, the other keys are CLDR plural categories (English one/other, Russian
one/few/many/other), chosen by Babel's CLDR rules rather than hand-written endings. An exact form
`"=0"` wins over the category where a language says zero differently ("no other tile").
"""

from __future__ import annotations

import json
import string
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel.core import Locale, UnknownLocaleError

DEFAULT_LANG = "en"
PLURAL_PARAM = "plural"  # the key of a plural dict that names its count param, not a form

Template = str | dict[str, str]


def _locale_dir(lang: str) -> Traversable:
    return resources.files("bot.core").joinpath("locales", lang)


def catalog_files(lang: str) -> dict[str, dict[str, Template]]:
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
def catalog(lang: str) -> dict[str, Template]:
    merged: dict[str, Template] = {}
    for texts in catalog_files(lang).values():
        merged.update(texts)
    return merged


def available_languages() -> list[str]:
    return list(_language_dirs())


@cache
def _language_dirs() -> tuple[str, ...]:
    # Listed once: every web request checks its language here, and the walk of the package's
    # directory was a quarter of what opening an event stream cost.
    root = resources.files("bot.core").joinpath("locales")
    return tuple(sorted(p.name for p in root.iterdir() if p.is_dir()))


@cache
def _locale(lang: str) -> Locale | None:
    try:
        return Locale.parse(lang)
    except (UnknownLocaleError, ValueError):
        return None


def plural_categories(lang: str) -> frozenset[str]:
    """The CLDR plural categories a language's sentences need: its rules' tags plus `other`."""
    locale = _locale(lang) or _locale(DEFAULT_LANG)
    assert locale is not None
    return frozenset(locale.plural_form.tags) | {"other"}


def plural_category(count: float, lang: str) -> str:
    """CLDR category of a count in a language (ru: 1 one, 2 few, 5 many, 21 one; en: 1 one, else other)."""
    locale = _locale(lang) or _locale(DEFAULT_LANG)
    assert locale is not None
    return str(locale.plural_form(abs(count)))


def forms(value: Template) -> dict[str, str]:
    """The templates of a catalog value by form: `{"": text}` for a flat string, else its plural forms."""
    if isinstance(value, str):
        return {"": value}
    return {k: v for k, v in value.items() if k != PLURAL_PARAM}


def template_fields(value: Template) -> set[str]:
    """Every `{field}` any form of a catalog value uses (the count param included)."""
    fields = {name for text in forms(value).values() for _, name, _, _ in string.Formatter().parse(text) if name}
    return {f.split(".")[0].split("[")[0] for f in fields}


def choose(value: Template, lang: str, params: dict[str, Any]) -> str:
    """The template for these params: a flat string as it is, a plural dict by its count's category."""
    if isinstance(value, str):
        return value
    count = params.get(value.get(PLURAL_PARAM, ""))
    if isinstance(count, bool) or not isinstance(count, int | float):
        return value.get("other") or next(iter(forms(value).values()))
    exact = value.get(f"={count:g}")
    return exact or value.get(plural_category(count, lang)) or value["other"]


class _Lenient(dict[str, Any]):
    """Unknown `{field}`s render as themselves, so one missing param never hides the message."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def has(key: str, lang: str = DEFAULT_LANG) -> bool:
    return key in catalog(lang) or key in catalog(DEFAULT_LANG)


def t(key: str, lang: str = DEFAULT_LANG, **params: Any) -> str:
    for source in (lang, DEFAULT_LANG):
        value = catalog(source).get(key)
        if value:
            break
    else:
        return key
    return string.Formatter().vformat(choose(value, source, params), (), _Lenient(params))
