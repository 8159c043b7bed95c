"""Every finished match is stored exactly once, with the table's final commit; abandoned tables are
stored but never counted; AI seats are recorded, never ranked (issue 9, "Results")."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.core import stats as stats_module
from bot.core.clock import FakeClock
from bot.core.service import TableService
from storage import GLOBAL_SCOPE, SqliteStore, Store
from tests.stats.conftest import ALICE, BOB, quick_match


async def test_a_finished_match_is_stored_once_with_seats_rounds_and_winners(service: TableService) -> None:
    table_id = await quick_match(service, ALICE, BOB)
    (stored,) = await service.store.results("test", "chat1")
    assert stored.table_id == table_id and stored.status == "finished" and stored.game == "rummikub"
    assert [s.name for s in stored.seats] == ["Alice", "Bob"]
    data = stored.result
    assert data["match_winners"] == [0] and data["match_over"] is True
    assert data["rounds"] == [data["round_scores"]] and data["totals"] == data["round_scores"]
    assert data["totals"][0] > 0 > data["totals"][1]
    # Rated right after the commit: the winner went up, the loser down.
    assert await service.store.unrated_results() == []
    board = await service.store.board("test", "chat1", "rummikub")
    assert [(b.name, b.matches, b.wins) for b in board] == [("Alice", 1, 1), ("Bob", 1, 0)]
    assert board[0].rating > board[1].rating


async def test_a_result_delivered_twice_counts_once(service: TableService) -> None:
    table_id = await quick_match(service, ALICE, BOB)
    (stored,) = await service.store.results("test", "chat1")
    store = service.store
    assert await store.record_result(stored) is False  # a duplicate delivery
    rec = await store.get_table(table_id)
    await store.commit(rec, rec.version, result=stored.model_copy(update={"finished_at": 1.0}))  # and a retry
    assert await service.standings.catch_up() == 0
    assert len(await store.results("test", "chat1")) == 1
    (alice,) = [r for r in await store.ratings("test", "chat1") if r.name == "Alice"]
    assert alice.matches == 1 and alice.wins == 1
    (alice_global,) = [r for r in await store.ratings("test", GLOBAL_SCOPE) if r.name == "Alice"]
    assert alice_global.matches == 1


async def test_a_crash_in_the_final_commit_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The result is written inside the transaction that finishes the table: when that write dies,
    the table is not finished either, and the move can be made again."""
    store = SqliteStore(str(tmp_path / "crash.db"))
    await store.open()
    try:
        service = TableService(store, FakeClock(), new_table_id=lambda: "t1", new_seed=lambda: 5)
        real = SqliteStore._insert_result

        def dies(db, row):  # noqa: ANN001, ANN202 - runs inside the writer's transaction, as the real one
            raise RuntimeError("process killed while storing the result")

        monkeypatch.setattr(SqliteStore, "_insert_result", staticmethod(dies))
        with pytest.raises(RuntimeError):
            await quick_match(service, ALICE, BOB)
        rec = await store.get_table("t1")
        assert rec is not None and rec.status == "playing"  # the finishing move rolled back with it
        assert await store.results("test", "chat1") == []
        monkeypatch.setattr(SqliteStore, "_insert_result", staticmethod(real))
        from tests.stats.conftest import GO_OUT
        outcome = await service.act("t1", ALICE, GO_OUT)
        assert outcome.match_over
        (stored,) = await store.results("test", "chat1")
        assert stored.status == "finished" and stored.result["match_winners"] == [0]
    finally:
        await store.close()


async def test_a_crash_between_result_and_rating_is_caught_up_once(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    def dies(self, result, current):  # noqa: ANN001, ANN202
        raise RuntimeError("process killed while rating")

    real = stats_module.Rater.__call__
    monkeypatch.setattr(stats_module.Rater, "__call__", dies)
    await quick_match(service, ALICE, BOB)  # the match itself still ends cleanly
    assert [r.status for r in await service.store.results("test", "chat1")] == ["finished"]
    assert len(await service.store.unrated_results()) == 1
    assert await service.store.board("test", "chat1", "rummikub") == []
    monkeypatch.setattr(stats_module.Rater, "__call__", real)
    text = await service.standings.leaderboard("test", "chat1", [], "en")  # any query catches up first
    assert "1. Alice" in text and "2. Bob" in text
    assert await service.standings.catch_up() == 0
    assert [r.matches for r in await service.store.ratings("test", "chat1")] == [1, 1]


async def test_abandoned_tables_are_stored_but_not_counted(service: TableService, clock: FakeClock) -> None:
    rec = await service.open_table("rummikub", "test", "chat1", ALICE)
    await service.join(rec.id, BOB)
    await service.start(rec.id, ALICE)
    await service.end_table(rec.id, ALICE)
    lobby = await service.open_table("rummikub", "test", "chat1", BOB)
    clock.advance(service.lobby.lobby_ttl_s + 1)
    await service.tick()
    results = await service.store.results("test", "chat1")
    assert [(r.table_id, r.status) for r in results] == [(lobby.id, "abandoned"), (rec.id, "abandoned")]
    assert await service.store.unrated_results() == []
    assert await service.standings.leaderboard("test", "chat1", [], "en") == \
        "No counted matches here yet. Finish a game and the standings start."
    assert await service.standings.leaderboard("test", "chat1", ["rummikub"], "en") == \
        "🏆 Rummikub — this chat, all time\nNobody has finished a match in this period."
    history = await service.standings.history("test", "chat1", [], "en")
    assert history.count("abandoned (not counted)") == 2
    await quick_match(service, ALICE, BOB)
    board = await service.store.board("test", "chat1", "rummikub")
    assert [(b.name, b.matches) for b in board] == [("Alice", 1), ("Bob", 1)]  # the abandoned ones add nothing


async def test_ai_seats_are_recorded_but_never_ranked(service: TableService, store: Store) -> None:
    table_id = await quick_match(service, ALICE, BOB, ai_loser=True)
    (stored,) = await store.results("test", "chat1")
    assert [s.kind for s in stored.seats] == ["human", "ai"]
    rows = await store.player_matches("test", ALICE.user_id)
    assert [(r.table_id, r.won, r.place) for r in rows] == [(table_id, True, 1)]
    ratings = await store.ratings("test", "chat1")
    assert [r.name for r in ratings] == ["Alice"]  # no AI
    # Against nobody but the AI the match counts, but the rating does not move.
    assert ratings[0].matches == 1 and ratings[0].wins == 1 and ratings[0].mu == pytest.approx(25.0)
    board = await service.standings.leaderboard("test", "chat1", [], "en")
    assert "AI" not in board and "1. Alice" in board
