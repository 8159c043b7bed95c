"""The player's guide in Discord through the real discord.py and the fake Discord, which refuses a
message over 2000 characters: `/rummy rules [game:]` and `help rules` typed in `/rummy play`."""

from __future__ import annotations

from bot.core.guides import guide_text
from tests.discord.conftest import EPHEMERAL, Harness
from tests.discord.fake_wire import CONTENT_MAX, JSON


def answers(h: Harness, payload: JSON) -> list[str]:
    """The interaction's reply and its follow-ups, in order; every one only for whoever asked."""
    cb = h.callback(payload)
    later = [r.json for r in h.fake.requests if r.method == "POST" and r.path.endswith(payload["token"])]
    out = [cb["data"], *later] if cb["type"] == 4 else later  # after a defer, the first follow-up is the reply
    assert all((d.get("flags") or 0) & EPHEMERAL for d in out)
    return [d["content"] for d in out]


def squash(text: str) -> list[str]:
    return [line for line in text.split("\n") if line.strip()]


async def test_rules_shows_the_whole_guide_in_messages_that_fit(h: Harness) -> None:
    shown = answers(h, await h.slash("rules", h.bob, game="rummy101"))
    assert len(shown) >= 3 and all(len(m) <= CONTENT_MAX for m in shown)
    assert squash("\n".join(shown)) == squash(guide_text("rummy101", "en"))  # Discord renders the Markdown
    assert shown[0].startswith("# Rummy 101 — a player's guide") and not h.bot.errors

    asked = answers(h, await h.slash("rules", h.bob))  # no table in the channel, no game named
    assert asked == ["Which game's guide? Type rules <game> with one of: "
                     "rummikub, rummy101, rummy500, canasta, three_thirteen."]

    await h.open_lobby("canasta")
    shown = answers(h, await h.slash("rules", h.bob))
    assert shown[0].startswith("# Tile Canasta — a player's guide")
    typed = answers(h, await h.slash("play", h.bob, text="help rules rummy500"))
    assert squash("\n".join(typed)) == squash(guide_text("rummy500", "en"))
    h.assert_no_hand_in_channel()


async def test_rules_in_the_players_language(h: Harness) -> None:
    h.fake.locale = "ru"
    shown = answers(h, await h.slash("rules", h.bob, game="three_thirteen"))
    assert squash("\n".join(shown)) == squash(guide_text("three_thirteen", "ru"))


def test_the_fake_refuses_what_discord_refuses() -> None:
    from tests.discord.fake_wire import message_errors

    assert message_errors({"content": "x" * CONTENT_MAX}) == {}
    assert message_errors({"content": "x" * (CONTENT_MAX + 1)})
    assert message_errors({"embeds": [{"description": "x" * 4097}]})
    assert message_errors({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]})
