"""PostgresStore's claims (migration 005): which process does a table's clock work.

Each claim is one statement: the candidate game_tables rows are locked `FOR UPDATE … SKIP LOCKED`,
so two processes claiming at once divide the tables between them instead of queueing, and the
`INSERT … ON CONFLICT DO UPDATE … WHERE` only overwrites a claim that expired, is the caller's own
or belongs to an owner proven dead
(it sees the latest committed claim even when the statement's snapshot is older).
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING

import asyncpg

from storage.models import EVERY_TABLE, ClaimScope

# $1 now, $2 owner, $3 until, $5 the owners proven dead (their claims are taken whatever their lease).
_TAKE = ("ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, until = EXCLUDED.until "
         "WHERE table_claims.until <= $1 OR table_claims.owner = $2 OR table_claims.owner = ANY($5::text[]) "
         "RETURNING table_id")
_FREE = ("NOT EXISTS (SELECT 1 FROM table_claims c WHERE c.table_id = g.id AND c.until > $1 AND c.owner <> $2 "
         "AND c.owner <> ALL($5::text[]))")
# Due: a playing table's passed turn deadline or automatic moves nobody played (`wake`, migration
# 007), a lobby past its `expires` (migration 008). `_ARMS` finds them, one arm per partial index
# (platform, time) of its status, so the scope's filter `{p}` reads only what it takes; `_DUE` is
# checked again on the locked row (a move may have come meanwhile).
_ARMS = ("SELECT g.id, g.deadline AS at FROM game_tables g WHERE g.status = 'playing' AND g.deadline <= $1{p} "
         "UNION ALL SELECT g.id, g.wake FROM game_tables g WHERE g.status = 'playing' AND g.wake <= $1{p} "
         "UNION ALL SELECT g.id, g.expires FROM game_tables g WHERE g.status = 'lobby' AND g.expires <= $1{p}")
_DUE = "((g.status = 'playing' AND (g.deadline <= $1 OR g.wake <= $1)) OR (g.status = 'lobby' AND g.expires <= $1))"


def _scope(scope: ClaimScope, first: int) -> tuple[str, list[object]]:
    """The scope's filter on `g` as SQL, its parameters numbered from `first`: '' for every table."""
    sql = ""
    args: list[object] = []
    if scope.platforms is not None:
        args.append(list(scope.platforms))
        sql += f" AND g.platform = ANY(${first}::text[])"
    if scope.shards is not None:
        count, ids = scope.shards
        args += [count, list(ids)]
        n = first + len(args) - 2
        sql += f" AND (g.shard_key IS NULL OR g.shard_key % ${n}::bigint = ANY(${n + 1}::bigint[]))"
    return sql, args


class PostgresClaims:
    if TYPE_CHECKING:
        def _write(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...

        def _conn(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...

    async def claim_due(self, now: float, owner: str, lease_s: float, limit: int = 100,
                        dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        where, extra = _scope(scope, 6)
        async with self._write() as db:
            rows = await db.fetch(
                f"WITH arms AS ({_ARMS.format(p=where)}), "
                "cand AS (SELECT id, min(at) AS at FROM arms GROUP BY id), "
                f"due AS (SELECT g.id, c.at FROM game_tables g JOIN cand c ON c.id = g.id WHERE {_DUE} AND {_FREE} "
                "ORDER BY c.at, g.id LIMIT $4 FOR UPDATE OF g SKIP LOCKED), "
                f"taken AS (INSERT INTO table_claims (table_id, owner, until) SELECT id, $2, $3 FROM due {_TAKE}) "
                "SELECT d.id FROM due d JOIN taken t ON t.table_id = d.id ORDER BY d.at, d.id",
                now, owner, now + lease_s, max(limit, 0), list(dead), *extra)
        return [r["id"] for r in rows]

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100,
                          dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        where, extra = _scope(scope, 6)
        async with self._write() as db:
            rows = await db.fetch(
                "WITH stale AS (SELECT g.id FROM game_tables g JOIN table_claims c ON c.table_id = g.id "
                f"WHERE g.status = 'playing' AND (c.until <= $1 OR c.owner = ANY($5::text[])){where} "
                "ORDER BY c.until, g.id LIMIT $4 FOR UPDATE OF g SKIP LOCKED) "
                # The WHERE is checked again on the newest row version: a claim renewed meanwhile is kept.
                "UPDATE table_claims c SET owner = $2, until = $3 FROM stale s "
                "WHERE c.table_id = s.id AND (c.until <= $1 OR c.owner = ANY($5::text[])) RETURNING c.table_id",
                now, owner, now + lease_s, max(limit, 0), list(dead), *extra)
        return sorted(r["table_id"] for r in rows)

    async def claim_holders(self, now: float) -> list[str]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT DISTINCT owner FROM table_claims WHERE until > $1 ORDER BY owner", now)
        return [r["owner"] for r in rows]

    async def claim_table(self, table_id: str, owner: str, now: float, lease_s: float) -> bool:
        async with self._write() as db:
            rows = await db.fetch(
                # Waits (briefly) for a commit in flight on that row rather than skipping the table.
                "WITH one AS (SELECT g.id FROM game_tables g WHERE g.id = $4 AND g.status = 'playing' "
                "FOR UPDATE OF g) "
                f"INSERT INTO table_claims (table_id, owner, until) SELECT id, $2, $3 FROM one {_TAKE}",
                now, owner, now + lease_s, table_id, [])
        return bool(rows)

    async def release_claim(self, table_id: str, owner: str) -> None:
        async with self._write() as db:
            await db.execute("DELETE FROM table_claims WHERE table_id = $1 AND owner = $2", table_id, owner)
