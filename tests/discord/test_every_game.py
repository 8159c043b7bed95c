"""A full round of every other landed game by two members (plus AI seats when the game needs
more), through the table message, ephemeral hands (select + buttons) and /rummy play."""

from __future__ import annotations

from importlib.util import find_spec

import pytest

from bot.core.codec import decode
from rules import engine_names, get_engine
from tests.discord.conftest import Harness, components

MAX_TURNS = 1500


def landed(game: str) -> bool:
    try:
        get_engine(game)
    except Exception:
        return False
    return find_spec(f"bot.core.render.{game}") is not None


OTHER_GAMES = [g for g in engine_names() if g != "rummikub"]


async def _by_buttons(h: Harness, hand: dict, user: dict, move: str) -> bool:
    """Play `move` with the hand's components when they offer it: a plain button, or items
    picked in the select followed by the grammar's button for them."""
    for c in components(hand):
        if c["type"] == 2 and c.get("label") == move and decode(c["custom_id"]).verb == "cmd":
            await h.click(c["custom_id"], hand, user)
            return True
    verb, *items = move.split()
    select = next((c for c in components(hand) if c["type"] == 3), None)
    if not items or select is None or any(i.isdigit() for i in items):
        return False
    labels = [o["label"] for o in select["options"]]
    picked: list[str] = []
    for item in items:
        at = next((str(i) for i, label in enumerate(labels) if label == item and str(i) not in picked), None)
        if at is None:
            return False
        picked.append(at)
    await h.click(select["custom_id"], hand, user, values=picked)
    hand = h.fake.messages[int(hand["id"])]
    for c in components(hand):
        data = decode(c["custom_id"])
        if c["type"] == 2 and data.verb == "cmd" and c["label"].endswith("✓") and c["label"].split()[0] == verb:
            await h.click(c["custom_id"], hand, user)
            return True
    return False


@pytest.mark.parametrize("game", OTHER_GAMES or ["none"])
async def test_a_full_round(h: Harness, game: str) -> None:
    if not landed(game):
        pytest.skip(f"{game} has not landed (engine or renderer missing)")
    engine = get_engine(game)
    await h.open_lobby(game, users=(h.bob,))
    for _ in range(max(0, engine.min_seats - 2)):
        await h.press(await h.table_message(), h.alice, "addai", "normal")
    await h.press(await h.table_message(), h.alice, "start")
    start = await h.table()
    assert start.status == "playing", (await h.table_message())["embeds"]
    first_round = start.state.get("round")
    hands = {u["id"]: await h.hand(u) for u in (h.alice, h.bob)}
    buttons = 0
    for _ in range(MAX_TURNS):
        rec = await h.table()
        if rec.status != "playing" or rec.state.get("round") != first_round:
            break
        seat = engine.current_seat(rec.state)
        user = h.user_of(rec, seat)
        move = await h.ai_move(user)
        hand = hands[user["id"]]
        await h.press(hand, user, "hand", str(seat))  # Refresh
        hand = h.fake.messages[int(hand["id"])]
        if await _by_buttons(h, hand, user, move):
            buttons += 1
        else:
            await h.slash("play", user, text=move)
        assert (await h.table()).log_seq > rec.log_seq, (move, h.fake.requests[-1].json)
    rec = await h.table()
    assert rec.status == "finished" or rec.state.get("round") != first_round
    assert buttons
