"""Issue 16 on Discord: AI seats added at a level from the lobby's buttons, and hints — `/rummy hint`
and the hand's Hint button — with their refusals."""

from __future__ import annotations

from bot.core.ai_seats import level_labels
from bot.core.codec import decode
from bot.core.hints import table_hint
from bot.core.i18n import t
from bot.discord import views
from rules.core.levels import LEVELS
from storage import TableRecord
from tests.discord.conftest import Harness, components
from tests.discord.fake_wire import EPHEMERAL
from tests.discord.test_options import set_option


def verbs(message: dict) -> list[str]:
    return [decode(c["custom_id"]).verb for c in components(message) if "custom_id" in c]


async def test_lobby_buttons_add_an_ai_at_each_level(h: Harness) -> None:
    await h.open_lobby("rummy500")
    lobby = await h.table_message()
    rows = lobby["components"]
    assert len(rows) <= 5 and all(len(r["components"]) <= 5 for r in rows)
    adds = [c for c in components(lobby) if decode(c["custom_id"]).verb == "addai"]
    assert [(decode(c["custom_id"]).args[0], c["label"]) for c in adds] == level_labels("en")
    for level in ("strong", "easy", "normal"):
        await h.press(await h.table_message(), h.alice, "addai", level)
    rec = await h.table()
    assert [(s.name, s.level) for s in rec.seats if s.kind == "ai"] == [
        ("AI 1", "strong"), ("AI 2", "easy"), ("AI 3", "normal")]
    shown = (await h.table_message())["embeds"][0]["description"]
    assert "AI 1 (strong)" in shown and "AI 2 (easy)" in shown
    assert "AI 3 (" not in shown and "AI 3" in shown  # the default level reads as before


async def test_level_buttons_in_russian(h: Harness) -> None:
    rec = await h.open_lobby("canasta")
    labels = [c["label"] for c in components({"components": views.lobby_view(rec, "ru").to_components()})]
    assert [label for _, label in level_labels("ru")] == [x for x in labels if x.startswith("Добавить ИИ (")]
    assert len(level_labels("ru")) == len(LEVELS)


async def test_only_the_host_adds_an_ai(h: Harness) -> None:
    await h.open_lobby("rummikub", users=(h.bob,))
    refused = await h.press(await h.table_message(), h.bob, "addai", "strong")
    assert "host" in h.answer(refused)["content"].lower()
    assert all(s.kind == "human" for s in (await h.table()).seats)


async def playing(h: Harness, hints: bool) -> TableRecord:
    """Alice and Bob at a Rummikub table, hints set from the host's option screen, started."""
    await h.open_lobby("rummikub", users=(h.bob,))
    if hints:
        await set_option(h, "hints", True)
    await h.press(await h.table_message(), h.alice, "start")
    rec = await h.table()
    assert rec.status == "playing" and rec.options["hints"] is hints
    return rec


async def test_hint_command_answers_privately_with_the_command_in_code(h: Harness) -> None:
    rec = await playing(h, hints=True)
    on_turn = h.user_of(rec, rec.state["turn"])
    expected = await table_hint(h.service, rec.id, h.player(on_turn))
    asked = await h.slash("hint", on_turn)
    shown = h.answer(asked)
    assert shown["flags"] & EPHEMERAL and h.callback(asked)["type"] == 4  # one call
    assert shown["content"] == expected.render("en", lambda c: f"`{c}`")
    assert shown["content"].startswith(f"Hint: `{expected.command}` — ")
    assert (await h.table()).log_seq == rec.log_seq  # asking moves nothing


async def test_hint_refused_when_off_and_when_not_your_turn(h: Harness) -> None:
    rec = await playing(h, hints=False)
    on_turn = h.user_of(rec, rec.state["turn"])
    off = await h.slash("hint", on_turn)
    assert h.answer(off)["content"].startswith("Hints are off at this table")
    assert "hint" not in verbs(await h.hand(on_turn))  # no button that could only refuse


async def test_hint_not_your_turn_and_in_russian(h: Harness) -> None:
    rec = await playing(h, hints=True)
    waiting = h.user_of(rec, 1 - rec.state["turn"])
    early = await h.slash("hint", waiting)
    assert h.answer(early)["content"].startswith("It is not your turn")
    h.fake.locale = "ru"
    on_turn = h.user_of(rec, rec.state["turn"])
    ru = await h.slash("hint", on_turn)
    assert h.answer(ru)["content"].startswith("Подсказка: `")
    button = next(c for c in components(await h.hand(on_turn)) if decode(c["custom_id"]).verb == "hint")
    assert button["label"] == "Подсказка"


async def test_hint_button_on_the_hand_of_the_seat_on_turn(h: Harness) -> None:
    rec = await playing(h, hints=True)
    seat = rec.state["turn"]
    on_turn, waiting = h.user_of(rec, seat), h.user_of(rec, 1 - seat)
    assert "hint" not in verbs(await h.hand(waiting))
    hand = await h.hand(on_turn)
    tail = hand["components"][-1]["components"]
    assert len(tail) <= 5 and decode(tail[-1]["custom_id"]).verb == "hint" and tail[-1]["label"] == "Hint"
    expected = (await table_hint(h.service, rec.id, h.player(on_turn))).render("en", lambda c: f"`{c}`")
    pressed = await h.press(hand, on_turn, "hint", str(seat))
    assert h.callback(pressed)["type"] == 7  # answered by the hand itself, in place: one call
    answered = h.answer(pressed)
    assert answered["content"] == expected and "hint" in verbs(answered)

    # The turn moves on: the same button now says why there is no hint, and the hand drops it.
    await h.slash("play", on_turn, text="draw")
    assert (await h.table()).state["turn"] != seat
    late = await h.press(hand, on_turn, "hint", str(seat))
    answered = h.answer(late)
    assert answered["content"].startswith("It is not your turn") and "hint" not in verbs(answered)


async def test_someone_elses_hint_button_is_refused(h: Harness) -> None:
    rec = await playing(h, hints=True)
    seat = rec.state["turn"]
    hand = await h.hand(h.user_of(rec, seat))
    forged = await h.press(hand, h.user_of(rec, 1 - seat), "hint", str(seat))
    assert h.answer(forged)["content"] == t("dc.not_your_buttons", "en")
