"""`copy_store` (behind `rummyclub export`): SQLite -> PostgreSQL -> SQLite keeps every row."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from storage import MatchPlayerRecord, PostgresStore, RatingRecord, SqliteStore, Store
from storage.transfer import TABLES, TransferError, copy_store
from tests.storage.records import make_entries, make_result, make_table


async def fill(store: Store) -> None:
    """A row in every table the bot keeps, with the awkward values: JSON, unicode, booleans, NULLs."""
    await store.create_table(make_table("t1", status="playing", deadline=1234.5, meta={"lang": "ru", "ü": [1]}),
                             key="tg:1", reply={"events": ["x"]})
    rec = await store.get_table("t1")
    assert rec is not None
    await store.commit(rec, expected_version=0, entries=make_entries("t1", 1, 3))
    await store.create_table(make_table("t2", status="finished", chat_id="c2", topic_id="7"))
    await store.upsert_player("telegram", "u1", "Zoë")
    await store.record_result(make_result("t2", 500.0))
    await store.record_result(make_result("t3", 500.0, status="abandoned"))  # a tie on finished_at

    def rate(result, current):  # noqa: ANN001, ANN202 - the RateFn shape
        rating = RatingRecord(platform=result.platform, scope="chat-1", game=result.game, subject="p:u1",
                              kind="player", name="Zoë", rating=1512.5, matches=1, wins=1, points=12,
                              mu=26.1, sigma=7.9, updated_at=501.0)
        seat = MatchPlayerRecord(table_id=result.table_id, seat=0, platform=result.platform, chat_id=result.chat_id,
                                 game=result.game, finished_at=result.finished_at, kind="human", user_id="u1",
                                 name="Zoë", place=1, won=True, score=12)
        return [seat], [rating]

    assert await store.rate_result("t2", [("chat-1", "p:u1")], rate)
    await store.set_team_name("telegram", "chat-1", "team:a", "Кошки")
    await store.set_chat_settings("telegram", "chat-1", {"lang": "ru", "timer": 60})
    await store.claim_update("telegram", "upd-9", 77.0)
    await store.set_table_ref("t1", "message", {"id": 5})
    await store.claim_table("t1", "some-process", 1000.0, 30.0)  # not copied: process-local


def sqlite_rows(path: Path) -> dict[str, list[tuple]]:
    with sqlite3.connect(path) as db:
        return {t: sorted(db.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}


async def test_sqlite_to_postgres_to_sqlite_round_trip_is_equal(tmp_path: Path, postgres_url: str) -> None:
    first, pg, last = SqliteStore(str(tmp_path / "old.db")), PostgresStore(postgres_url), SqliteStore(
        str(tmp_path / "new.db"))
    for s in (first, pg, last):
        await s.open()
    try:
        await fill(first)
        there = await copy_store(first, pg)
        back = await copy_store(pg, last)
        assert there == back and all(there[t] >= 1 for t in TABLES), there
        # The store's own reads agree on the PostgreSQL copy too.
        assert await pg.get_table("t1") == await first.get_table("t1")
        assert await pg.log("t1") == await first.log("t1")
        assert await pg.results("telegram", "chat-1") == await first.results("telegram", "chat-1")
        assert await pg.ratings("telegram", "chat-1") == await first.ratings("telegram", "chat-1")
        assert await pg.action_key("tg:1") == await first.action_key("tg:1")
        assert await pg.claim_table("t1", "new-process", 1000.0, 30.0)  # the old claim stayed behind
    finally:
        for s in (first, pg, last):
            await s.close()
    assert sqlite_rows(tmp_path / "new.db") == sqlite_rows(tmp_path / "old.db")


async def test_a_destination_holding_data_is_refused_untouched(tmp_path: Path) -> None:
    src, dst = SqliteStore(str(tmp_path / "a.db")), SqliteStore(str(tmp_path / "b.db"))
    for s in (src, dst):
        await s.open()
    try:
        await fill(src)
        await dst.upsert_player("discord", "9", "Already here")
        with pytest.raises(TransferError, match="players"):
            await copy_store(src, dst)
        assert await dst.get_table("t1") is None
    finally:
        for s in (src, dst):
            await s.close()
