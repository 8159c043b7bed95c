"""The player's language without asking (issue 30), on Discord: a hand by DM speaks its player's
Discord language, the table the server's; regional locales map to our catalogs."""

from __future__ import annotations

import discord

from bot.discord.translator import lang_of
from tests.discord.conftest import Harness, is_hand


def test_discord_locales_map_to_our_languages() -> None:
    assert lang_of(discord.Locale.russian) == "ru"
    assert lang_of(discord.Locale.american_english) == "en" and lang_of("en-GB") == "en"
    assert lang_of(discord.Locale.japanese) is None and lang_of(None) is None


async def test_a_dm_hand_speaks_its_players_language(h: Harness) -> None:
    h.fake.locale = "ru"
    await h.slash("dm", h.bob, mode="on")  # Bob's Discord is Russian
    h.fake.locale = "en-US"
    await h.slash("dm", h.alice, mode="on")
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    hands = {}
    for r in h.fake.requests:
        if r.method == "POST" and r.path.startswith("/channels/") and int(r.path.split("/")[2]) in h.fake.dm_channels \
                and is_hand(r.json):
            hands[int(r.path.split("/")[2])] = r.json["embeds"][0]["title"]
    titles = sorted(hands.values())
    assert len(titles) == 2 and any(x.endswith("ваша рука") for x in titles), titles
    assert any("ваша" not in x for x in titles), titles  # Alice's stays English
    assert "Rummikub" in (await h.table_message())["embeds"][0]["title"]  # the table: the server's English
