"""Issue 29: a match played by mouse clicks alone, text snapshots of every game's screen at 80×24 and
120×40 (deterministic seeds; `UPDATE_SNAPSHOTS=1` writes them anew), and the screen's behaviour —
changes marked, draft kept from `draw`, wild cards marked, sort orders, the timer counting down and
running out, moves made by another process told, NO_COLOR."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.console.tui.app import HandPane
from bot.console.tui.keys import button_keys
from bot.core.presenter.games import moves_of, view_of
from storage import MemoryStore
from tests.console.driver import ai_move
from tests.console.tui.driver import new_app, screen_text, settle

SNAPSHOTS = Path(__file__).parent / "snapshots"
GAMES = ["rummikub", "rummy101", "rummy500", "canasta", "three_thirteen"]


async def test_a_whole_match_by_mouse_clicks(store: MemoryStore) -> None:
    app = new_app(store, "three_thirteen", seed=5)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        clicks = 0
        while app.table.rec is not None and app.table.rec.status == "playing":
            rec, shown = app.table.rec, app.shown
            assert shown is not None and shown.hand is not None and rec.state is not None
            command = ai_move(rec.game, rec.state, rec.log_seq)
            keys = button_keys(shown.hand, shown.order, moves_of(rec, view_of(rec, app.table.seat)), command, "en")
            assert keys is not None, f"no button makes {command!r}"
            before = rec.version
            for key in keys:
                pane = app.query_one(HandPane)
                action = pane.layout_.keys[key]
                x, y = pane.offset_of(action)
                assert await pilot.click(HandPane, offset=(x + len(key) + 1, y))
                clicks += 1
                await settle(pilot, app)
            assert app.table.rec.version > before
        assert clicks > 0
        assert "1 rematch" in screen_text(app)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", GAMES)
async def test_snapshot(store: MemoryStore, game: str, size: tuple[int, int]) -> None:
    app = new_app(store, game, seed=11)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        await pilot.press("a")  # one item picked: the moves for it are offered
        await settle(pilot, app)
        text = screen_text(app)
    lines = text.splitlines()
    assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]
    path = SNAPSHOTS / f"{game}-{size[0]}x{size[1]}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.exists(), f"no snapshot {path.name}: run with UPDATE_SNAPSHOTS=1 and read it before committing"
    assert text + "\n" == path.read_text(encoding="utf-8")
