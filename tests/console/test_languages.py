"""The terminal's language (issue 30): DEFAULT_LANG when set, else the terminal's locale, else English."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from bot.cli import terminal_lang
from bot.core.i18n import available_languages, environment_language, resolve_language
from bot.settings import Settings


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LANG": "ru_RU.UTF-8"}, "ru"),
    ({"LC_ALL": "ru_RU.UTF-8", "LANG": "en_US.UTF-8"}, "ru"),  # LC_ALL overrides LANG
    ({"LC_ALL": "en_GB.UTF-8", "LANG": "ru_RU.UTF-8"}, "en"),
    ({"LANGUAGE": "xh:ru", "LANG": "en_US.UTF-8"}, "ru"),  # LANGUAGE lists preferences: the first we have
    ({"LC_ALL": "C", "LANG": "ru_RU.UTF-8"}, None),  # C: no language asked for
    ({"LANG": "ja_JP.UTF-8"}, None),
    ({}, None),
])
def test_the_terminal_locale_names_a_language(environ: dict[str, str], lang: str | None) -> None:
    assert environment_language(environ) == lang


def test_default_lang_wins_when_set_else_the_terminal_speaks_its_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DEFAULT_LANG", raising=False)
    unset = Settings(_env_file=None)  # type: ignore[call-arg]
    assert terminal_lang(unset, {"LANG": "ru_RU.UTF-8"}) == "ru"
    assert terminal_lang(unset, {"LANG": "C.UTF-8"}) == "en"
    monkeypatch.setenv("DEFAULT_LANG", "en")
    assert terminal_lang(Settings(_env_file=None), {"LANG": "ru_RU.UTF-8"}) == "en"  # type: ignore[call-arg]


def test_default_lang_takes_a_locale_tag_and_refuses_a_language_without_catalog(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEFAULT_LANG", "ru-RU")
    assert Settings(_env_file=None).default_lang == "ru"  # type: ignore[call-arg]
    monkeypatch.setenv("DEFAULT_LANG", "klingon")
    with pytest.raises(ValidationError, match="expected a language the bot speaks: " + ", ".join(available_languages())):
        Settings(_env_file=None)  # type: ignore[call-arg]


@pytest.mark.parametrize(("tag", "lang"), [
    ("pt-BR", "pt_BR"), ("pt_br", "pt_BR"), ("pt", "pt_BR"), ("pt-PT", "pt_BR"),
    ("es-419", "es"), ("es-ES", "es"), ("es", "es"), ("en-US", "en"), ("en_GB.UTF-8", "en"),
    ("uk", "uk"), ("uk-UA", "uk"), ("tr-TR", "tr"), ("de-AT", "de"),
    ("zh-CN", None), ("", None), (None, None), ("C", None), ("not a tag", None),
])
def test_regional_tags_map_to_the_supported_set(tag: str | None, lang: str | None) -> None:
    supported = ["de", "en", "es", "pt_BR", "ru", "tr", "uk"]  # the seven the issue asks for
    assert resolve_language(tag, supported) == lang
