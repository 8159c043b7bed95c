"""Issue 29, "Done when": a short match of every game played to its end at the full screen by keys
alone (the hand pane's letters and digits, or the command line), against AI opponents."""

from __future__ import annotations

import pytest

from bot.console.app import CHAT_ID, PLATFORM
from storage import MemoryStore
from tests.console.tui.driver import new_app, play_to_end, screen_text

GAMES = ["rummikub", "rummy101", "rummy500", "canasta", "three_thirteen"]


@pytest.mark.parametrize("game", GAMES)
async def test_a_whole_match_by_keys(store: MemoryStore, game: str) -> None:
    app = new_app(store, game, seed=3)
    async with app.run_test(size=(100, 40)) as pilot:
        counts = await play_to_end(pilot, app)
        assert counts, "you made no move"
        rec = await store.active_table_for_chat(PLATFORM, CHAT_ID)
        assert rec is None  # the match is finished: nothing in play
        text = screen_text(app)
        assert "1 rematch" in text and "4 quit" in text  # the end menu in the hand pane
