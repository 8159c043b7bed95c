"""Issue 13 item 1 in the terminal: the prompt shows the moves you can type now, from the same legal
moves as every button (bot/core/presenter/prompt.py), over seeded positions of every game."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random

import pytest

from bot.console.app import ConsoleTable
from bot.console.session import Request, Session
from bot.core.clock import FakeClock
from bot.core.presenter.prompt import MORE, SEPARATOR, WIDTH, prompt_line, typed_moves
from bot.core.service import TableService
from rules import IllegalAction, engine_names, get_engine
from storage import SqliteStore

STEPS = 80
PLACEHOLDER = re.compile(r"<[^>]*>")


def _positions(game: str, seed: int):
    """(state, seat to act, a seat that waits, the AI's move from there) along a seeded game of AI moves."""
    engine = get_engine(game)
    seats = engine.min_seats if game != "three_thirteen" else 3
    state = engine.new_game(seats, seed=seed)
    rng = Random(seed)
    for _ in range(STEPS):
        seat = engine.current_seat(state)
        if seat is None:
            if engine.result(state).match_over:
                return
            state = engine.next_round(state)
            continue
        action = engine.ai_action(state, seat, rng)
        yield state, seat, (seat + 1) % seats, engine.format(action)
        state, _ = engine.apply(state, seat, action)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", engine_names())
def test_every_move_the_prompt_offers_is_one_the_engine_takes_now(game: str, seed: int) -> None:
    engine = get_engine(game)
    checked = 0
    for state, seat, other, ai_move in _positions(game, seed):
        view = engine.view(state, seat)
        templates = engine.moves(view)
        moves = typed_moves(game, view, seat, templates, "en", hints=True)
        assert moves[-1] == "hint" and len(moves) == len(set(moves))
        offered = {tpl.verb for tpl in templates if tpl.available is not False}
        for move in moves[:-1]:
            assert move.split()[0] in offered, f"{game}: {move!r} names a move the engine refuses now"
            if not PLACEHOLDER.search(move):  # written out whole: exactly what typing it sends
                try:
                    engine.apply(state, seat, engine.parse(move))
                except IllegalAction as err:
                    raise AssertionError(f"{game}: the prompt offers {move!r}, refused with {err.code}") from None
                checked += 1
        # Where the AI finds a legal move, the prompt offers its verb.
        assert ai_move.split()[0] in {m.split()[0] for m in moves}, (game, ai_move, moves)
        waiting = engine.view(state, other)
        assert typed_moves(game, waiting, other, engine.moves(waiting), "en") == [], "off turn nothing is offered"
        line = prompt_line(moves)
        assert len(line) <= WIDTH and line.endswith("hint")
        shown = [m for m in line.split(SEPARATOR) if m != MORE]
        assert all(m in moves for m in shown) and shown == [m for m in moves if m in shown]  # whole moves, in order
    assert checked > 0


@pytest.mark.parametrize("game", engine_names())
def test_the_slots_are_named_in_the_players_language(game: str) -> None:
    engine = get_engine(game)
    seen = 0
    for state, seat, _, _ in _positions(game, 1):
        view = engine.view(state, seat)
        for move in typed_moves(game, view, seat, engine.moves(view), "ru"):
            for slot in PLACEHOLDER.findall(move):
                assert not re.search(r"[a-z]{2,}", slot.replace("new", "")), f"{game}: {slot} is English"
                seen += 1
    assert seen > 0


def test_a_long_list_is_cut_at_whole_moves_and_keeps_hint() -> None:
    moves = ["draw", "play <melds>", "new <tiles>", "add <meld> <tiles>", "move <tile> <meld> <meld|new>",
             "split <meld> <n>", "hint"]
    line = prompt_line(moves, width=50)
    assert line == "draw · play <melds> · new <tiles> · … · hint"
    assert prompt_line(["draw", "hint"]) == "draw · hint" and prompt_line([]) == ""


@pytest.fixture
async def store(tmp_path: Path):
    s = SqliteStore(str(tmp_path / "p.db"))
    await s.open()
    yield s
    await s.close()


async def test_the_table_prompt_shows_the_moves_and_the_questions_do_not(store: SqliteStore) -> None:
    prompts: list[str] = []
    lines = iter(["draw", "quit"])

    async def read() -> str | None:
        return next(lines, None)

    service = TableService(store, FakeClock())
    table = ConsoleTable(service, read, lambda text: None, "en", prompt=prompts.append)
    request = Request("three_thirteen", ai=1, options={"rounds": 1, "first_dealer": 1, "hints": True}, seed=4)
    assert await Session(service, table).run(request) == 0
    # Your turn: draw or take; after the draw: discard one; "" while nothing waits for a move.
    assert prompts == ["draw · take · hint", "", "discard <card> · hint", ""]
