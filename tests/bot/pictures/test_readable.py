"""Every item reads without colour, every meld carries the number commands use, every character
drawn is in the shipped font — read from the layout model over seeded positions of every game."""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from PIL import Image, ImageDraw

from bot.core.i18n import available_languages
from bot.core.pictures import layout
from bot.core.pictures.pieces import SUIT_SYMBOL, font
from bot.core.render import render_table
from bot.core.render.canasta import meld_ref
from rules import engine_names, get_engine
from tests.bot.pictures.positions import MID_GAME, mid_game, play, record


def table_items(game: str, view: dict) -> list[str]:
    """What the table picture must show as pieces, straight from the view."""
    if game in ("rummikub",):
        return [c for m in view["table"] for c in m["tiles"]]
    if game == "rummy101":
        return [c for m in view["table"] for c in m["tiles"]] + ([view["discard_top"]] if view["discard_top"] else [])
    if game == "rummy500":
        return view["market"] + [c for s in view["table"] for c in s["cards"]]
    if game == "canasta":
        items = [c for team in view["melds"] for m in team for c in m["tiles"]] + [c for z in view["bonus"] for c in z]
        return items + ([view["top"]] if view["top"] else [])
    return [view["discard_top"]] if view["discard_top"] else []


def table_refs(game: str, view: dict) -> list[str]:
    """The numbers commands point at, as the text renderer and the grammar number them."""
    if game == "rummikub":
        return [str(n) for n in range(1, len(view["table"]) + 1)]
    if game == "rummy101":
        return [str(m["n"]) for m in view["table"]]
    if game == "rummy500":
        return [f"#{i}" for i in range(1, len(view["market"]) + 1)] + [f"S{s['id']}" for s in view["table"]]
    if game == "canasta":
        return [meld_ref(team, m["number"]) for team in range(2) for m in view["melds"][team]]
    return []


def hand_items(view: dict) -> list[str]:
    return view.get("rack") or view.get("hand") or []


def check_labels(sheet) -> None:
    for code, labels in sheet.labels():
        if code in ("j", "JK"):
            assert labels[:2] in (("☺", "J"), ("JK", "★")), code
        elif code[0] in "rbky" and code[1:].isdigit():
            assert labels[:2] == (code[1:], code[0]), code  # the colour letter is on every tile
        else:
            assert labels[:2] == (code[:-1], SUIT_SYMBOL[code[-1]]), code  # and the suit symbol on every card


POSITIONS = [(game, seed) for game in engine_names() for seed in range(4)]


@pytest.mark.parametrize(("game", "seed"), POSITIONS)
def test_every_item_is_drawn_with_its_letter_and_every_meld_with_its_number(game: str, seed: int) -> None:
    engine = get_engine(game)
    seats, _, actions = MID_GAME[game]
    state = play(engine, seats, seed, actions // 2 + seed * 7)
    rec = record(game, state)
    public = engine.view(state, None)
    sheet = layout(rec, public, None, "en")
    assert Counter(code for code, _ in sheet.labels()) == Counter(table_items(game, public))
    assert sheet.refs == table_refs(game, public)
    text = render_table(rec, public, "en")
    for ref in sheet.refs:
        assert (f"{ref}. " if ref.isdigit() else ref) in text  # the same numbers as the text
    check_labels(sheet)
    for seat in range(seats):
        mine = engine.view(state, seat)
        hand = layout(rec, mine, seat, "ru")
        drawn = Counter(code for code, _ in hand.labels())
        assert not Counter(hand_items(mine)) - drawn, "every item of the hand is drawn"
        check_labels(hand)


@cache
def _blank(size: int, bold: bool) -> bytes:
    return _glyph("\U0010fff0", size, bold)  # a code point no font has: the "missing glyph" box


@cache
def _glyph(ch: str, size: int, bold: bool) -> bytes:
    img = Image.new("L", (size * 2, size * 2))
    ImageDraw.Draw(img).text((2, 2), ch, font=font(size, bold), fill=255)
    return img.tobytes()


@pytest.mark.parametrize("game", engine_names())
def test_the_shipped_font_has_every_character_drawn(game: str) -> None:
    engine, state, rec = mid_game(game)
    seat = engine.current_seat(state)
    for lang in available_languages():
        sheets = [layout(rec, engine.view(state, None), None, lang), layout(rec, engine.view(state, seat), seat, lang)]
        chars = {(ch, item.size, item.bold) for s in sheets for item in s.texts for ch in item.text if not ch.isspace()}
        chars |= {(ch, 19, False) for s in sheets for _, labels in s.labels() for ch in "".join(labels)}
        missing = sorted(ch for ch, size, bold in chars if _glyph(ch, size, bold) == _blank(size, bold))
        assert not missing, missing
