"""Long or hostile text from a member gets one short ephemeral reply within Discord's limits, echoing
only a cleaned excerpt; the game does not change. The fake refuses (and the harness fails on) any
message over Discord's limits, so an answer that arrived also fitted."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.discord import views as ui
from tests.discord.conftest import Harness
from tests.discord.fake_wire import EPHEMERAL, JSON, OPTION_VALUE_MAX, message_errors

BAD = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
HOSTILE = "\x1b[2J\x1b]0;pwned\x07" + "".join(map(chr, range(32))) + "\u202eevil\u2066\u200b\x9b31m"


def _texts(body: JSON) -> list[str]:
    out = [body.get("content") or ""]
    for e in body.get("embeds") or []:
        out += [e.get("title") or "", e.get("description") or ""]
    return out


async def _one_short_answer(h: Harness, payload: JSON) -> str:
    body = h.answer(payload)
    assert body.get("flags", 0) & EPHEMERAL
    assert not h.fake.rejected
    text = body.get("content") or ""
    assert text and len(text) < 400 and not BAD.search(text), ascii(text)
    return text


async def test_a_6000_character_play_gets_one_short_answer(h: Harness) -> None:
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    mover = h.user_of(rec, rec.state["turn"])
    for text in ("draw " + "now " * 1498, HOSTILE * 60, "discard " + HOSTILE, "`@everyone`" * 500):
        assert len(text) <= OPTION_VALUE_MAX
        answer = await _one_short_answer(h, await h.slash("play", mover, text=text))
        assert "could not read" in answer and "pwned" not in answer
    assert (await h.table()).log_seq == rec.log_seq


async def test_long_new_options_and_stats_arguments(h: Harness) -> None:
    for sub, options in (("new", {"game": "rummikub", "options": " ".join(f"k{i}=\x1b[1m{i}" for i in range(700))[:6000]}),
                         ("new", {"game": "rummikub", "options": HOSTILE * 90}),
                         ("stats", {"player": HOSTILE * 90}),
                         ("leaderboard", {"args": "x" * 6000}),
                         ("team", {"text": "name " + "\u202e" * 5990})):
        await _one_short_answer(h, await h.slash(sub, h.alice, **options))
    assert await h.store.active_table_for_chat("discord", str(h.fake.channel_id)) is None


async def test_a_hostile_display_name_is_shown_clean(h: Harness) -> None:
    h.bob["global_name"] = "\u202eB\x1b[5mob\u200b\x00" + "Ж" * 24
    await h.open_lobby(users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    assert not BAD.search(rec.seats[1].name) and rec.seats[1].name.startswith("Bob")
    for text in h.channel_texts():
        assert not BAD.search(text), ascii(text)


def _fits(embed: object) -> bool:
    return message_errors({"embeds": [embed.to_dict()]}) == {}  # type: ignore[attr-defined]


def _long(most: int) -> st.SearchStrategy[str]:
    """Texts of any length up to `most`: a short random piece (with "```" now and then) repeated."""
    piece = st.one_of(st.text(min_size=1, max_size=12), st.just("```\n"), st.just("\n"))
    return st.builds(lambda p, n: (p * n)[:most], piece, st.integers(min_value=0, max_value=most))


@given(_long(9000), _long(7000), _long(400))
@settings(max_examples=60, deadline=None)
def test_every_embed_fits_whatever_goes_in(body: str, extra: str, title: str) -> None:
    embed = ui.embed(title, body, extra)
    assert _fits(embed)
    desc = embed.description or ""
    assert desc.startswith("```\n") and desc.count("```") == 2  # the code block is never cut open
