"""Platform-neutral text: errors that teach, the table message, the private hand with its draft."""

from __future__ import annotations

from bot.core.models import ServiceError
from bot.core.render import render_error, render_events, render_hand, render_table
from rules import IllegalAction, get_engine
from storage import SeatRecord, TableRecord
from tests.rules.scenario import scenario

ENGINE = get_engine("rummikub")


def record(state: dict, deadline: float | None = None) -> TableRecord:
    seats = [SeatRecord(kind="human", platform="t", user_id=str(i), name=f"P{i + 1}") for i in range(state["seats"])]
    return TableRecord(
        id="x", game="rummikub", platform="t", chat_id="c", status="playing", host_platform="t", host_user_id="0",
        options=state["options"], seed=1, seats=seats, state=state, deadline=deadline, created_at=0, updated_at=0,
    )


def error_for(state: dict, seat: int, text: str) -> IllegalAction:
    try:
        ENGINE.apply(state, seat, ENGINE.parse(text))
    except IllegalAction as err:
        return err
    raise AssertionError("accepted")


def test_errors_name_the_problem() -> None:
    state = scenario(players=3, racks={0: "r5 b6 k7 r1 r2 r3"}, turn=0)
    assert render_error(error_for(state, 0, "play r5 b6 k7")) == (
        "Meld 1 is not valid: r5 b6 k7 (a run is one colour, numbers in a row: r5 r6 r7). "
        "Fix that meld and send the command again."
    )
    assert render_error(error_for(state, 0, "play r1 r2 r3")).startswith("Your initial meld is worth 6; it needs at least 30")
    assert render_error(error_for(state, 0, "play r9 r10 r11")).startswith("Not on your rack: r9 r10 r11.")
    assert "'fly' is not a command" in render_error(error_for(state, 0, "fly away"), game="rummikub")
    assert render_error(error_for(state, 0, "split 4 1")).startswith("There is no such meld")
    assert render_error(ServiceError("E_TOO_FEW_PLAYERS", game="rummikub", min=2)).startswith("rummikub needs")
    assert render_error(ServiceError("E_SOMETHING_NEW")) == "That move is not allowed (E_SOMETHING_NEW)."


def test_table_message_shows_melds_turn_time_and_players() -> None:
    state = scenario(players=3, table=["r10 r11 r12", "G:r5 j j"], opened={1: True}, turn=1)
    text = render_table(record(state, deadline=1045.0), ENGINE.view(state, None), now=1000.0)
    assert "Rummikub · game 1 of 1 · pool" in text
    assert "Turn: P2 · 45s left" in text
    assert "  1. r10 r11 r12   (run 33)" in text and "  2. G:r5 j j   (group 15)" in text
    assert "  2. P2 · 14 tiles · opened · total 0" in text


def test_hand_shows_best_opening_and_the_draft_with_marks() -> None:
    state = scenario(players=2, racks={0: "r10 r11 r12 k9 b9 y9 r1 b1"}, turn=0)
    view = ENGINE.view(state, 0)
    text = render_hand(record(state), view)
    assert "r1 r10 r11 r12  b1 b9  k9  y9" in text
    assert "Best opening in your rack now: 60 (30 needed)." in text
    state, _ = ENGINE.apply(state, 0, ENGINE.parse("new r10 r11 r12"))
    state, _ = ENGINE.apply(state, 0, ENGINE.parse("new b9 k9"))
    text = render_hand(record(state), ENGINE.view(state, 0))
    assert "  1. r10 r11 r12   ✓ 33" in text
    assert "  2. b9 k9   ✗ (a meld needs at least 3 tiles)" in text
    assert "New melds so far: 33 of 30 needed to open." in text
    assert "Left on your rack: r1  b1  y9" in text
    assert "Your draft" not in render_hand(record(state), ENGINE.view(state, 1))


def test_events_respect_visibility() -> None:
    state = scenario(players=2, turn=0)
    _, events = ENGINE.apply(state, 0, ENGINE.parse("draw"))
    rec = record(state)
    mine = render_events(rec, events, 0)
    theirs = render_events(rec, events, 1)
    assert mine[0] == "You drew a tile." and mine[1].startswith("You got: ")  # the viewer reads "you"
    assert theirs == ["P1 drew a tile."]


def test_table_message_counts_down_the_empty_pool_ending() -> None:
    state = scenario(players=3, pool="", turn=0)  # RK-61: blocked, 3 passes in a row end the game
    state, _ = ENGINE.apply(state, 0, ENGINE.parse("pass"))
    assert "the game ends after 2 more passes in a row" in render_table(record(state), ENGINE.view(state, None))
    state = scenario(players=3, pool="r1", turn=0, options={"empty_pool_end": "one_more_turn"})
    state, _ = ENGINE.apply(state, 0, ENGINE.parse("draw"))  # RK-62: everyone gets one more turn
    assert "Pool empty: 3 turns left." in render_table(record(state), ENGINE.view(state, None))
