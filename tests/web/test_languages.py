"""The web page's language (issue 30): the link's `lang`, else the Mini App user's Telegram language
as Telegram writes it (a regional tag), else the default."""

from __future__ import annotations

from aiohttp.test_utils import make_mocked_request

from bot.web.app import _lang


def test_the_page_speaks_the_link_then_the_players_telegram_language() -> None:
    assert _lang(make_mocked_request("GET", "/t/x?lang=ru"), "en", "en") == "ru"
    assert _lang(make_mocked_request("GET", "/t/x"), "ru-RU", "en") == "ru"  # a Mini App user's language_code
    assert _lang(make_mocked_request("GET", "/t/x?lang=../../etc"), None, "ru") == "ru"  # nonsense: the default
    assert _lang(make_mocked_request("GET", "/t/x?lang=xh"), "ja", "en") == "en"
