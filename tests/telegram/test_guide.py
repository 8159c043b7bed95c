"""The player's guide in Telegram, through the real python-telegram-bot and the fake Bot API (which
refuses a message over 4096 characters): `/rules [game]`, `/help rules`, and `rules` typed in a DM."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import pytest

from bot.core.guides import GUIDE_LANGS, guide_text
from bot.telegram.guide_html import MESSAGE_MAX, guide_messages
from rules import engine_names
from tests.bot.test_guides import command_bullets
from tests.telegram.conftest import GROUP_ID, Harness

TELEGRAM_TAGS = {"b", "code", "pre"}


def sent_to(h: Harness, chat_id: int) -> list[str]:
    return [c.params["text"] for c in h.fake.calls_to("sendMessage") if int(c.params["chat_id"]) == chat_id]


def plain(messages: list[str]) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", "\n".join(messages)))


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.bad: list[str] = []

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag not in TELEGRAM_TAGS or (self.open and self.open[-1] in ("code", "pre")):
            self.bad.append(tag)
        self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.bad.append("/" + tag)


@pytest.mark.parametrize("game", engine_names())
@pytest.mark.parametrize("lang", GUIDE_LANGS)
def test_each_message_is_balanced_telegram_html_within_the_limit(game: str, lang: str) -> None:
    messages = guide_messages(guide_text(game, lang))
    for message in messages:
        assert len(message) <= MESSAGE_MAX
        tags = _Tags()
        tags.feed(message)
        assert not tags.bad and not tags.open, (tags.bad, tags.open)
    # Nothing is lost: every word of the guide is in the messages, and every example in <code>/<pre>.
    words = lambda s: re.findall(r"[\w=:#+|]+", s.replace("**", "").replace("`", ""))  # noqa: E731
    assert words(plain(messages)) == words(re.sub(r"^#+ ", "", guide_text(game, lang), flags=re.M))
    joined = "".join(messages)
    for command in command_bullets(guide_text(game, lang)):  # every command set as code, as typed
        assert f"<code>{html.escape(command, quote=False)}</code>" in joined, command
    small = guide_messages(guide_text(game, lang), limit=1000)  # a tight limit cuts more, still balanced
    assert len(small) > len(messages) and all(len(m) <= 1000 for m in small)


async def test_rules_commands_in_a_group_and_a_dm(h: Harness) -> None:
    menus = {c.params.get("language_code"): [x["command"] for x in c.params["commands"]]
             for c in h.fake.calls_to("setMyCommands")}
    assert all("rules" in menu for menu in menus.values())

    await h.say("/rules rummy101", h.carol, h.group)
    first = sent_to(h, GROUP_ID)
    assert len(first) >= 2  # the guide is longer than one message: cut on its sections
    assert first[0].startswith("<b>Rummy 101 — a player's guide</b>")
    assert plain(first).count("A worked turn") == 1 and "take open r10 r11 r12 r13" in plain(first)

    await h.say("/rules", h.carol, h.group)  # no table here and no game named: which one?
    assert html.unescape(sent_to(h, GROUP_ID)[-1]).startswith("Which game's guide? Type rules <game>")
    await h.say("/rules poker", h.carol, h.group)
    assert "There is no game called 'poker'" in html.unescape(sent_to(h, GROUP_ID)[-1])

    await h.open_lobby("canasta")  # the chat's table decides when no game is named
    before = len(sent_to(h, GROUP_ID))
    await h.say("/help rules", h.carol, h.group)
    assert sent_to(h, GROUP_ID)[before].startswith("<b>Tile Canasta — a player's guide</b>")
    await h.say("/help", h.carol, h.group)
    assert "help rules (or rules <game>)" in html.unescape(sent_to(h, GROUP_ID)[-1])

    await h.dm("rules three_thirteen", h.bob)  # a DM needs no table for a guide
    dm = sent_to(h, h.bob["id"])
    assert dm[0].startswith("<b>Three-Thirteen — a player's guide</b>") and "discard 2C" in plain(dm)


async def test_the_guide_in_russian(h: Harness) -> None:
    await h.dm("/lang ru", h.alice)
    await h.dm("/rules rummikub", h.alice)
    messages = sent_to(h, h.alice["id"])[1:]
    assert messages and messages[0].startswith("<b>Руммикуб — руководство игрока</b>")
    assert "Разбор хода" in plain(messages)
