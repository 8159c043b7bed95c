"""A round of every game in every translated language on Discord (issue 30): a server whose
language is the one tested, both members' Discord in it, the AI playing their seats to the end; the
fake Discord refuses nothing (content, embed and component limits) and the channel and the hands
speak the language."""

from __future__ import annotations

import discord
import pytest

from bot.discord.translator import lang_of
from rules import engine_names, get_engine
from tests.discord.conftest import Harness, components
from tests.discord.fake_wire import JSON
from tests.languages import SHORT, automoves_stored, speaks, translated_languages


def locale_of(lang: str) -> str:
    """A Discord locale that is our language (`pt_BR` → `pt-BR`, `es` → `es-ES`)."""
    return next(str(loc.value) for loc in discord.Locale if lang_of(loc) == lang)


def words(body: JSON) -> str:
    """A message's text: content, embeds (title, description, fields) and component labels."""
    out = [body.get("content") or ""]
    for e in body.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
        out += [f"{f.get('name', '')} {f.get('value', '')}" for f in e.get("fields") or []]
    out += [c.get("label") or c.get("placeholder") or "" for c in components(body)]
    return "\n".join(out)


def channel_words(h: Harness) -> str:
    return "\n".join(words(r.json) for r in h.fake.requests if isinstance(r.json, dict) and r.method in ("POST", "PATCH")
                     and r.path.startswith(f"/channels/{h.fake.channel_id}/messages"))


@pytest.mark.parametrize("look", ["pictures", "text"])
@pytest.mark.parametrize("game", engine_names())
@pytest.mark.parametrize("lang", translated_languages())
async def test_a_round_in_every_language(h: Harness, lang: str, game: str, look: str) -> None:
    """In both looks: the table as an embed with its picture, or as text (embed and content limits)."""
    h.fake.guild_locale = h.fake.locale = locale_of(lang)
    await h.slash("look", h.alice, **{"as": look})
    await h.open_lobby(game, users=(h.bob,))
    rec = await h.table()
    rec.options = {**rec.options, **SHORT[game]}
    await h.store.commit(rec, rec.version)
    for _ in range(max(0, get_engine(game).min_seats - 2)):
        await h.press(await h.table_message(), h.alice, "addai", "normal")
    await h.press(await h.table_message(), h.alice, "start")
    assert (await h.table()).status == "playing"
    hands = [words(await h.hand(user)) for user in (h.alice, h.bob)]
    await h.slash("away", h.alice)
    await h.slash("away", h.bob)
    await automoves_stored(h.service, rec.id)
    assert (await h.table()).status == "finished"
    assert not h.fake.rejected, h.fake.rejected
    assert bool(h.fake.files) == (look == "pictures")
    for text in (channel_words(h), *hands):
        assert len(speaks(text, lang)) >= 3, text[:800]
