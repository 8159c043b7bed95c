"""`/new <game> key=value …` in a Telegram group stores what the Options buttons store, and refuses
bad options with the shared sentences (en and ru), through python-telegram-bot and the fake Bot API."""

from __future__ import annotations

import html
from typing import Any

import pytest

import bot.telegram.commands as tg_commands
from rules import get_engine
from tests.bot.options_spec import RAW_PYDANTIC, REFUSALS, expected_refusal
from tests.telegram.conftest import Harness

# (game, what the host types after `/new <game>`, the values the buttons must reach)
TYPED: list[tuple[str, str, dict[str, Any]]] = [
    ("rummy101", "Match-Rounds=5 threshold_mode=Increasing joker_button=ON allow_draw=yes turn_timer_s=300 "
                 "first_player=2",
     {"match_rounds": 5, "threshold_mode": "increasing", "joker_button": "on", "allow_draw": True,
      "turn_timer_s": 300, "first_player": 2}),
    ("three_thirteen", "jokers=2 ace_high=on rounds=6", {"jokers": 2, "ace_high": True, "rounds": 6}),
    ("canasta", "match_length=“target 10000” ledger_per_round=0 first_dealer=3 allow_draw=true",
     {"match_length": "target 10000", "ledger_per_round": 0, "first_dealer": 3, "allow_draw": True}),
]


def last_reply(h: Harness) -> str:
    return h.fake.calls_to("sendMessage")[-1].params["text"]


async def options_by_buttons(h: Harness, game: str, wanted: dict[str, Any]) -> dict[str, Any]:
    """Open a lobby, set `wanted` with the ▶ buttons of the options screen, end the lobby."""
    await h.say(f"/new {game}", h.alice, h.group)
    await h.press_verb(await h.table_message(), "options", h.alice)
    keys = list(get_engine(game).options_model.model_fields)
    for key, value in wanted.items():
        for _ in range(100):
            if (await h.table()).options[key] == value:
                break
            msg = await h.table_message()
            await h.press([b for b in h.fake.buttons(msg) if b["text"] == "▶"][keys.index(key)]["callback_data"],
                          msg, h.alice)
        assert (await h.table()).options[key] == value, (key, value)
    options = (await h.table()).options
    await h.say("/end", h.alice, h.group)
    assert (await h.table()).status == "abandoned"
    return options


@pytest.mark.parametrize(("game", "typed", "wanted"), TYPED, ids=[g for g, _, _ in TYPED])
async def test_typed_options_match_the_buttons(h: Harness, game: str, typed: str, wanted: dict[str, Any],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    await h.dm("/start", h.alice)
    by_buttons = await options_by_buttons(h, game, wanted)
    read: list[list[str]] = []
    shared = tg_commands.parse_options
    monkeypatch.setattr(tg_commands, "parse_options", lambda words: read.append(list(words)) or shared(words))
    await h.say(f"/new {game} {typed}", h.alice, h.group)
    rec = await h.table()
    assert rec.status == "lobby" and rec.options == by_buttons
    assert len(read) == 1 and len(read[0]) == len(wanted)  # the words went through the shared reader


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_bad_options_are_refused_with_a_sentence(h: Harness, lang: str) -> None:
    h.alice["language_code"] = lang
    await h.dm("/start", h.alice)
    for game, line in REFUSALS:
        await h.say(f"/new {game} {line}", h.alice, h.group)
        reply = last_reply(h)
        assert reply == html.escape(expected_refusal(game, line, lang)), (game, line)
        assert not [raw for raw in RAW_PYDANTIC if raw in reply], reply
        assert await h.store.active_table_for_chat("telegram", str(h.group["id"])) is None
    await h.say("/new rummy101 match_rounds=4", h.alice, h.group)
    assert last_reply(h) == {
        "en": "match_rounds must be one of: 1, 3, 5, 7, 9, 11 (got &#x27;4&#x27;).",
        "ru": "Значение match_rounds должно быть одним из: 1, 3, 5, 7, 9, 11 (получено &#x27;4&#x27;).",
    }[lang]
