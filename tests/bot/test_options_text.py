"""Options typed as text (`key=value`) store what the option buttons store, for every option of every
game and every value its spec allows; refusals are sentences naming the option and what it takes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from itertools import count
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.i18n import available_languages
from bot.core.models import ServiceError
from bot.core.options_text import option_words, options_from_text, parse_option
from bot.core.options_ui import option_choices
from bot.core.render import render_error
from bot.core.service import TableService
from rules import SetupError, engine_names, get_engine
from storage import MemoryStore
from tests.bot.conftest import ALICE
from tests.bot.options_spec import RAW_PYDANTIC, SPEC, accepted, allowed_words, refused, spellings

OPTIONS = [(game, key) for game in engine_names() for key in get_engine(game).options_model.model_fields]


@pytest.fixture
async def service() -> AsyncIterator[TableService]:
    store = MemoryStore()
    await store.open()
    ids = count()
    yield TableService(store, FakeClock(), new_table_id=lambda: f"t{next(ids)}", new_seed=lambda: 42)
    await store.close()


chats = count()


def line(key: str, text: str) -> str:
    return f'{key}="{text}"' if " " in text or not text else f"{key}={text}"


def button_values(game: str, key: str) -> list[Any]:
    """What the option buttons offer for `key` at a fresh table (bot/core/options_ui.py)."""
    engine = get_engine(game)
    return option_choices(engine.options_model, engine.options_model().model_dump(), key, engine.max_seats)


def test_the_spec_table_covers_every_option() -> None:
    assert {g: set(get_engine(g).options_model.model_fields) for g in engine_names()} == {
        g: set(keys) for g, keys in SPEC.items()
    }


@pytest.mark.parametrize(("game", "key"), OPTIONS)
async def test_text_stores_what_the_buttons_store(service: TableService, game: str, key: str) -> None:
    engine = get_engine(game)
    values = accepted(game, key) + [v for v in button_values(game, key) if v not in accepted(game, key)]
    checked = 0
    for value in values:
        by_button = await service.open_table(game, "test", f"b{next(chats)}", ALICE)
        by_button = await service.set_option(by_button.id, ALICE, key, value)
        assert by_button.options[key] == value and type(by_button.options[key]) is type(value)
        for text in spellings(value):
            typed = options_from_text(line(key, text))
            assert typed == {key: text.strip()}, text
            assert engine.options_model.parse_options(typed).model_dump() == by_button.options, (key, text)
            by_text = await service.open_table(game, "test", f"c{next(chats)}", ALICE, options=typed)
            assert by_text.options == by_button.options, (key, text)
            changed = await service.set_option(by_text.id, ALICE, key, text)  # the lobby takes text too
            assert changed.options == by_button.options, (key, text)
            checked += 1
    assert checked >= 2 * len(values)


@pytest.mark.parametrize(("game", "key"), OPTIONS)
async def test_bad_text_is_refused_with_a_sentence(service: TableService, game: str, key: str) -> None:
    for text in refused(game, key):
        with pytest.raises(ServiceError) as err:
            await service.open_table(game, "test", f"r{next(chats)}", ALICE, options=options_from_text(line(key, text)))
        assert err.value.code == "E_BAD_OPTION", text
        for lang in available_languages():
            sentence = render_error(err.value, lang)
            assert key in sentence and f"'{text.strip()}'" in sentence, (lang, sentence)
            assert not [raw for raw in RAW_PYDANTIC if raw in sentence], (lang, sentence)
            missing = [word for word in allowed_words(game, key) if word not in sentence]
            assert not missing, (lang, sentence, missing)


@pytest.mark.parametrize("game", engine_names())
async def test_unknown_option_lists_the_games_options(service: TableService, game: str) -> None:
    with pytest.raises(ServiceError) as err:
        await service.open_table(game, "test", f"u{next(chats)}", ALICE, options=options_from_text("jokerz=2"))
    for lang in available_languages():
        sentence = render_error(err.value, lang)
        assert "'jokerz'" in sentence and game in sentence, sentence
        assert all(k in sentence for k in SPEC[game]), sentence
        assert not [raw for raw in RAW_PYDANTIC if raw in sentence], sentence


async def test_the_sentences(service: TableService) -> None:
    cases = {
        ("rummy101", "match_rounds=4"): (
            "match_rounds must be one of: 1, 3, 5, 7, 9, 11 (got '4').",
            "Значение match_rounds должно быть одним из: 1, 3, 5, 7, 9, 11 (получено '4').",
        ),
        ("rummikub", "match_games=x"): (
            "match_games must be a whole number from 1 to 10 (got 'x').",
            "Значение match_games должно быть целым числом от 1 до 10 (получено 'x').",
        ),
        ("rummy500", "turn_timer_s=10"): (
            "turn_timer_s must be 0 (off) or a number of seconds from 30 to 600 (got '10').",
            "Значение turn_timer_s должно быть 0 (выкл) или числом секунд от 30 до 600 (получено '10').",
        ),
        ("three_thirteen", "ace_high=maybe"): (
            "ace_high must be on or off (true/false and yes/no work too) (got 'maybe').",
            "Значение ace_high должно быть on или off (подходят и true/false, yes/no) (получено 'maybe').",
        ),
        ("canasta", "first_dealer=5"): (
            "first_dealer must be random or a seat number from 1 to 4 (got '5').",
            "Значение first_dealer должно быть random или номером места от 1 до 4 (получено '5').",
        ),
        ("three_thirteen", "match_rounds=3"): (
            "Unknown option 'match_rounds' for three_thirteen; options are: jokers, ace_high, rounds, "
            "turn_timer_s, first_dealer, hints.",
            "В игре three_thirteen нет настройки 'match_rounds'; настройки: jokers, ace_high, rounds, "
            "turn_timer_s, first_dealer, hints.",
        ),
    }
    for (game, text), (en, ru) in cases.items():
        with pytest.raises(ServiceError) as err:
            await service.open_table(game, "test", f"s{next(chats)}", ALICE, options=options_from_text(text))
        assert (render_error(err.value, "en"), render_error(err.value, "ru")) == (en, ru)


async def test_a_seat_beyond_the_table_is_refused_at_the_start(service: TableService) -> None:
    """The model takes any seat from 1 (the seat count is not known yet); the start checks it."""
    rec = await service.open_table("rummikub", "test", "seat", ALICE, options=options_from_text("first_player=4"))
    await service.add_ai(rec.id, ALICE)
    with pytest.raises(ServiceError) as err:
        await service.start(rec.id, ALICE)
    assert render_error(err.value, "en") == "first_player must be random or a seat number from 1 to 2 (got '4')."
    assert "от 1 до 2" in render_error(err.value, "ru")


def test_values_outside_the_spec_stay_refused() -> None:
    """Reading text never widens what a model allows: typed values outside the spec fail too."""
    for game, key in OPTIONS:
        model = get_engine(game).options_model
        for text in refused(game, key):
            with pytest.raises(SetupError) as err:
                model.parse_options({key: text})
            assert err.value.code in {"choice", "range", "timer", "seat", "on_off"}, (game, key, text)
    for game, key, value in [("rummy101", "match_rounds", 2), ("three_thirteen", "jokers", 1),
                             ("canasta", "ledger_per_round", 500), ("rummikub", "jokers", 3), ("rummy500", "hand_size", 11)]:
        with pytest.raises(SetupError):
            get_engine(game).options_model.parse_options({key: value})


def test_words_and_keys() -> None:
    assert option_words('canasta match_length="3 rounds" allow_draw=on') == [
        "canasta", "match_length=3 rounds", "allow_draw=on"]
    assert option_words("match_length=“target 10000”") == ["match_length=target 10000"]  # a phone's quotes
    assert parse_option(" Match-Rounds = 3 ") == ("match_rounds", "3")
    assert options_from_text("jokers=2 jokers=4") == {"jokers": "4"}  # the last one wins, as with repeated -o
    assert options_from_text("") == {}
    for bad in ("jokers", "=2", 'match_length="3 rounds'):
        with pytest.raises(ServiceError) as err:
            options_from_text(bad)
        assert err.value.code == "E_OPTION_SYNTAX"
        assert render_error(err.value, "en").startswith("Options are written key=value")
        assert render_error(err.value, "ru").startswith("Настройки пишутся как ключ=значение")
