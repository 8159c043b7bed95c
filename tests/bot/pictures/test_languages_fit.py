"""Pictures laid out without overflow in every language (issue 30): every game's table (in play and
ended) and every seat's hand, over seeded positions from the deal to late in the match, rendered in
each catalog language; no text runs past the canvas or out of its meld's box, no box or piece past
the canvas (`Sheet.overflows`, measured by the glyphs' ink). The widest text per language is printed
(`pytest -s`)."""

from __future__ import annotations

from functools import cache

import pytest

from bot.core.i18n import available_languages
from bot.core.pictures import layout
from bot.core.pictures.pieces import font
from bot.core.pictures.sheet import Box, Sheet, Text
from rules import State, engine_names, get_engine
from tests.bot.pictures.positions import record
from tests.bot.pictures.test_legible import positions

SEEDS = range(2)


@cache
def states(game: str) -> tuple[State, ...]:
    """The seeded positions, played once per game and drawn in every language."""
    engine = get_engine(game)
    return tuple(state for seed in SEEDS for state in positions(engine, min(4, engine.max_seats), seed))


def sheets(game: str, lang: str) -> list[tuple[str, Sheet]]:
    engine = get_engine(game)
    seats = min(4, engine.max_seats)
    out = []
    for state in states(game):
        rec = record(game, state)
        out.append(("table", layout(rec, engine.view(state, None), None, lang)))
        ended = record(game, state)
        ended.status = "finished"
        out.append(("ended table", layout(ended, engine.view(state, None), None, lang)))
        out += [("hand", layout(rec, engine.view(state, seat), seat, lang, by_number=seat % 2 == 1))
                for seat in range(seats)]
    return out


def test_overflows_finds_a_text_past_the_canvas_and_out_of_its_box() -> None:
    sheet = Sheet()
    sheet.text("fits")
    assert sheet.overflows() == []
    sheet.texts.append(Text(300, 10, "a sentence far too long for the rest of the line"))
    sheet.boxes.append(Box(10, 40, 60, 40, "plain"))
    sheet.texts.append(Text(16, 44, "a caption wider than its box"))
    sheet.y = 100
    found = sheet.overflows()
    assert len(found) == 2 and "past the canvas" in found[0] and "past its box" in found[1], found


@pytest.mark.parametrize("lang", available_languages())
@pytest.mark.parametrize("game", engine_names())
def test_every_picture_fits_in_every_language(game: str, lang: str) -> None:
    widest = 0.0
    for kind, sheet in sheets(game, lang):
        assert sheet.overflows() == [], f"{game} {kind} in {lang}"
        assert sheet.right <= sheet.width, f"{game} {kind} in {lang}: drawn past the canvas"
        widest = max([widest, *(t.x + font(t.size, t.bold).getlength(t.text) for t in sheet.texts)])
    print(f"{game:15} {lang:5} widest text ends at {widest:.0f} of {Sheet().width} px")
