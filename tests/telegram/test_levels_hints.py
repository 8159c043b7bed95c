"""Issue 16 on Telegram: AI seats added at a level from the lobby's buttons, and hints — `hint` typed
in the DM, `/hint`, and the hand's Hint button — with their refusals; each answer is one call."""

from __future__ import annotations

import dataclasses

import pytest

from bot.core.ai_seats import level_labels
from bot.core.codec import decode
from bot.core.hints import TableHint, table_hint
from bot.core.models import Player
from bot.telegram import hints as tg_hints
from rules.core.levels import LEVELS
from storage import TableRecord
from tests.telegram.conftest import GROUP_ID, Harness
from tests.telegram.fake_bot_api import JSON


def verbs(h: Harness, message: JSON) -> list[str]:
    return [decode(b["callback_data"]).verb for b in h.fake.buttons(message) if "callback_data" in b]


async def test_lobby_buttons_add_an_ai_at_each_level(h: Harness) -> None:
    await h.open_lobby("rummy500")
    lobby = await h.table_message()
    adds = [b for b in h.fake.buttons(lobby) if decode(b["callback_data"]).verb == "addai"]
    assert [(decode(b["callback_data"]).args[0], b["text"]) for b in adds] == level_labels("en")
    for level in ("strong", "easy", "normal"):
        await h.press_verb(await h.table_message(), "addai", h.alice, level)
    rec = await h.table()
    assert [(s.name, s.level) for s in rec.seats if s.kind == "ai"] == [
        ("AI 1", "strong"), ("AI 2", "easy"), ("AI 3", "normal")]
    shown = (await h.table_message())["text"]
    assert "AI 1 (strong)" in shown and "AI 2 (easy)" in shown
    assert "AI 3 (" not in shown and "AI 3" in shown  # the default level reads as before


async def test_level_buttons_in_russian_and_a_forged_level_refused(h: Harness) -> None:
    await h.open_lobby("canasta")
    await h.say("/lang ru", h.alice, h.group)
    lobby = await h.table_message()
    labels = [b["text"] for b in h.fake.buttons(lobby) if decode(b["callback_data"]).verb == "addai"]
    assert labels == [label for _, label in level_labels("ru")] and len(labels) == len(LEVELS)
    assert all(label.startswith("Добавить ИИ (") for label in labels)
    data = next(b["callback_data"] for b in h.fake.buttons(lobby) if decode(b["callback_data"]).verb == "addai")
    up = await h.press(data.rsplit(":", 1)[0] + ":addai wizard", lobby, h.alice)
    assert "wizard" in h.answer_for(up)["text"]
    assert all(s.kind == "human" for s in (await h.table()).seats)


async def test_only_the_host_adds_an_ai(h: Harness) -> None:
    await h.open_lobby("rummikub", users=(h.bob,))
    up = await h.press_verb(await h.table_message(), "addai", h.bob, "strong")
    assert "host" in h.answer_for(up)["text"].lower()
    assert all(s.kind == "human" for s in (await h.table()).seats)


async def playing(h: Harness, hints: bool, game: str = "rummikub") -> TableRecord:
    h.options = {"hints": hints}
    await h.open_lobby(game, users=(h.bob,))
    await h.press_verb(await h.table_message(), "start", h.alice)
    rec = await h.table()
    assert rec.status == "playing" and rec.options["hints"] is hints
    return rec


def user_at(h: Harness, rec: TableRecord, seat: int) -> JSON:
    return h.alice if rec.seats[seat].user_id == str(h.alice["id"]) else h.bob


async def test_hint_typed_in_the_dm_answers_with_the_command_in_code(h: Harness) -> None:
    rec = await playing(h, hints=True)
    on_turn = user_at(h, rec, rec.state["turn"])
    expected = await table_hint(h.service, rec.id, h.player(on_turn))
    before = len(h.fake.calls)
    await h.dm("hint", on_turn)
    sent = h.fake.calls[before:]
    assert [c.method for c in sent] == ["sendMessage"]  # one call
    assert sent[0].params["text"] == f"Hint: <code>{expected.command}</code> — " + expected.render("en").split(" — ", 1)[1]
    await h.dm("/hint", on_turn)
    assert h.fake.calls_to("sendMessage")[-1].params["text"] == sent[0].params["text"]
    assert (await h.table()).log_seq == rec.log_seq  # asking moves nothing


async def test_hint_refused_when_off_when_not_your_turn_and_in_the_group(h: Harness) -> None:
    rec = await playing(h, hints=False)
    on_turn = user_at(h, rec, rec.state["turn"])
    await h.dm("hint", on_turn)
    assert h.fake.calls_to("sendMessage")[-1].params["text"].startswith("Hints are off at this table")
    assert "hint" not in verbs(h, await h.hand_message(on_turn))  # no button that could only refuse
    await h.say("/end", h.alice, h.group)

    rec = await playing(h, hints=True)
    waiting = user_at(h, rec, 1 - rec.state["turn"])
    await h.dm("/hint", waiting)
    assert h.fake.calls_to("sendMessage")[-1].params["text"].startswith("It is not your turn")
    await h.say("/hint", user_at(h, rec, rec.state["turn"]), h.group)
    last = h.fake.calls_to("sendMessage")[-1]
    assert last.chat_id == GROUP_ID and "private chat" in last.params["text"] and "Hint:" not in last.params["text"]


async def test_hint_button_on_the_hand_of_the_seat_on_turn_answers_as_a_popup(h: Harness) -> None:
    rec = await playing(h, hints=True)
    seat = rec.state["turn"]
    on_turn, waiting = user_at(h, rec, seat), user_at(h, rec, 1 - seat)
    assert "hint" not in verbs(h, await h.hand_message(waiting))
    hand = await h.hand_message(on_turn)
    assert "hint" in verbs(h, hand)
    expected = (await table_hint(h.service, rec.id, h.player(on_turn))).render("en")
    assert len(expected) <= 200
    before = len(h.fake.calls)
    up = await h.press_verb(hand, "hint", on_turn, str(seat))
    assert [c.method for c in h.fake.calls[before:]] == ["answerCallbackQuery"]  # one call
    answer = h.answer_for(up)
    assert answer["text"] == expected and answer["show_alert"] in (True, "true")

    # The turn moves on: the same button now says why there is no hint, and the hand drops it.
    await h.dm("draw", on_turn)
    assert (await h.table()).state["turn"] != seat
    late = await h.press_verb(hand, "hint", on_turn, str(seat))
    assert h.answer_for(late)["text"].startswith("It is not your turn")
    assert "hint" not in verbs(h, await h.hand_message(on_turn))


async def test_a_hint_too_long_for_a_popup_is_shown_under_the_hand(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    rec = await playing(h, hints=True)
    seat = rec.state["turn"]
    on_turn = user_at(h, rec, seat)
    real = tg_hints.table_hint

    async def long_hint(service: object, table_id: str, user: Player) -> TableHint:
        # A late Rummikub table: `play` names the whole layout, well over a pop-up's 200 characters.
        hint = await real(service, table_id, user)  # type: ignore[arg-type]
        return dataclasses.replace(hint, command=hint.command + " | r5 r6 r7 r8" * 15)

    monkeypatch.setattr(tg_hints, "table_hint", long_hint)
    hand = await h.hand_message(on_turn)
    before = len(h.fake.calls)
    up = await h.press_verb(hand, "hint", on_turn, str(seat))
    calls = h.fake.calls[before:]
    assert sorted(c.method for c in calls) == ["answerCallbackQuery", "editMessageText"]
    assert "text" not in h.answer_for(up) or not h.answer_for(up)["text"]
    edited = next(c for c in calls if c.method == "editMessageText").params["text"]
    assert "Hint: play " in edited and "| r5 r6 r7 r8" in edited
    assert (await h.table()).log_seq == rec.log_seq


async def test_someone_elses_hint_button_and_russian(h: Harness) -> None:
    rec = await playing(h, hints=True, game="rummy500")
    seat = rec.state["turn"]
    on_turn, waiting = user_at(h, rec, seat), user_at(h, rec, 1 - seat)
    hand = await h.hand_message(on_turn)
    forged = await h.press_verb(hand, "hint", waiting, str(seat))
    assert "Hint:" not in h.answer_for(forged)["text"]
    await h.dm("/lang ru", on_turn)
    await h.dm("hand", on_turn)
    hand = await h.hand_message(on_turn)
    button = next(b for b in h.fake.buttons(hand) if decode(b["callback_data"]).verb == "hint")
    assert button["text"] == "Подсказка"
    await h.dm("hint", on_turn)
    assert h.fake.calls_to("sendMessage")[-1].params["text"].startswith("Подсказка: <code>")
