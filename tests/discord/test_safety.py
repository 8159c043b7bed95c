"""Only the seat's owner acts, stale buttons are refused, bad input changes nothing, every
interaction is acknowledged (deferred when slow), the host or Manage Server ends a table."""

from __future__ import annotations

from bot.core.codec import decode, encode
from tests.discord.conftest import Harness, components
from tests.discord.fake_wire import EPHEMERAL


async def _started(h: Harness, game: str = "rummikub") -> None:
    await h.open_lobby(game, users=(h.bob,))
    await h.press(await h.table_message(), h.alice, "start")


async def test_wrong_member_pressing_a_hand_button(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    seat = rec.state["turn"]
    owner = h.user_of(rec, seat)
    other = h.bob if owner is h.alice else h.alice
    hand = await h.hand(owner)
    draw = next(c for c in components(hand) if c.get("label") == "draw")
    press = await h.click(draw["custom_id"], hand, other)  # a forwarded or forged id: not their seat
    cb = h.answer(press)
    assert cb["flags"] & EPHEMERAL
    assert "another player" in cb["content"]
    assert (await h.table()).log_seq == rec.log_seq


async def test_non_host_cannot_start_or_end_but_manage_server_can_end(h: Harness) -> None:
    await h.open_lobby("rummikub", users=(h.bob,))
    start = await h.press(await h.table_message(), h.bob, "start")
    assert "Only the host" in h.answer(start)["content"]
    assert (await h.table()).status == "lobby"
    await h.press(await h.table_message(), h.alice, "start")
    end = await h.slash("end", h.bob)
    assert h.answer(end)["flags"] & EPHEMERAL and "Only the host" in h.answer(end)["content"]
    assert (await h.table()).status == "playing"
    end = await h.slash("end", h.carol)  # not seated, but may manage the server
    assert (await h.table()).status == "abandoned"
    final = await h.table_message()
    assert not final["components"] and "ended" in final["embeds"][0]["description"]


async def test_stale_button_refused_and_hand_refreshed(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    seat = rec.state["turn"]
    user = h.user_of(rec, seat)
    hand = await h.hand(user)
    old = [c["custom_id"] for c in components(hand) if c.get("label") == "draw"][0]
    await h.slash("play", user, text="draw")  # the table moved on: that hand's buttons are old
    rec2 = await h.table()
    press = await h.click(old, hand, user)
    assert h.callback(press)["type"] == 7  # answered by the refreshed hand itself: one call
    cb = h.answer(press)
    assert "out of date" in cb["content"]
    assert (await h.table()).log_seq == rec2.log_seq
    assert all(decode(c["custom_id"]).version in (0, rec2.version) for c in components(cb))


async def test_bad_input_gives_a_clear_ephemeral_error_and_changes_nothing(h: Harness) -> None:
    await _started(h)
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    for text in ("fly away", "play r99", "discard"):
        bad = await h.slash("play", user, text=text)
        cb = h.answer(bad)
        assert cb["flags"] & EPHEMERAL and cb["content"]
        assert (await h.table()).version == rec.version
    other = h.bob if user is h.alice else h.alice
    off_turn = await h.slash("play", other, text="draw")
    assert "turn" in h.answer(off_turn)["content"].lower()
    stranger = await h.slash("play", h.carol, text="draw")
    assert "seat" in h.answer(stranger)["content"].lower()
    # foreign and malformed button ids
    table = await h.table_message()
    for custom_id in ("v1:nope:0:K", encode(rec.id, rec.version, "cmd", "x", "1"), "v1:" + rec.id + ":1:zz 9"):
        press = await h.click(custom_id, {**table, "components": [{"type": 1, "components": [
            {"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}]}, user)
        assert h.answer(press)["flags"] & EPHEMERAL
    assert (await h.table()).version == rec.version
    assert (await h.table()).status == "playing"


async def test_slow_work_is_deferred_then_answered(h: Harness) -> None:
    await h.stop()
    h.ack_after_s = 0.0  # every call counts as slow: the adapter must defer first
    await h.start()
    await h.open_lobby("rummikub", users=(h.bob,))
    start = await h.press(await h.table_message(), h.alice, "start")
    assert h.callback(start)["type"] == 6  # deferred update, then the table edited through the token
    assert h.reply(start)["embeds"]
    rec = await h.table()
    user = h.user_of(rec, rec.state["turn"])
    play = await h.slash("play", user, text="draw")
    assert h.callback(play)["type"] == 5 and h.answer(play)["flags"] & EPHEMERAL
    assert h.reply(play)["embeds"]
    assert (await h.table()).log_seq > rec.log_seq


async def test_lobby_commands_and_errors(h: Harness) -> None:
    none = await h.slash("join", h.bob)
    assert "no table" in h.answer(none)["content"].lower()
    await h.slash("new", h.alice, game="rummy500")
    again = await h.slash("new", h.bob, game="rummikub")
    assert h.answer(again)["flags"] & EPHEMERAL
    await h.slash("join", h.bob)
    await h.slash("join", h.carol)
    assert len((await h.table()).seats) == 3
    await h.slash("leave", h.carol)
    assert len((await h.table()).seats) == 2
    early = await h.slash("hand", h.bob)
    assert h.answer(early)["flags"] & EPHEMERAL
    await h.slash("start", h.alice)
    assert (await h.table()).status == "playing"
    help_ = await h.slash("help", h.bob)
    assert "draw" in h.answer(help_)["content"]
    rules = await h.slash("rules", h.bob, game="canasta")
    assert h.answer(rules)["flags"] & EPHEMERAL


async def test_the_hand_detector_sees_hands_and_only_hands(h: Harness) -> None:
    """The no-hand-in-channel check of every test relies on this telling hands from tables."""
    from tests.discord.conftest import is_hand

    await _started(h)
    rec = await h.table()
    hand = await h.hand(h.user_of(rec, rec.state["turn"]))
    assert is_hand(hand) and hand["flags"] & EPHEMERAL
    assert not is_hand(await h.table_message())
    posted = [r.json for r in h.fake.requests if r.path.startswith(f"/channels/{h.fake.channel_id}/")]
    assert posted and not any(is_hand(p) for p in posted)
