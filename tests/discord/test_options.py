"""Table options on Discord: the host's option screen reaches every option of the game's model."""

from __future__ import annotations

import pytest

from bot.core.codec import decode
from bot.core.options_ui import option_choices
from rules import engine_names, get_engine
from tests.discord.conftest import EPHEMERAL, Harness, components


def select(message: dict, verb: str) -> dict:
    return next(c for c in components(message) if decode(c["custom_id"]).verb == verb)


async def open_options(h: Harness) -> dict:
    payload = await h.press(await h.table_message(), h.alice, "options")
    assert h.answer(payload)["flags"] & EPHEMERAL
    return h.message_of(payload)


async def set_option(h: Harness, key: str, value: object) -> None:
    rec = await h.table()
    engine = get_engine(rec.game)
    screen = await open_options(h)
    keys = list(engine.options_model.model_fields)
    picked = await h.click(select(screen, "optkey")["custom_id"], screen, h.alice, values=[str(keys.index(key))])
    assert h.callback(picked)["type"] == 6  # deferred, then the option screen edited in place
    screen = {**screen, **h.answer(picked)}
    choices = option_choices(engine.options_model, rec.options, key, engine.max_seats)
    await h.click(select(screen, "setopt")["custom_id"], screen, h.alice, values=[str(choices.index(value))])


@pytest.mark.parametrize("game", engine_names())
async def test_every_option_is_reachable_from_the_lobby(h: Harness, game: str) -> None:
    await h.open_lobby(game)
    engine = get_engine(game)
    for key in engine.options_model.model_fields:
        rec = await h.table()
        choices = option_choices(engine.options_model, rec.options, key, engine.max_seats)
        other = next((c for c in choices if c != rec.options[key]), None)
        if other is None:
            continue
        await set_option(h, key, other)
        assert (await h.table()).options[key] == other, key
    h.assert_every_interaction_answered()


async def test_only_the_host_changes_options(h: Harness) -> None:
    await h.open_lobby("rummikub", users=(h.bob,))
    refused = await h.press(await h.table_message(), h.bob, "options")
    assert "host" in h.answer(refused)["content"].lower()
    before = (await h.table()).options
    screen = await open_options(h)
    forged = await h.click(select(screen, "optkey")["custom_id"], screen, h.bob, values=["0"])
    assert h.answer(forged)["flags"] & EPHEMERAL
    assert (await h.table()).options == before
