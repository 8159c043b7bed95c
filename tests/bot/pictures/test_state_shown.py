"""A table picture shows the state of the version it is drawn from (issue 26, item 1): the group's
table is edited once a turn is over, so it names no phase that the turn's first step makes stale,
and an ended table shows how it ended, never whose turn it was."""

from __future__ import annotations

from random import Random

import pytest

from bot.core.i18n import t
from bot.core.pictures import layout
from rules import engine_names, get_engine
from tests.bot.pictures.positions import MID_GAME, NAMES, mid_game, play, record

PHASES = {"canasta": ("canasta.phase.draw", "canasta.phase.play"),
          "rummy101": ("rummy101.table.phase_draw", "rummy101.table.phase_play")}


def texts(sheet) -> str:
    return "\n".join(item.text for item in sheet.texts)


@pytest.mark.parametrize("game", sorted(PHASES))
def test_the_table_names_whose_turn_and_no_phase_before_or_after_the_draw(game: str) -> None:
    engine, state, rec = mid_game(game)
    step = 0
    while engine.view(state, None)["phase"] != "draw":  # on to the start of a turn
        seat = engine.current_seat(state)
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(step)))
        step += 1
    seat = engine.current_seat(state)
    drawn, _ = engine.apply(state, seat, engine.parse("draw"))
    assert engine.current_seat(drawn) == seat
    for lang in ("en", "ru"):
        before = texts(layout(rec, engine.view(state, None), None, lang))
        after = texts(layout(record(game, drawn, version=2), engine.view(drawn, None), None, lang))
        for shown in (before, after):
            assert t("table.turn", lang, name=NAMES[seat]) in shown
            for key in PHASES[game]:
                assert t(key, lang) not in shown, (lang, key)


@pytest.mark.parametrize("game", engine_names())
def test_an_abandoned_table_says_it_was_ended_and_not_whose_turn(game: str) -> None:
    engine, state, rec = mid_game(game)
    turn = engine.current_seat(state)
    assert turn is not None
    ended = rec.model_copy(update={"status": "abandoned"})
    for lang in ("en", "ru"):
        sheet = layout(ended, engine.view(state, None), None, lang)
        assert sheet.texts[0].text == t("lobby.abandoned", lang)
        shown = texts(sheet)
        assert t("table.turn", lang, name=NAMES[turn]) not in shown
        assert "▶" not in shown
        # the same position while it is played does show the turn (the check above can fail)
        assert t("table.turn", lang, name=NAMES[turn]) in texts(layout(rec, engine.view(state, None), None, lang))


def test_a_finished_match_shows_its_winners() -> None:
    engine = get_engine("rummikub")
    seats = MID_GAME["rummikub"][0]
    state = play(engine, seats, 3, 2000)
    result = engine.result(state)
    assert result is not None and result.match_over and result.match_winners
    rec = record("rummikub", state).model_copy(update={"status": "finished"})
    sheet = layout(rec, engine.view(state, None), None, "en")
    won = ", ".join(NAMES[s] for s in result.match_winners)
    assert sheet.texts[0].text == t("pictures.match_won", "en", names=won)
    assert "▶" not in texts(sheet) and "Turn:" not in texts(sheet)
