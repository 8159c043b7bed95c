"""WAL checkpoints happen off the request path and keep the WAL file bounded under a write load.
Measured by file size after every batch of writes (never by time)."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from storage import SqliteStore
from tests.storage.records import make_entries, make_table

TABLES = 20
ROUNDS = 90
STATE = {"stock": [f"r{i % 13 + 1}" for i in range(400)]}  # ~3 KB per row, like a real snapshot


async def wal_sizes(store: SqliteStore) -> list[int]:
    """Write ROUNDS rounds of TABLES concurrent commits; the WAL file size after each round."""
    for i in range(TABLES):
        await store.create_table(make_table(f"t{i}", chat_id=f"chat-{i}"))
    sizes = []
    for version in range(ROUNDS):
        await asyncio.gather(*(
            store.commit(make_table(f"t{i}", chat_id=f"chat-{i}", status="playing", state={**STATE, "v": version}),
                         version, make_entries(f"t{i}", version + 1, 1))
            for i in range(TABLES)))
        sizes.append(os.path.getsize(store.path + "-wal"))
    return sizes


async def test_without_checkpoints_the_wal_grows(tmp_path: Path) -> None:
    # The control: nothing checkpoints (the writer never does so inside a COMMIT), so the WAL keeps
    # every frame, which is what the bounds below are compared with.
    store = SqliteStore(str(tmp_path / "none.db"), checkpoint_every=10**9, wal_limit_bytes=10**12)
    await store.open()
    try:
        sizes = await wal_sizes(store)
    finally:
        await store.close()
    assert sizes == sorted(sizes) and sizes[-1] > 9 * 1024 * 1024


async def test_background_checkpoints_bound_the_wal(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "bg.db"), checkpoint_every=4 * TABLES, wal_limit_bytes=10**12)
    await store.open()
    try:
        sizes = await wal_sizes(store)
        assert store.writer is not None and store.writer.stats.checkpoints > 0
        assert store.writer.stats.forced == 0
    finally:
        await store.close()
    # The control passes 9 MB and keeps growing. The checkpoint thread runs when the machine lets it,
    # so the bound leaves room for a loaded machine (4 MB was once exceeded under heavy load).
    assert max(sizes) < 6 * 1024 * 1024


async def test_the_writer_truncates_a_wal_past_its_limit(tmp_path: Path) -> None:
    limit = 512 * 1024
    store = SqliteStore(str(tmp_path / "limit.db"), checkpoint_every=10**9, wal_limit_bytes=limit)
    await store.open()
    try:
        sizes = await wal_sizes(store)
        assert store.writer is not None and store.writer.stats.forced > 0
    finally:
        await store.close()
    one_round = 2 * 1024 * 1024  # a round of writes may land before the next truncation
    assert max(sizes) <= limit + one_round
