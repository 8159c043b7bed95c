"""The Store contract for standings (migration 003), on every backend: a result lands with the table's
final commit, is rated exactly once, and the boards read what was rated."""

from __future__ import annotations

import asyncio

import pytest

from storage import (
    GLOBAL_SCOPE,
    MatchPlayerRecord,
    MatchResultRecord,
    RatingKey,
    RatingRecord,
    SeatRecord,
    Store,
    TableNotFound,
    VersionConflict,
)
from tests.storage.records import make_result, make_table

# `store` (every backend) comes from conftest.py.


def seat_row(result: MatchResultRecord, seat: int, user: str, won: bool, score: int, team: str | None = None
             ) -> MatchPlayerRecord:
    return MatchPlayerRecord(table_id=result.table_id, seat=seat, platform=result.platform, chat_id=result.chat_id,
                             game=result.game, finished_at=result.finished_at, kind="human", user_id=user,
                             name=user.upper(), team=team, place=1 if won else 2, won=won, score=score)


def rating(result: MatchResultRecord, scope: str, subject: str, value: float, matches: int = 1, wins: int = 0,
           kind: str = "player") -> RatingRecord:
    return RatingRecord(platform=result.platform, scope=scope, game=result.game, subject=subject, kind=kind,
                        name=subject, mu=value + 3, sigma=1.0, rating=value, matches=matches, wins=wins, points=0,
                        updated_at=result.finished_at)


def simple_rate(calls: list[dict[RatingKey, RatingRecord]]):
    """A stand-in for the real rater: +1 for seat 0 (the winner), -1 for seat 1, per scope."""
    def rate(result: MatchResultRecord, current: dict[RatingKey, RatingRecord]):
        calls.append(current)
        rows = [seat_row(result, 0, "a", True, 10), seat_row(result, 1, "b", False, 3)]
        out = []
        for scope in (result.chat_id, GLOBAL_SCOPE):
            for subject, delta, won in (("p:a", 1.0, 1), ("p:b", -1.0, 0)):
                old = current.get((scope, subject))
                out.append(rating(result, scope, subject, (old.rating if old else 0.0) + delta,
                                  (old.matches if old else 0) + 1, (old.wins if old else 0) + won))
        return rows, out
    return rate


KEYS: list[RatingKey] = [(s, p) for s in ("chat-1", GLOBAL_SCOPE) for p in ("p:a", "p:b")]


async def finish(store: Store, table_id: str, at: float, **fields) -> MatchResultRecord:
    await store.create_table(make_table(table_id, status="playing"))
    rec = make_table(table_id, status="finished")
    result = make_result(table_id, at, **fields)
    await store.commit(rec, 0, result=result)
    return result


async def test_commit_stores_the_result_with_the_snapshot(store: Store) -> None:
    await finish(store, "t1", 10.0)
    assert (await store.get_table("t1")).status == "finished"
    (stored,) = await store.results("telegram", "chat-1")
    assert stored.table_id == "t1"
    assert [r.table_id for r in await store.unrated_results()] == ["t1"]


async def test_a_refused_commit_stores_no_result(store: Store) -> None:
    await store.create_table(make_table("t1", status="playing"))
    with pytest.raises(VersionConflict):
        await store.commit(make_table("t1", status="finished"), 5, result=make_result("t1", 1.0))
    with pytest.raises(TableNotFound):
        await store.commit(make_table("zz", status="finished"), 0, result=make_result("zz", 1.0))
    assert await store.results("telegram", "chat-1") == []


async def test_result_delivered_twice_is_stored_once(store: Store) -> None:
    first = await finish(store, "t1", 10.0)
    assert await store.record_result(first.model_copy(update={"finished_at": 99.0})) is False
    rec = await store.get_table("t1")
    await store.commit(rec, rec.version, result=first.model_copy(update={"finished_at": 50.0}))  # a retry
    (stored,) = await store.results("telegram", "chat-1")
    assert stored.finished_at == 10.0


async def test_rating_happens_exactly_once(store: Store) -> None:
    await finish(store, "t1", 10.0)
    calls: list = []
    both = await asyncio.gather(*(store.rate_result("t1", KEYS, simple_rate(calls)) for _ in range(5)))
    assert sorted(both) == [False] * 4 + [True] and len(calls) == 1
    assert await store.unrated_results() == []
    board = await store.board("telegram", "chat-1", "rummikub")
    assert [(b.subject, b.rating, b.matches, b.wins) for b in board] == [("p:a", 1.0, 1, 1), ("p:b", -1.0, 1, 0)]
    await finish(store, "t2", 20.0)
    assert await store.rate_result("t2", KEYS, simple_rate(calls)) is True
    assert calls[-1][("chat-1", "p:a")].rating == 1.0  # the second rating starts from the first
    assert [(b.rating, b.matches) for b in await store.board("telegram", GLOBAL_SCOPE, "rummikub")] == [
        (2.0, 2), (-2.0, 2)]


async def test_a_failing_rater_writes_nothing(store: Store) -> None:
    await finish(store, "t1", 10.0)

    def broken(result, current):
        raise RuntimeError("killed while rating")

    with pytest.raises(RuntimeError):
        await store.rate_result("t1", KEYS, broken)
    assert [r.table_id for r in await store.unrated_results()] == ["t1"]
    assert await store.board("telegram", "chat-1", "rummikub") == []
    assert await store.rate_result("t1", KEYS, simple_rate([])) is True


async def test_abandoned_results_are_never_rated(store: Store) -> None:
    await finish(store, "t1", 10.0, status="abandoned")
    assert await store.unrated_results() == []
    assert await store.rate_result("t1", KEYS, simple_rate([])) is False
    assert await store.rate_result("missing", KEYS, simple_rate([])) is False


async def test_unrated_results_oldest_first(store: Store) -> None:
    for table_id, at in (("b", 30.0), ("a", 10.0), ("c", 20.0)):
        await finish(store, table_id, at)
    assert [r.table_id for r in await store.unrated_results()] == ["a", "c", "b"]
    assert [r.table_id for r in await store.unrated_results(limit=1)] == ["a"]


async def test_period_board_counts_only_the_period(store: Store) -> None:
    for table_id, at in (("old", 10.0), ("new", 100.0)):
        await finish(store, table_id, at)
        await store.rate_result(table_id, KEYS, simple_rate([]))
    all_time = await store.board("telegram", "chat-1", "rummikub")
    recent = await store.board("telegram", "chat-1", "rummikub", since=50.0)
    assert [(b.subject, b.matches, b.wins, b.points) for b in all_time] == [("p:a", 2, 2, 0), ("p:b", 2, 0, 0)]
    assert [(b.subject, b.rating, b.matches, b.wins, b.points) for b in recent] == [
        ("p:a", 2.0, 1, 1, 10), ("p:b", -2.0, 1, 0, 3)]
    assert await store.board("telegram", "chat-1", "rummikub", since=500.0) == []
    assert await store.board("telegram", "chat-2", "rummikub") == []
    assert len(await store.board("telegram", GLOBAL_SCOPE, "rummikub", since=50.0)) == 2
    assert await store.board("telegram", "chat-1", "canasta") == []


async def test_player_matches_ratings_and_team_names(store: Store) -> None:
    await finish(store, "t1", 10.0)
    await store.rate_result("t1", KEYS, simple_rate([]))
    mine = await store.player_matches("telegram", "a")
    assert [(m.table_id, m.won, m.score) for m in mine] == [("t1", True, 10)]
    assert await store.player_matches("telegram", "a", chat_id="chat-2") == []
    assert await store.player_matches("telegram", "a", game="canasta") == []
    assert [r.subject for r in await store.ratings("telegram", "chat-1")] == ["p:a", "p:b"]
    assert await store.ratings("telegram", "chat-1", "team") == []
    assert await store.team_names("telegram", "chat-1") == {}
    await store.set_team_name("telegram", "chat-1", "t:a+b", "Aces")
    await store.set_team_name("telegram", "chat-1", "t:a+b", "Kings")
    assert await store.team_names("telegram", "chat-1") == {"t:a+b": "Kings"}
    assert await store.team_names("telegram", "chat-2") == {}


async def test_team_period_board_counts_a_match_once(store: Store) -> None:
    await finish(store, "t1", 10.0, seats=[SeatRecord(kind="human", platform="telegram", user_id=u, name=u)
                                           for u in "abcd"])

    def rate(result, current):
        rows = [seat_row(result, s, u, s % 2 == 0, 50 if s % 2 == 0 else 20, "t:a+c" if s % 2 == 0 else "t:b+d")
                for s, u in enumerate("abcd")]
        return rows, [rating(result, "chat-1", "t:a+c", 1.0, kind="team"), rating(result, "chat-1", "t:b+d", -1.0,
                                                                                    kind="team")]

    assert await store.rate_result("t1", [], rate)
    board = await store.board("telegram", "chat-1", "rummikub", kind="team", since=0.0)
    assert [(b.subject, b.matches, b.wins, b.points) for b in board] == [("t:a+c", 1, 1, 50), ("t:b+d", 1, 0, 20)]
    assert [b.subject for b in await store.board("telegram", "chat-1", "rummikub", kind="team")] == ["t:a+c", "t:b+d"]

