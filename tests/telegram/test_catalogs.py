"""Russian is complete for the shared texts and Rummikub, with the same fields as English."""

from __future__ import annotations

import pytest

from bot.core.i18n import Template, catalog_files, forms, template_fields


def fields(template: Template) -> set[str]:
    return template_fields(template)  # every plural form counted


@pytest.mark.parametrize("name", ["core", "rummikub"])
def test_russian_matches_english(name: str) -> None:
    en, ru = catalog_files("en")[name], catalog_files("ru")[name]
    assert set(ru) == set(en)
    for key, text in en.items():
        assert fields(ru[key]) == fields(text), key
        assert all(text.strip() for text in forms(ru[key]).values()), key
