"""bot/web/board.py pieces that only some tables have."""

from __future__ import annotations

from bot.web.board import board
from rules import get_engine
from tests.rules.canasta_scenario import stacked_deck


def test_canasta_bonus_threes_are_on_the_board_with_what_they_count() -> None:
    # CAN-09: the starter (seat 1, team B) holds r3 y3 and draws a third three as a replacement.
    engine = get_engine("canasta")
    state = engine.new_game(4, seed=5, deck=stacked_deck({1: "r3 y3"}, stock_front="k7 r3 b9"))
    public = engine.view(state, None)
    shown = board("canasta", public, ["A", "B", "C", "D"], "en")
    assert shown is not None
    threes = [m for m in shown["melds"] if m["group"].startswith("B:")]
    assert len(threes) == 1, "team B has no melds yet: its one block is the threes"
    assert sorted(p["code"] for p in threes[0]["pieces"]) == sorted(public["bonus"][1])
    assert threes[0]["caption"] == ["Bonus threes (-300):"], "not opened yet: -100 each"
    assert not [m for m in shown["melds"] if m["group"].startswith("A:")], "team A has none"
