"""Golden pictures: a mid-game table and hand of every game, in English and Russian, compared with
the committed PNGs in tests/golden/ by mean absolute pixel difference, so a Pillow or FreeType
update that moves anti-aliasing a little does not fail, while a changed layout or colour does.

`UPDATE_GOLDEN=1 pytest tests/bot/pictures/test_golden.py` rewrites them (look at them first)."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat

from bot.core.pictures import layout
from rules import engine_names
from tests.bot.pictures.positions import mid_game, record
from tests.rules.scenario import scenario

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "pictures"  # a few of the golden ones, shown in README
TOLERANCE = 0.6  # mean absolute difference per channel, 0..255: a turn passing to the next seat alone makes 1.2
SIZE_SLACK = 6  # pixels: another font rasteriser may measure a line a little wider


def draft_position():
    """Rummikub's hand with a draft: one valid meld (✓), one not (✗), before opening."""
    from rules import get_engine

    engine = get_engine("rummikub")
    state = scenario(players=3, racks={0: "r10 r11 r12 k9 b9 y9 r1 b1 j"}, turn=0)
    for command in ("new r10 r11 r12", "new b9 k9"):
        state, _ = engine.apply(state, 0, engine.parse(command))
    return engine, state, record("rummikub", state)


def pictures(game: str, lang: str) -> dict[str, bytes]:
    engine, state, rec = mid_game(game)
    out = {"table": layout(rec, engine.view(state, None), None, lang).png()}
    if game == "rummikub":
        engine, state, rec = draft_position()
    seat = engine.current_seat(state)
    out["hand"] = layout(rec, engine.view(state, seat), seat, lang).png()
    return out


def difference(a: Image.Image, b: Image.Image) -> float:
    w, h = min(a.width, b.width), min(a.height, b.height)
    diff = ImageChops.difference(a.convert("RGB").crop((0, 0, w, h)), b.convert("RGB").crop((0, 0, w, h)))
    return sum(ImageStat.Stat(diff).mean) / 3


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game", engine_names())
def test_pictures_match_the_golden_ones(game: str, lang: str) -> None:
    for kind, data in pictures(game, lang).items():
        path = GOLDEN / f"{game}_{kind}_{lang}.png"
        if os.environ.get("UPDATE_GOLDEN"):
            GOLDEN.mkdir(exist_ok=True)
            path.write_bytes(data)
            if (DOCS / path.name).exists():
                (DOCS / path.name).write_bytes(data)
        got, want = Image.open(io.BytesIO(data)), Image.open(path)
        assert abs(got.width - want.width) <= SIZE_SLACK and abs(got.height - want.height) <= SIZE_SLACK, path.name
        assert difference(got, want) <= TOLERANCE, path.name


def test_the_readme_pictures_are_golden_ones() -> None:
    shown = sorted(DOCS.glob("*.png"))
    assert len(shown) >= 4
    for path in shown:
        assert path.read_bytes() == (GOLDEN / path.name).read_bytes(), path.name


def test_the_comparison_sees_a_real_change() -> None:
    """The tolerance is not so loose that another position passes for the golden one."""
    engine, state, rec = mid_game("rummikub")
    golden = Image.open(GOLDEN / "rummikub_table_en.png")
    moved, _ = engine.apply(state, engine.current_seat(state), engine.parse("draw"))
    other = Image.open(io.BytesIO(layout(rec, engine.view(moved, None), None, "en").png()))
    assert difference(other, golden) > TOLERANCE or other.size != golden.size
    recoloured = ImageChops.invert(golden.convert("RGB"))
    assert difference(recoloured, golden) > TOLERANCE
