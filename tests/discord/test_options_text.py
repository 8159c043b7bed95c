"""`/rummy new game:<g> options:"k=v k=v"` stores what the lobby's option selects store, and refuses
bad options with the shared sentences (en and ru), through discord.py and the fake Discord."""

from __future__ import annotations

from typing import Any

import pytest

import bot.discord.lobby as dc_bot
from tests.bot.options_spec import RAW_PYDANTIC, REFUSALS, expected_refusal
from tests.discord.conftest import EPHEMERAL, Harness
from tests.discord.test_options import set_option

# (game, the options text, the values the option selects must reach)
TYPED: list[tuple[str, str, dict[str, Any]]] = [
    ("rummikub", "match_games=3 Initial-Meld-Min=25 empty_pool_end=One_More_Turn allow_draw=ON first_player=4 "
                 "turn_timer_s=90",
     {"match_games": 3, "initial_meld_min": 25, "empty_pool_end": "one_more_turn", "allow_draw": True,
      "first_player": 4, "turn_timer_s": 90}),
    ("rummy500", "jokers=0 market_leave_one=no hand_size=7 first_dealer=RANDOM target_score=1000",
     {"jokers": 0, "market_leave_one": False, "hand_size": 7, "target_score": 1000}),
    ("canasta", 'match_length="1 round" joker_button=On turn_timer_s=0',
     {"match_length": "1 round", "joker_button": "on", "turn_timer_s": 0}),
]


async def options_by_selects(h: Harness, game: str, wanted: dict[str, Any]) -> dict[str, Any]:
    """Open a lobby, set `wanted` through the option screen's two selects, cancel the lobby."""
    await h.open_lobby(game)
    for key, value in wanted.items():
        await set_option(h, key, value)
        assert (await h.table()).options[key] == value, key
    options = (await h.table()).options
    await h.slash("end", h.alice)
    assert (await h.table()).status == "abandoned"
    return options


@pytest.mark.parametrize(("game", "typed", "wanted"), TYPED, ids=[g for g, _, _ in TYPED])
async def test_typed_options_match_the_selects(h: Harness, game: str, typed: str, wanted: dict[str, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    by_selects = await options_by_selects(h, game, wanted)
    read: list[str] = []
    shared = dc_bot.options_from_text
    monkeypatch.setattr(dc_bot, "options_from_text", lambda text: read.append(text) or shared(text))
    await h.slash("new", h.alice, game=game, options=typed)
    rec = await h.store.active_table_for_chat("discord", str(h.fake.channel_id))
    assert rec is not None and rec.status == "lobby" and rec.options == by_selects
    assert read == [typed]  # the text went through the shared reader
    h.assert_every_interaction_answered()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_bad_options_are_refused_with_a_sentence(h: Harness, lang: str) -> None:
    h.fake.locale = lang
    for game, line in REFUSALS:
        payload = await h.slash("new", h.alice, game=game, options=line)
        reply = h.reply(payload)
        assert reply["flags"] & EPHEMERAL
        assert reply["content"] == expected_refusal(game, line, lang), (game, line)
        assert not [raw for raw in RAW_PYDANTIC if raw in reply["content"]], reply["content"]
        assert not await h.store.list_tables(["lobby"])
    payload = await h.slash("new", h.alice, game="three_thirteen", options="jokers=3")
    assert h.reply(payload)["content"] == {
        "en": "jokers must be one of: 0, 2, 4 (got '3').",
        "ru": "Значение jokers должно быть одним из: 0, 2, 4 (получено '3').",
    }[lang]
    h.assert_every_interaction_answered()
