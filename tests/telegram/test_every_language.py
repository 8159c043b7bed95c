"""A round of every game in every translated language (issue 30): the group set to the language
with /lang, both players' Telegram in it, the AI playing their seats to the end, in both looks; the fake Bot API
refuses nothing (length, caption, callback data, markup, buttons) and the group and the hands speak
the language."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from rules import engine_names, get_engine
from tests.languages import SHORT, automoves_stored, speaks, translated_languages
from tests.telegram.conftest import GROUP_ID, Harness, _harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI


def sent(h: Harness, chat_id: int) -> str:
    """Every text and caption the bot sent or edited in one chat, with its buttons' labels."""
    out = []
    for c in h.fake.calls:
        if c.chat_id == chat_id and c.status == 200:
            out += [str(c.params.get("text") or ""), str(c.params.get("caption") or "")]
            markup = c.params.get("reply_markup")
            if isinstance(markup, dict):
                out += [b.get("text", "") for row in markup.get("inline_keyboard", []) for b in row]
    return "\n".join(out)


@pytest.fixture(params=["pictures", "text"])
async def looked(request: pytest.FixtureRequest, fake: FakeTelegramBotAPI, tmp_path: Path) -> AsyncIterator[Harness]:
    """The harness in both looks: the table and hands as pictures with captions (1 024), or as texts (4 096)."""
    async for harness in _harness(fake, tmp_path, request.param):
        yield harness


@pytest.mark.parametrize("game", engine_names())
@pytest.mark.parametrize("lang", translated_languages())
async def test_a_round_in_every_language(looked: Harness, lang: str, game: str) -> None:
    h = looked
    tag = lang.replace("_", "-").lower()  # Telegram's language_code: `uk`, `pt-br`
    h.alice["language_code"] = h.bob["language_code"] = tag
    h.options = SHORT[game]
    await h.dm("/start", h.alice)
    await h.say(f"/lang {lang}", h.alice, h.group)
    await h.open_lobby(game, users=(h.bob,))
    for _ in range(max(0, get_engine(game).min_seats - 2)):
        await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "start", h.alice)
    assert (await h.table()).status == "playing"
    await h.say("/away", h.alice, h.group)
    await h.say("/away", h.bob, h.group)
    await automoves_stored(h.service, (await h.table()).id)
    await h.tg.idle()
    rec = await h.table()
    assert rec.status == "finished", (rec.log_seq, rec.state.get("round"))
    assert not h.fake.rejected, h.fake.rejected
    assert ("photo" in await h.table_message()) == ("photo" in await h.hand_message(h.bob)) == (h.look == "pictures")
    for chat in (GROUP_ID, h.alice["id"], h.bob["id"]):
        assert len(speaks(sent(h, chat), lang)) >= 3, (chat, sent(h, chat)[:800])
