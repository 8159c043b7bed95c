"""AI seats with a level (issue 16): chosen when the seat is added (by argument or button data),
played at that level, shown in the seat's name in both languages, kept with the match's result,
and records stored before levels existed load as normal AI seats."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from random import Random

import pytest

from bot.core.ai_seats import button_level, level_labels, seat_name
from bot.core.clock import FakeClock
from bot.core.codec import decode, encode
from bot.core.models import ServiceError
from bot.core.render import render_error, render_lobby
from bot.core.service import TableService
from bot.core.stats import Standings
from rules.rummy500 import levels as rummy500_levels
from storage import SeatRecord, SqliteStore, Store
from tests.bot.conftest import ALICE, BOB


async def test_add_ai_keeps_the_level_and_names_it(service: TableService) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    rec = await service.add_ai(rec.id, ALICE, level="strong")
    rec = await service.add_ai(rec.id, ALICE)
    rec = await service.add_ai(rec.id, ALICE, level="Easy")
    assert [(s.name, s.level) for s in rec.seats[1:]] == [("AI 1", "strong"), ("AI 2", "normal"), ("AI 3", "easy")]
    assert [seat_name(s, "en") for s in rec.seats] == ["Alice", "AI 1 (strong)", "AI 2", "AI 3 (easy)"]
    assert [seat_name(s, "ru") for s in rec.seats] == ["Alice", "ИИ 1 (сильный)", "ИИ 2", "ИИ 3 (лёгкий)"]
    assert "4. AI 3 (easy)" in render_lobby(rec, "en") and "2. ИИ 1 (сильный)" in render_lobby(rec, "ru")
    stored = await service.get(rec.id)
    assert [s.level for s in stored.seats] == ["normal", "strong", "normal", "easy"]


async def test_a_bad_level_is_refused_with_a_sentence(service: TableService) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    with pytest.raises(ServiceError) as err:
        await service.add_ai(rec.id, ALICE, level="hard")
    assert err.value.code == "E_BAD_LEVEL"
    assert render_error(err.value, "en") == "There is no AI level 'hard': the levels are easy, normal, strong."
    assert render_error(err.value, "ru") == "Уровня ИИ 'hard' нет: уровни — easy, normal, strong."
    assert len((await service.get(rec.id)).seats) == 1


def test_the_addai_button_carries_the_level() -> None:
    for level, label in level_labels("en"):
        data = decode(encode("abcdefghij0123456789abcdefghij01", 123456789, "addai", level))
        assert data.verb == "addai" and button_level(data.args) == level and level in label
    assert button_level(decode(encode("t1", 3, "addai")).args) == "normal"  # the old one-button lobby
    with pytest.raises(ServiceError):
        button_level(("hard",))
    assert [label for _, label in level_labels("ru")] == ["Добавить ИИ (лёгкий)", "Добавить ИИ (обычный)",
                                                          "Добавить ИИ (сильный)"]


async def test_each_ai_seat_plays_at_its_own_level(service: TableService, monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[str] = []
    for level in ("easy", "normal"):
        policy = rummy500_levels.POLICIES[level]

        def spy(view: dict, rng: Random, policy=policy, level=level):  # noqa: ANN001, ANN202
            played.append(f"{view['you']}:{level}")
            return policy(view, rng)

        monkeypatch.setitem(rummy500_levels.POLICIES, level, spy)
    rec = await service.open_table("rummy500", "test", "chat1", ALICE, seat_host=False)
    await service.add_ai(rec.id, ALICE, level="easy")
    await service.add_ai(rec.id, ALICE, level="normal")
    outcome = await service.start(rec.id, ALICE)
    assert outcome.table.status in ("playing", "finished") and played
    assert set(played) == {"0:easy", "1:normal"}


async def test_the_match_result_keeps_the_levels(service: TableService, store: Store) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    await service.add_ai(rec.id, ALICE, level="strong")
    await service.start(rec.id, ALICE)
    await service.end_table(rec.id, ALICE)
    (result,) = await store.results("test", "chat1", limit=5)
    assert [(s.name, s.level) for s in result.seats] == [("Alice", "normal"), ("AI 1", "strong")]
    history = await Standings(store, FakeClock()).history("test", "chat1", [], "ru")
    assert "ИИ 1 (сильный)" in history
    again = await service.rematch("test", "chat1", ALICE)  # same seats: the AI keeps its level
    assert [s.level for s in again.seats] == ["normal", "strong"]


def test_a_seat_stored_before_levels_loads_as_normal() -> None:
    old = {"kind": "ai", "platform": None, "user_id": None, "name": "AI 1", "away": False}
    assert SeatRecord.model_validate(old).level == "normal"


async def test_an_old_sqlite_table_and_result_without_levels_load(tmp_path: Path) -> None:
    path = str(tmp_path / "old.db")
    store = SqliteStore(path)
    await store.open()
    service = TableService(store, FakeClock(), new_table_id=lambda: "t1", new_seed=lambda: 7)
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    await service.join(rec.id, BOB)
    await service.add_ai(rec.id, ALICE, level="easy")
    await service.start(rec.id, ALICE)
    await service.end_table(rec.id, ALICE)
    await store.close()
    old_seats = ('[{"kind": "human", "platform": "test", "user_id": "1", "name": "Alice", "away": false},'
                 ' {"kind": "human", "platform": "test", "user_id": "2", "name": "Bob", "away": false},'
                 ' {"kind": "ai", "platform": null, "user_id": null, "name": "AI 1", "away": false}]')
    with closing(sqlite3.connect(path)) as conn:  # as a release before levels wrote them
        conn.execute("UPDATE game_tables SET seats = ?", (old_seats,))
        conn.execute("UPDATE match_results SET seats = ?", (old_seats,))
        conn.commit()
    store = SqliteStore(path)
    await store.open()
    try:
        loaded = await store.get_table("t1")
        assert loaded is not None and [s.level for s in loaded.seats] == ["normal"] * 3
        (result,) = await store.results("test", "chat1", limit=5)
        assert [s.level for s in result.seats] == ["normal"] * 3
        assert "AI 1" in await Standings(store, FakeClock()).history("test", "chat1", [], "en")
    finally:
        await store.close()
