"""A full round of every other landed game, two people playing through the group and their DMs.

Games plug in without adapter changes: a game counts as landed once its engine loads and its
renderer exists; the players type what the game's own AI would choose, and press the hand's
plain buttons (draw, take, ...) whenever that is the move."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from bot.core.codec import decode
from rules import engine_names, get_engine
from tests.telegram.conftest import GROUP_ID, Harness, assert_no_hand_in_group
from tests.telegram.test_delivery import live

MAX_TURNS = 1500


@pytest.fixture
def h(hp: Harness) -> Harness:
    """Every game is played with the production default look: the table and the hands as pictures."""
    return hp


def landed(game: str) -> bool:
    try:
        get_engine(game)
    except Exception:
        return False
    return find_spec(f"bot.core.render.{game}") is not None


OTHER_GAMES = [g for g in engine_names() if g != "rummikub"]


@pytest.mark.parametrize("game", OTHER_GAMES or ["none"])
async def test_a_full_round(h: Harness, game: str) -> None:
    if not landed(game):
        pytest.skip(f"{game} has not landed (engine or renderer missing)")
    engine = get_engine(game)
    await h.open_lobby(game, users=(h.bob,))
    for _ in range(max(0, engine.min_seats - 2)):
        await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
    await h.press_verb(await h.table_message(), "start", h.alice)
    start = await h.table()
    started = len(h.fake.calls)
    assert start.status == "playing", (await h.table_message())["text"]
    first_round = start.state.get("round")
    buttons_used = 0
    for _ in range(MAX_TURNS):
        rec = await h.table()
        if rec.status != "playing" or rec.state.get("round") != first_round:
            break
        seat = engine.current_seat(rec.state)
        user = h.alice if rec.seats[seat].user_id == str(h.alice["id"]) else h.bob
        move = await h.ai_move(user)
        hand = await h.hand_message(user)
        plain = [b for b in h.fake.buttons(hand) if b["text"] == move and decode(b["callback_data"]).verb == "cmd"]
        if plain:
            await h.press(plain[0]["callback_data"], hand, user)
            buttons_used += 1
        else:
            await h.dm(move, user)
        assert (await h.table()).log_seq > rec.log_seq, (move, h.fake.calls_to("sendMessage")[-1].params)
    rec = await h.table()
    assert rec.status == "finished" or rec.state.get("round") != first_round
    assert "photo" in await h.table_message() and "photo" in await h.hand_message(h.alice)
    # From the start on the table is a picture, edited as one (never a text edit in the group).
    assert [c.method for c in h.fake.calls[started:] if c.chat_id == GROUP_ID and c.method.startswith("edit")] \
        and all(c.method in ("editMessageMedia", "editMessageCaption")
                for c in h.fake.calls[started:] if c.chat_id == GROUP_ID and c.method.startswith("edit"))
    assert_no_hand_in_group(h)


async def test_a_whole_rummikub_match_with_pictures_ends_with_the_table_picture_and_the_result(h: Harness) -> None:
    h.options = {"match_games": 1}
    await h.open_lobby("rummikub", users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    for _ in range(MAX_TURNS):
        rec = await h.table()
        if rec.status != "playing":
            break
        user = h.alice if rec.seats[rec.state["turn"]].user_id == str(h.alice["id"]) else h.bob
        await h.dm(await h.ai_move(user), user)
    await h.tg.idle()
    assert (await h.table()).status == "finished"
    assert "photo" in await h.table_message(), "the table stays a picture to the end"
    assert_no_hand_in_group(h)
    left = live(h, GROUP_ID)
    assert len(left) == 2 and "photo" in left[0], "the table picture and the result are what stays in the group"
