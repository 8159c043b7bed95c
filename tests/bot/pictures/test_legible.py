"""Legible on a phone (issue 26, item 1): every game's table and hand pictures, over seeded positions
played by the AI from the deal to late in the match, measured from the layout model as they come out
in a chat bubble 360 px wide: the smallest tile/card number at least 12 px high, every text at least
11 px. The minimum per game is printed (`pytest -s`)."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random

import pytest

from bot.core.pictures import layout
from bot.core.pictures.sheet import Sheet
from rules import Engine, State, engine_names, get_engine
from tests.bot.pictures.positions import record

NUMBER_GOAL, TEXT_GOAL = 12.0, 11.0
SNAPSHOTS = (8, 25, 50, 90, 140, 200, 280)  # actions from the deal: opening, mid-game, late
SEEDS = range(3)


def positions(engine: Engine, seats: int, seed: int) -> Iterator[State]:
    """States after each of SNAPSHOTS AI actions of one seeded match (later rounds dealt as they come)."""
    state = engine.new_game(seats, seed=seed)
    for step in range(max(SNAPSHOTS) + 1):
        if step in SNAPSHOTS:
            yield state
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is None or result.match_over:
                yield state
                return
            state = engine.next_round(state)
            continue
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))


def sheets(game: str) -> Iterator[tuple[str, Sheet]]:
    engine = get_engine(game)
    seats = min(4, engine.max_seats)
    for seed in SEEDS:
        for state in positions(engine, seats, seed):
            rec = record(game, state)
            for lang in ("en", "ru"):
                yield "table", layout(rec, engine.view(state, None), None, lang)
                for seat in range(seats):
                    yield "hand", layout(rec, engine.view(state, seat), seat, lang, by_number=seat % 2 == 1)


@pytest.mark.parametrize("game", engine_names())
def test_numbers_and_text_are_legible_in_a_phone_chat_bubble(game: str) -> None:
    worst: dict[str, tuple[float, float]] = {}
    tallest: dict[str, float] = {}  # height / width: a client that caps a photo's height shows it narrower
    for kind, sheet in sheets(game):
        got = sheet.legibility()
        number, text = worst.get(kind, (float("inf"), float("inf")))
        worst[kind] = (min(number, got.number), min(text, got.text))
        width, height = sheet.canvas()
        tallest[kind] = max(tallest.get(kind, 0.0), height / width)
        assert sheet.right <= sheet.width, f"{game} {kind}: drawn past the canvas"
    for kind, (number, text) in sorted(worst.items()):
        print(f"{game:15} {kind:5} smallest number {number:5.1f} px, smallest text {text:5.1f} px at 360 px; "
              f"tallest {tallest[kind]:.2f}× its width")
    for kind, (number, text) in worst.items():
        assert number >= NUMBER_GOAL, f"{game} {kind}: a number {number:.1f} px high"
        assert text >= TEXT_GOAL, f"{game} {kind}: a text {text:.1f} px high"
