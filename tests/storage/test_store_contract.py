"""The Store contract: every backend must pass this same suite (ARCHITECTURE.md, "Storage")."""

from __future__ import annotations

import asyncio

import pytest

from storage import LogEntry, SeatRecord, Store, TableExists, TableNotFound, TableRecord, VersionConflict

# The helpers other test files import from here; the `store` fixture (every backend) is in conftest.py.
from tests.storage.records import FakeClock, make_entries, make_result, make_table

__all__ = ["FakeClock", "make_entries", "make_result", "make_table"]


# --- tables -------------------------------------------------------------------------------------------

async def test_every_field_round_trips(store: Store) -> None:
    rec = make_table(
        topic_id="topic-9", status="playing", host_platform=None, host_user_id=None,
        options={"turn_timer_s": 30, "nested": {"a": [1, 2.5, None, True]}, "ünïcode": "☃"},
        seed=2**63 - 1, deck=["r1", "r2", "j"],
        seats=[SeatRecord(kind="human", platform="discord", user_id="42", name="Zoë", away=True),
               SeatRecord(kind="ai", platform=None, user_id=None, name="Bot 1")],
        version=3, state={"hands": [["r1"], ["k13"]], "stock": [], "turn": 1}, log_seq=5,
        deadline=1234.5678901234, created_at=99.25, updated_at=101.125, meta={"message_id": 77, "lang": "de"},
    )
    await store.create_table(rec)
    assert await store.get_table("t1") == rec


async def test_defaults_and_nulls_round_trip(store: Store) -> None:
    rec = make_table(host_platform=None, host_user_id=None, seats=[], options={})
    await store.create_table(rec)
    got = await store.get_table("t1")
    assert got == rec
    assert got is not None and got.state is None and got.deck is None and got.deadline is None


async def test_missing_table_is_none(store: Store) -> None:
    assert await store.get_table("nope") is None


async def test_duplicate_id_is_refused(store: Store) -> None:
    await store.create_table(make_table(status="finished"))
    with pytest.raises(TableExists):
        await store.create_table(make_table(chat_id="elsewhere"))


async def test_callers_cannot_mutate_stored_data(store: Store) -> None:
    rec = make_table(options={"deep": {"x": 1}})
    await store.create_table(rec)
    rec.options["deep"]["x"] = 2
    got = await store.get_table("t1")
    assert got is not None
    got.options["deep"]["x"] = 3
    got.seats[0].name = "Mallory"
    again = await store.get_table("t1")
    assert again is not None and again.options == {"deep": {"x": 1}} and again.seats[0].name == "Ann"


async def test_list_tables_by_status(store: Store) -> None:
    await store.create_table(make_table("b", status="playing", chat_id="c2", created_at=5.0))
    await store.create_table(make_table("a", status="lobby", chat_id="c1", created_at=6.0))
    await store.create_table(make_table("c", status="finished", chat_id="c1", created_at=1.0))
    assert [t.id for t in await store.list_tables(["lobby", "playing"])] == ["b", "a"]
    assert [t.id for t in await store.list_tables(["finished", "abandoned"])] == ["c"]
    assert await store.list_tables([]) == []


# --- active table per chat ------------------------------------------------------------------------------

async def test_active_table_for_chat(store: Store) -> None:
    await store.create_table(make_table("old", status="finished"))
    await store.create_table(make_table("lobby", status="lobby"))
    await store.create_table(make_table("topic", status="playing", topic_id="7"))
    await store.create_table(make_table("discord", status="playing", platform="discord"))
    assert (await store.active_table_for_chat("telegram", "chat-1")).id == "lobby"  # type: ignore[union-attr]
    assert (await store.active_table_for_chat("telegram", "chat-1", "7")).id == "topic"  # type: ignore[union-attr]
    assert (await store.active_table_for_chat("discord", "chat-1")).id == "discord"  # type: ignore[union-attr]
    assert await store.active_table_for_chat("telegram", "chat-1", "8") is None
    assert await store.active_table_for_chat("telegram", "chat-2") is None


async def test_one_active_table_per_chat_and_topic(store: Store) -> None:
    first = make_table("t1", status="playing")
    await store.create_table(first)
    with pytest.raises(TableExists):
        await store.create_table(make_table("t2", status="lobby"))
    await store.create_table(make_table("t3", status="lobby", topic_id="other"))
    await store.create_table(make_table("t4", status="abandoned"))  # history never blocks
    # Once the first table ends, the chat is free again.
    await store.commit(first.model_copy(update={"status": "finished"}), expected_version=0)
    await store.create_table(make_table("t2", status="lobby"))
    assert (await store.active_table_for_chat("telegram", "chat-1")).id == "t2"  # type: ignore[union-attr]
    # ...and a finished table cannot be revived over the new one.
    with pytest.raises(TableExists):
        await store.commit(first.model_copy(update={"status": "lobby"}), expected_version=1)
    assert (await store.get_table("t1")).status == "finished"  # type: ignore[union-attr]


# --- commit -------------------------------------------------------------------------------------------

async def test_commit_bumps_version_writes_snapshot_and_log(store: Store) -> None:
    await store.create_table(make_table())
    rec = make_table(status="playing", state={"turn": 1}, deadline=500.0, updated_at=300.0, meta={"m": 1})
    stored = await store.commit(rec, expected_version=0, entries=make_entries("t1", 1, 2))
    assert stored.version == 1 and stored.log_seq == 2
    assert stored == rec.model_copy(update={"version": 1, "log_seq": 2})
    assert await store.get_table("t1") == stored
    assert await store.log("t1") == make_entries("t1", 1, 2)

    again = await store.commit(stored.model_copy(update={"state": {"turn": 2}}), 1, make_entries("t1", 3, 1))
    assert (again.version, again.log_seq, again.state) == (2, 3, {"turn": 2})
    assert [e.seq for e in await store.log("t1")] == [1, 2, 3]


async def test_commit_ignores_callers_version_log_seq_and_created_at(store: Store) -> None:
    await store.create_table(make_table())
    stored = await store.commit(make_table(version=99, log_seq=42, created_at=1.0), expected_version=0)
    assert (stored.version, stored.log_seq, stored.created_at) == (1, 0, 100.0)
    assert await store.get_table("t1") == stored


async def test_commit_without_entries_keeps_log_seq(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(), 0, make_entries("t1", 1, 3))
    stored = await store.commit(make_table(status="playing"), 1)
    assert (stored.version, stored.log_seq, stored.status) == (2, 3, "playing")


async def test_version_conflict_writes_nothing(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(state={"turn": 1}), 0, make_entries("t1", 1, 1))
    before, log_before = await store.get_table("t1"), await store.log("t1")
    with pytest.raises(VersionConflict) as err:
        await store.commit(make_table(state={"turn": 99}), 0, make_entries("t1", 2, 1))
    assert (err.value.expected, err.value.actual) == (0, 1)
    assert await store.get_table("t1") == before
    assert await store.log("t1") == log_before


@pytest.mark.parametrize(("case", "entries"), [
    ("gap", make_entries("t1", 3, 1)),
    ("replay", make_entries("t1", 1, 1)),
    ("hole in batch", [*make_entries("t1", 2, 1), *make_entries("t1", 4, 1)]),
    ("other table", make_entries("t2", 2, 1)),
])
async def test_log_must_continue_densely(store: Store, case: str, entries: list[LogEntry]) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(), 0, make_entries("t1", 1, 1))
    before = await store.get_table("t1")
    with pytest.raises(ValueError):
        await store.commit(make_table(state={"x": case}), 1, entries)
    assert await store.get_table("t1") == before
    assert [e.seq for e in await store.log("t1")] == [1]


async def test_commit_unknown_table(store: Store) -> None:
    with pytest.raises(TableNotFound):
        await store.commit(make_table("ghost"), 0)


async def test_concurrent_commits_one_wins(store: Store) -> None:
    await store.create_table(make_table())
    attempts = [store.commit(make_table(state={"by": i}), 0, make_entries("t1", 1, 1)) for i in range(8)]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    winners = [o for o in outcomes if isinstance(o, TableRecord)]
    assert len(winners) == 1 and all(isinstance(o, VersionConflict) for o in outcomes if o not in winners)
    assert await store.get_table("t1") == winners[0]
    assert len(await store.log("t1")) == 1


async def test_log_after_seq(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(), 0, make_entries("t1", 1, 5))
    assert [e.seq for e in await store.log("t1", after_seq=3)] == [4, 5]
    assert await store.log("t1", after_seq=5) == []
    assert await store.log("unknown") == []


# --- deadlines ------------------------------------------------------------------------------------------

async def test_due_tables(store: Store) -> None:
    tables = [
        make_table("late", status="playing", chat_id="c1", deadline=90.0),
        make_table("now", status="playing", chat_id="c2", deadline=100.0),
        make_table("later", status="playing", chat_id="c3", deadline=100.5),
        make_table("untimed", status="playing", chat_id="c4", deadline=None),
        make_table("lobby", status="lobby", chat_id="c5", deadline=10.0),
        make_table("done", status="finished", chat_id="c6", deadline=10.0),
        make_table("earliest", status="playing", chat_id="c7", deadline=50.0),
    ]
    for t in tables:
        await store.create_table(t)
    assert await store.due_tables(100.0) == ["earliest", "late", "now"]
    assert await store.due_tables(0.0) == []


async def test_due_tables_follow_commits(store: Store) -> None:
    await store.create_table(make_table(status="playing", deadline=50.0))
    assert await store.due_tables(60.0) == ["t1"]
    await store.commit(make_table(status="playing", deadline=120.0), 0)
    assert await store.due_tables(60.0) == []


# --- players ------------------------------------------------------------------------------------------

async def test_players(store: Store, clock: FakeClock) -> None:
    assert await store.get_player("telegram", "u1") is None
    await store.upsert_player("telegram", "u1", "Ann")
    clock.now = 2_000.0
    await store.upsert_player("telegram", "u1", "Anna")
    await store.upsert_player("discord", "u1", "Other Ann")
    p = await store.get_player("telegram", "u1")
    assert p is not None and (p.name, p.created_at) == ("Anna", 1_000.0)
    q = await store.get_player("discord", "u1")
    assert q is not None and (q.name, q.created_at) == ("Other Ann", 2_000.0)


# --- results ------------------------------------------------------------------------------------------

async def test_record_result_exactly_once(store: Store) -> None:
    first = make_result("t1", 10.0)
    assert await store.record_result(first) is True
    assert await store.record_result(make_result("t1", 20.0, result={"other": True})) is False
    assert await store.results("telegram", "chat-1") == [first]


async def test_record_result_exactly_once_concurrently(store: Store) -> None:
    outcomes = await asyncio.gather(*(store.record_result(make_result("t1", float(i))) for i in range(10)))
    assert sorted(outcomes) == [False] * 9 + [True]
    assert len(await store.results("telegram", "chat-1")) == 1


async def test_results_newest_first_scoped_and_limited(store: Store) -> None:
    await store.record_result(make_result("a", 10.0))
    await store.record_result(make_result("b", 30.0, status="abandoned"))
    await store.record_result(make_result("c", 20.0, game="canasta"))
    await store.record_result(make_result("d", 30.0))  # ties with b: the later record counts as newer
    await store.record_result(make_result("x", 99.0, chat_id="chat-2"))
    await store.record_result(make_result("y", 99.0, platform="discord"))
    assert [r.table_id for r in await store.results("telegram", "chat-1")] == ["d", "b", "c", "a"]
    assert [r.table_id for r in await store.results("telegram", "chat-1", limit=2)] == ["d", "b"]
    assert [r.table_id for r in await store.results("telegram", "chat-1", game="canasta")] == ["c"]
    assert await store.results("telegram", "chat-1", limit=0) == []
    assert await store.results("telegram", "nobody") == []


# --- adapter data (migration 002) ---------------------------------------------------------------


async def test_chat_settings_round_trip(store: Store) -> None:
    assert await store.chat_settings("telegram", "-100") == {}
    await store.set_chat_settings("telegram", "-100", {"lang": "ru", "dm": True})
    assert await store.chat_settings("telegram", "-100") == {"lang": "ru", "dm": True}
    await store.set_chat_settings("telegram", "-100", {"lang": "en"})
    assert await store.chat_settings("telegram", "-100") == {"lang": "en"}
    assert await store.chat_settings("discord", "-100") == {}


async def test_claim_update_is_exactly_once_and_prunable(store: Store) -> None:
    assert await store.claim_update("telegram", "7", 10.0)
    assert not await store.claim_update("telegram", "7", 11.0)
    assert await store.claim_update("discord", "7", 11.0)
    assert await store.claim_update("telegram", "8", 20.0)
    assert await store.prune_updates("telegram", 15.0) == 1
    assert await store.claim_update("telegram", "7", 30.0)  # forgotten, so new again
    assert not await store.claim_update("telegram", "8", 30.0)


async def test_table_refs_do_not_touch_the_table(store: Store) -> None:
    await store.create_table(make_table())
    assert await store.table_refs("t1") == {}
    await store.set_table_ref("t1", "table_msg", {"chat": -5, "id": 12})
    await store.set_table_ref("t1", "hand:42", 99)
    await store.set_table_ref("t1", "hand:42", 100)
    assert await store.table_refs("t1") == {"table_msg": {"chat": -5, "id": 12}, "hand:42": 100}
    await store.set_table_ref("t1", "hand:42", None)
    assert await store.table_refs("t1") == {"table_msg": {"chat": -5, "id": 12}}
    assert (await store.get_table("t1")).version == 0  # type: ignore[union-attr]
