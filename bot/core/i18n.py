"""The one translation layer: code holds keys, gettext catalogs hold sentences.

The catalogs are gettext PO files read with Babel, so every translation tool (Weblate, Crowdin,
Pontoon, Poedit, Lokalize) opens them as they are:

- `locales/<domain>.pot` is the English catalog and the template of every language: each message's
  context (`msgctxt`) is the key the code asks for, its `msgid` the English sentence — what a
  translator's tool shows as the source. One domain holds the shared texts (`core`), one each game,
  the pictures, the statistics and the web page.
- `locales/<lang>/LC_MESSAGES/<domain>.po` is a language's translation of that template
  (`bot/core/catalogs.py` brings it up to date, checks it and reports how much is translated).

Templates keep `{param}` fields (python-brace-format). A sentence that counts something is a
plural message: the English `msgid`/`msgid_plural` are its one/other forms, a language's
`msgstr[n]` its CLDR plural categories in CLDR's order (`zero one two few many other`, the ones
the language uses — Russian one/few/many/other), chosen by Babel's CLDR rules; the PO header's
Plural-Forms is Babel's gettext form of the same rule, so tools show the forms in that order. The
template names the param that holds the count in a `count: {param}` comment. A message whose key
ends in `=N` is an exact form of the plural message before it ("no other tile" for 0), used in
place of the category's form for that count.

The PO files are read directly at start-up (once per language, lazily), not compiled to MO:
nothing can go stale between the file a translator edits and the one the bot reads, no build step
is needed before a test or a run, and the lookup needs the CLDR category and the exact forms,
which gettext's index-only API does not give. In memory a catalog is a dict key -> `Template`:
a flat string, or a plural dict `{"plural": param, "one": ..., "other": ..., "=0": ...}`.

A missing or untranslated (or fuzzy) message falls back to English, then to the key itself, so a
gap shows up as a readable key rather than a crash; `make catalogs` and the tests keep every
language complete.
"""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from babel.core import Locale, UnknownLocaleError, get_global, negotiate_locale
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

DEFAULT_LANG = "en"
SOURCE_LANG = "en"  # the language of the templates' msgids
PLURAL_PARAM = "plural"  # the key of a plural dict that names its count param, not a form
CLDR_ORDER = ("zero", "one", "two", "few", "many", "other")  # msgstr[n] order (as babel.plural.to_gettext numbers them)
COUNT_NOTE = re.compile(r"^count: \{(\w+)\}$")  # the template's comment naming a plural message's count param
EXACT_FORM = re.compile(r"^(.+)=(\d+)$")  # the key of an exact form: `<plural key>=0`

Template = str | dict[str, str]


def locales_dir() -> Traversable:
    return resources.files("bot.core").joinpath("locales")


def template_file(domain: str) -> Traversable:
    return locales_dir().joinpath(f"{domain}.pot")


def po_file(lang: str, domain: str) -> Traversable:
    return locales_dir().joinpath(lang, "LC_MESSAGES", f"{domain}.po")


@cache
def domains() -> tuple[str, ...]:
    """The catalog domains, one template each (core, the games, pictures, stats, web)."""
    return tuple(sorted(f.name.removesuffix(".pot") for f in locales_dir().iterdir() if f.name.endswith(".pot")))


def available_languages() -> list[str]:
    return list(_languages())


@cache
def _languages() -> tuple[str, ...]:
    # Listed once: every web request checks its language here, and the walk of the package's
    # directory was a quarter of what opening an event stream cost.
    found = {p.name for p in locales_dir().iterdir() if p.is_dir() and p.joinpath("LC_MESSAGES").is_dir()}
    return tuple(sorted(found | {SOURCE_LANG}))


# Listed on import: the settings check DEFAULT_LANG against it, and a process that drops its
# privileges right after its imports (tests/cli/test_startup_database.py) may no longer read the package.
_languages()


# ---- the player's language from a locale tag ------------------------------------------------------------


def resolve_language(tag: str | None, supported: Iterable[str] | None = None) -> str | None:
    """Our language for a locale tag from a platform or the environment, None when we have none.

    Telegram's `language_code` (`ru`, `pt-br`), Discord's locale (`pt-BR`, `es-419`, `en-US`) and
    POSIX's (`ru_RU.UTF-8`, `C`) all land here: Babel's negotiation picks the catalog of exactly
    that region (pt_BR) or of the language alone (es-419 → es, en-US → en); a language we have in
    one region only takes that one (pt, pt-PT → pt_BR) rather than English."""
    if not tag:
        return None
    langs = list(supported if supported is not None else _languages())
    if tag in langs:  # the common case (a web page's `lang`, a stored setting), without parsing
        return tag
    cleaned = tag.split(".")[0].split("@")[0].replace("-", "_").strip()
    if not cleaned or cleaned in ("C", "POSIX"):
        return None
    try:
        locale = Locale.parse(cleaned)
    except (UnknownLocaleError, ValueError, TypeError):
        return None
    found = negotiate_locale([str(locale)], langs, aliases={})
    if found is None:  # pt, pt-PT → pt_BR: the one catalog of that language, whatever its region
        same = [x for x in langs if x.split("_")[0] == locale.language]
        found = same[0] if len(same) == 1 else None
    return found


def environment_language(environ: Mapping[str, str]) -> str | None:
    """The terminal's language: LANGUAGE, LC_ALL, LC_MESSAGES, then LANG (POSIX's order; LANGUAGE
    may list several, the first we have wins)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        choices = value.split(":") if name == "LANGUAGE" else [value]
        for choice in choices:
            if (lang := resolve_language(choice)) is not None:
                return lang
        if value and name != "LANGUAGE":
            return None  # set, but to a language we do not speak (or C): the lower ones do not apply
    return None


# ---- plural rules ----------------------------------------------------------------------------------------


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


def plural_order(lang: str) -> tuple[str, ...]:
    """The categories of a language in msgstr[0], msgstr[1], … order."""
    needed = plural_categories(lang)
    return tuple(c for c in CLDR_ORDER if c in needed)


def plural_category(count: float, lang: str) -> str:
    """CLDR category of a count in a language (ru: 1 one, 2 few, 5 many, 21 one; en: 1 one, else other)."""
    locale = _locale(lang) or _locale(DEFAULT_LANG)
    assert locale is not None
    return str(locale.plural_form(abs(count)))


def script_of(lang: str) -> str:
    """The script a language is written in, from CLDR's likely subtags (ru → Cyrl, tr → Latn)."""
    likely = get_global("likely_subtags").get(lang.split("_")[0], "")
    parts = str(likely).split("_")
    return parts[1] if len(parts) > 1 and len(parts[1]) == 4 else "Latn"


# ---- reading the catalogs --------------------------------------------------------------------------------


def read_catalog(file: Traversable, lang: str | None = None) -> Catalog:
    """A PO or POT file as Babel reads it (obsolete entries left out)."""
    return read_po(io.BytesIO(file.read_bytes()), locale=lang, ignore_obsolete=True)


def count_param(message: Message) -> str | None:
    """The param a plural template message counts with (its `count: {param}` comment)."""
    for comment in message.auto_comments:
        if m := COUNT_NOTE.match(comment.strip()):
            return m.group(1)
    return None


def _attach_exact_forms(texts: dict[str, Template], exact: list[tuple[str, str, str]]) -> None:
    for base, number, text in exact:
        value = texts.get(base)
        if isinstance(value, dict):
            value[f"={number}"] = text


@cache
def _english(domain: str) -> dict[str, Template]:
    return english_texts(read_catalog(template_file(domain)))


def english_texts(template: Catalog) -> dict[str, Template]:
    """The English messages of a template, by key."""
    out: dict[str, Template] = {}
    exact: list[tuple[str, str, str]] = []
    for message in template:
        key = message.context
        if not message.id or key is None:
            continue
        if isinstance(message.id, tuple | list):
            out[key] = {PLURAL_PARAM: count_param(message) or "", "one": message.id[0], "other": message.id[1]}
        elif m := EXACT_FORM.match(key):
            exact.append((m.group(1), m.group(2), str(message.id)))
        else:
            out[key] = str(message.id)
    _attach_exact_forms(out, exact)
    return out


def translated_texts(po: Catalog, lang: str, english: dict[str, Template]) -> dict[str, Template]:
    """A language's translated messages of one domain: untranslated, fuzzy, short-of-forms and
    unknown ones are left out (English stands in)."""
    order = plural_order(lang)
    out: dict[str, Template] = {}
    exact: list[tuple[str, str, str]] = []
    for message in po:
        key = message.context
        if not message.id or key is None or message.fuzzy:
            continue
        if isinstance(message.string, tuple | list):
            source = english.get(key)
            strings = list(message.string)
            if isinstance(source, dict) and len(strings) == len(order) and all(strings):
                out[key] = {PLURAL_PARAM: source[PLURAL_PARAM], **dict(zip(order, strings, strict=True))}
        elif not message.string:
            continue
        elif m := EXACT_FORM.match(key):
            exact.append((m.group(1), m.group(2), str(message.string)))
        elif isinstance(english.get(key), str):
            out[key] = str(message.string)
    _attach_exact_forms(out, exact)
    return out


@cache
def _domain_texts(lang: str, domain: str) -> dict[str, Template]:
    if lang == SOURCE_LANG:
        return _english(domain)
    file = po_file(lang, domain)
    return translated_texts(read_catalog(file, lang), lang, _english(domain)) if file.is_file() else {}


def catalog_files(lang: str) -> dict[str, dict[str, Template]]:
    """A language's messages per domain (`core`, `rummikub`, …), as translated."""
    if lang != SOURCE_LANG and not locales_dir().joinpath(lang, "LC_MESSAGES").is_dir():
        return {}
    return {domain: _domain_texts(lang, domain) for domain in domains()}


@cache
def catalog(lang: str) -> dict[str, Template]:
    merged: dict[str, Template] = {}
    for texts in catalog_files(lang).values():
        merged.update(texts)
    return merged


def load_every_catalog() -> None:
    """Read every language's texts now. Each is kept for the life of the process once read; read at
    start-up, before the heap is frozen (bot/core/heap.py), they stay out of every full collection.
    Read later (Telegram's command menus read all seven at start), their ~13 000 objects made each
    full collection walk them again: 9 ms of a loop turn under 1 100 idle connections."""
    for lang in available_languages():
        catalog(lang)


# ---- rendering -------------------------------------------------------------------------------------------


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
