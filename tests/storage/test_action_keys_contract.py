"""Idempotency keys (migration 004), on every backend: a keyed change is recorded in the same
transaction as the change, and a second change under the same key writes nothing."""

from __future__ import annotations

import pytest

from storage import DuplicateAction, Store, VersionConflict
from tests.storage.records import make_entries, make_table

# `store` (every backend) comes from conftest.py.


async def test_keyed_commit_records_the_key_with_the_new_version(store: Store) -> None:
    await store.create_table(make_table())
    assert await store.action_key("tg:1") is None
    saved = await store.commit(make_table(status="playing", updated_at=321.5), 0, make_entries("t1", 1, 1),
                               key="tg:1", reply={"command": "draw #1", "events": [{"type": "Drawn"}]})
    found = await store.action_key("tg:1")
    assert found is not None
    # Stamped with the change's own time, the clock the service prunes by.
    assert (found.table_id, found.version, found.at) == ("t1", saved.version, 321.5)
    assert found.reply == {"command": "draw #1", "events": [{"type": "Drawn"}]}


async def test_a_repeated_key_writes_nothing_and_names_the_first_change(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(status="playing"), 0, make_entries("t1", 1, 1), key="tg:1", reply={"n": 1})
    before = await store.get_table("t1")
    # The repeat is up to date (expected version 1): only the key stops it.
    with pytest.raises(DuplicateAction) as caught:
        await store.commit(make_table(status="playing", seats=[]), 1, make_entries("t1", 2, 1), key="tg:1",
                           reply={"n": 2})
    assert caught.value.record.version == 1 and caught.value.record.reply == {"n": 1}
    assert await store.get_table("t1") == before
    assert [e.seq for e in await store.log("t1")] == [1]


async def test_a_stale_repeat_is_a_duplicate_not_a_conflict(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(status="playing"), 0, make_entries("t1", 1, 1), key="tg:1")
    with pytest.raises(DuplicateAction):
        await store.commit(make_table(status="playing"), 0, make_entries("t1", 1, 1), key="tg:1")
    with pytest.raises(VersionConflict):  # an unkeyed stale writer is still a conflict
        await store.commit(make_table(status="playing"), 0)


async def test_a_failed_commit_does_not_use_up_its_key(store: Store) -> None:
    await store.create_table(make_table())
    with pytest.raises(VersionConflict):
        await store.commit(make_table(status="playing"), 5, key="tg:1")
    assert await store.action_key("tg:1") is None
    await store.commit(make_table(status="playing"), 0, key="tg:1")
    assert await store.action_key("tg:1") is not None


async def test_keyed_create_table(store: Store) -> None:
    await store.create_table(make_table(), key="tg:new", reply={"opened": True})
    found = await store.action_key("tg:new")
    assert found is not None and (found.table_id, found.version, found.reply) == ("t1", 0, {"opened": True})
    with pytest.raises(DuplicateAction):
        await store.create_table(make_table("t2", chat_id="elsewhere"), key="tg:new")
    assert await store.get_table("t2") is None


async def test_keys_are_pruned_by_age(store: Store) -> None:
    await store.create_table(make_table())
    await store.commit(make_table(updated_at=1_000.0), 0, key="old")
    await store.commit(make_table(updated_at=1_100.0), 1, key="new")
    assert await store.prune_action_keys(1_050.0) == 1
    assert await store.action_key("old") is None and await store.action_key("new") is not None


async def test_update_claimed_sees_claims(store: Store) -> None:
    assert not await store.update_claimed("telegram", "7")
    await store.claim_update("telegram", "7", 1.0)
    assert await store.update_claimed("telegram", "7")
    assert not await store.update_claimed("discord", "7")
