"""Russian is complete for the shared texts and Rummikub, with the same fields as English."""

from __future__ import annotations

import string

import pytest

from bot.core.i18n import catalog_files


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("name", ["core.json", "rummikub.json"])
def test_russian_matches_english(name: str) -> None:
    en, ru = catalog_files("en")[name], catalog_files("ru")[name]
    assert set(ru) == set(en)
    for key, text in en.items():
        assert fields(ru[key]) == fields(text), key
        assert ru[key].strip(), key
