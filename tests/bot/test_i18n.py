"""English is complete: every reason code, meld reason, help line and event has a sentence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.core.i18n import (
    PLURAL_PARAM,
    available_languages,
    catalog,
    catalog_files,
    forms,
    has,
    plural_categories,
    t,
    template_fields,
)
from rules import engine_names, get_engine

ROOT = Path(__file__).resolve().parents[2]


def codes_raised_in(package: str) -> set[str]:
    pattern = re.compile(r"""(?:IllegalAction|ServiceError)\(\s*["'](E_[A-Z_]+)["']""")
    found: set[str] = set()
    for path in (ROOT / package).rglob("*.py"):
        found.update(pattern.findall(path.read_text(encoding="utf-8")))
    return found


@pytest.mark.parametrize("lang", available_languages())
def test_every_reason_code_has_a_sentence(lang: str) -> None:
    """Each code a game raises reads in that game's words (`<game>.error.X`) or the shared ones."""
    service_codes = codes_raised_in("bot")
    assert "E_STALE" in service_codes  # the scan itself works
    missing = [c for c in service_codes if c not in catalog(lang) and f"error.{c}" not in catalog(lang)]
    for game in engine_names():
        for code in codes_raised_in(f"rules/{game}") | codes_raised_in("rules/core"):
            if f"{game}.error.{code}" not in catalog(lang) and f"error.{code}" not in catalog(lang):
                missing.append(f"{game}: {code}")
    assert not sorted(missing)


def test_every_meld_reason_has_a_sentence() -> None:
    source = (ROOT / "rules/rummikub/melds.py").read_text(encoding="utf-8")
    reasons = set(re.findall(r'InvalidMeld\("([a-z_]+)"\)', source))
    assert reasons and not sorted(r for r in reasons if not has(f"meld_reason.{r}"))


@pytest.mark.parametrize("game", engine_names())
def test_help_and_game_names(game: str) -> None:
    assert has(f"game.{game}")
    for _, key in get_engine(game).help_text():
        assert has(key), key


def test_params_fill_templates_and_missing_ones_stay_visible() -> None:
    assert t("error.E_INITIAL_TOO_LOW", value=21, required=30) == (
        "Your initial meld is worth 21; it needs at least 30: add melds to reach it, or draw."
    )
    assert "{required}" in t("error.E_INITIAL_TOO_LOW", value=21)
    assert t("no.such.key") == "no.such.key"
    assert catalog("xx") == {}
    assert t("error.E_STALE", lang="xx") == t("error.E_STALE")


def test_no_key_is_defined_in_two_catalog_files() -> None:
    for lang in available_languages():
        seen: dict[str, str] = {}
        for name, texts in catalog_files(lang).items():
            for key in texts:
                assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {name}"
                seen[key] = name


def test_other_languages_have_no_keys_english_lacks() -> None:
    english = set(catalog("en"))
    for lang in available_languages():
        assert not set(catalog(lang)) - english, lang


CLDR_CATEGORIES = {"zero", "one", "two", "few", "many", "other"}


@pytest.mark.parametrize("lang", available_languages())
def test_plural_messages_have_the_forms_cldr_needs(lang: str) -> None:
    """A counted message holds every CLDR category of its language (ru: one/few/many/other), names a
    count param its forms use, and nothing but categories and exact `=N` forms."""
    needed = plural_categories(lang)
    plurals = {k: v for k, v in catalog(lang).items() if isinstance(v, dict)}
    assert plurals  # the check itself sees the plural messages
    for key, value in plurals.items():
        shown = forms(value)
        assert needed <= set(shown), (lang, key, sorted(needed - set(shown)))
        assert all(f in CLDR_CATEGORIES or re.fullmatch(r"=\d+", f) for f in shown), (lang, key)
        assert value[PLURAL_PARAM] in template_fields(value), (lang, key)
        assert all(text.strip() for text in shown.values()), (lang, key)


def test_flat_strings_and_plural_forms_render_alike() -> None:
    assert t("table.pool_empty_one_more", "en", left=1) == "Pool empty: 1 turn left."
    assert t("table.pool_empty_one_more", "ru", left=5) == "Банк пуст: осталось 5 ходов."
    assert t("table.pool_empty_one_more", "xx", left=3) == "Pool empty: 3 turns left."  # English rules
    assert t("table.pool_empty_one_more", "en") == "Pool empty: {left} turns left."  # no count: other
    assert t("table.turn", "ru", name="Вы") == "Ход: Вы"
