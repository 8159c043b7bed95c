"""The player's language without asking (issue 30): a chat's /lang first, else the player's own
Telegram language for what only they see, else the group's /lang; regional tags map to our catalogs."""

from __future__ import annotations

from bot.core.i18n import available_languages
from bot.telegram.profile import languages
from tests.telegram.conftest import GROUP_ID, Harness


async def test_a_hand_follows_its_player_and_the_group_when_the_player_has_no_catalog(h: Harness) -> None:
    h.bob["language_code"] = "ru-RU"  # a regional tag: Russian
    h.carol["language_code"] = "xh"  # a language with no catalog: the group's /lang, not the default
    await h.open_lobby(users=(h.bob, h.carol))
    await h.say("/lang ru", h.alice, h.group)
    await h.press_verb(await h.table_message(), "start", h.alice)
    assert "Ваша стойка" in (await h.hand_message(h.bob))["text"]
    assert "Ваша стойка" in (await h.hand_message(h.carol))["text"]
    assert "Your rack" in (await h.hand_message(h.alice))["text"]  # her Telegram is English
    await h.dm("/lang ru", h.alice)  # her own /lang, in her DM with the bot, wins over her Telegram's
    await h.dm("/hand", h.alice)
    assert "Ваша стойка" in (await h.hand_message(h.alice))["text"]


async def test_lang_takes_a_regional_tag_and_refuses_one_we_lack(h: Harness) -> None:
    await h.open_lobby()
    await h.say("/lang RU-ru", h.alice, h.group)
    assert (await h.store.chat_settings("telegram", str(GROUP_ID)))["lang"] == "ru"
    await h.say("/lang xh", h.alice, h.group)
    usage = h.fake.calls_to("sendMessage")[-1].params["text"]
    assert "/lang" in usage and all(lang in usage for lang in available_languages())
    assert (await h.store.chat_settings("telegram", str(GROUP_ID)))["lang"] == "ru"


async def test_every_language_gets_a_command_menu(h: Harness) -> None:
    menus = {c.params.get("language_code") for c in h.fake.calls_to("setMyCommands")}
    assert menus == {code for _, code in languages()}
    assert len(menus) == len(available_languages())


def test_command_menus_use_telegram_language_codes() -> None:
    assert ("en", None) in languages() and ("ru", "ru") in languages() and ("pt_BR", "pt") in languages()
    assert all(code is None or len(code) == 2 for _, code in languages())
