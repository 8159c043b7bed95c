"""Private stays private (UX.md): over seeded games of every game, seat p's picture is byte-identical
when every zone hidden from p is dealt differently, and the table picture is identical whatever any
seat holds. Pictures are drawn afresh (`layout(...).png()`), never from the cache, which would
answer from the key alone."""

from __future__ import annotations

from random import Random

import pytest

from bot.core.pictures import layout
from rules import engine_names, get_engine
from tests.bot.pictures.positions import record
from tests.test_engine_contract import reshuffle_hidden

SEEDS = range(6)
EVERY = 7  # check one position in this many actions
PER_GAME = 3  # positions checked per seeded game, so the test stays a few seconds per engine


def drawn(game: str, state: dict, viewer: int | None, lang: str) -> bytes:
    view = get_engine(game).view(state, viewer)
    return layout(record(game, state), view, viewer, lang).png()


@pytest.mark.parametrize("game", engine_names())
def test_pictures_depend_only_on_what_the_viewer_may_see(game: str) -> None:
    engine = get_engine(game)
    checked = changed = 0
    for seed in SEEDS:
        rng = Random(seed)
        seats = engine.min_seats + seed % (engine.max_seats - engine.min_seats + 1)
        state = engine.new_game(seats, seed=seed)
        for step in range(400):
            seat = engine.current_seat(state)
            if seat is None:
                break  # a round's end reveals every hand on purpose (RK-74 and the like)
            if step % EVERY == 0 and checked < PER_GAME * (seed + 1):
                checked += 1
                lang = ("en", "ru")[step % 2]
                for viewer in [None, *range(seats)]:
                    other = reshuffle_hidden(engine, state, viewer, keep=set(), rng=rng)
                    changed += other != state
                    assert drawn(game, other, viewer, lang) == drawn(game, state, viewer, lang), (seed, step, viewer)
            state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(f"{seed}/{step}")))
    assert checked >= len(SEEDS) and changed >= checked  # every position was really dealt differently


def test_a_hand_picture_takes_only_its_own_seats_view() -> None:
    engine = get_engine("rummikub")
    state = engine.new_game(3, seed=1)
    rec = record("rummikub", state)
    with pytest.raises(ValueError):
        layout(rec, engine.view(state, 1), 0)
    with pytest.raises(ValueError):
        layout(rec, engine.view(state, 1), None)  # the table is drawn from the public view only
