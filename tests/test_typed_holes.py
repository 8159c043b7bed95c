"""Holes the type checker found, closed by a check that names the problem rather than failing later."""

from __future__ import annotations

import pytest

from rules.core.moves import MoveTemplate, compose, items, word
from storage import LogEntry


def test_a_logged_move_names_its_seat_and_a_seatless_one_is_a_damaged_log() -> None:
    move = LogEntry(table_id="t1", seq=3, kind="move", seat=1, text="draw", at=0.0)
    assert move.mover() == 1
    damaged = LogEntry(table_id="t1", seq=4, kind="move", seat=None, text="draw", at=0.0)
    with pytest.raises(ValueError, match=r"table 't1': log entry 4 \(move 'draw'\) is a move without a seat"):
        damaged.mover()


def test_an_items_slot_takes_a_flat_list_of_items_only() -> None:
    template = MoveTemplate(verb="meld", slots=(word("now"), items(1, 3)), label_key="move.meld")
    assert compose(template, [["r5", "b5", "k5"]]) == "meld now r5 b5 k5"
    with pytest.raises(ValueError, match="does not fit the items slot"):
        compose(template, [[["r5", "b5", "k5"]]])  # a list of melds is no list of items
    with pytest.raises(ValueError, match="does not fit the items slot"):
        compose(template, ["r5"])  # one word where a list goes
