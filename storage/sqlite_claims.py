"""SqliteStore's claims (migration 005): which process does a table's clock work.

Each claim is one statement run by the store's writer inside its shared BEGIN IMMEDIATE
transaction (its own savepoint), so two processes on one file claim one after the other and the
second sees the first's rows: an `INSERT … ON CONFLICT
DO UPDATE … WHERE` that only overwrites a claim that expired, is the caller's own or belongs to an
owner proven dead (`dead`), `RETURNING` the ids it took (SQLite >= 3.35).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, TypeVar

from storage.models import EVERY_TABLE, ClaimScope, ClaimWrite

if TYPE_CHECKING:
    from storage.sqlite_rows import LoopReader

T = TypeVar("T")

# A claim row is overwritten only when its lease ran out, it is the claimer's own (a renewal) or its
# owner is proven dead (`{dead}`: the placeholders of those owners, see _dead).
_TAKE = ("ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until "
         "WHERE table_claims.until <= :now OR table_claims.owner = :owner OR table_claims.owner IN ({dead}) "
         "RETURNING table_id")
_FREE = ("NOT EXISTS (SELECT 1 FROM table_claims c WHERE c.table_id = d.id "
         "AND c.until > :now AND c.owner != :owner AND c.owner NOT IN ({dead}))")
# Due: a playing table's passed turn deadline or automatic moves nobody played (`wake`, migration
# 006), a lobby past its `expires` (migration 007). One arm per partial index, so each reads only
# what is due in the scope's platforms; `at` is when it fell due (the earliest first).
_DUE = ("SELECT g.id, g.deadline AS at FROM game_tables g WHERE g.status = 'playing' AND g.deadline <= :now{p} "
        "UNION ALL SELECT g.id, g.wake FROM game_tables g WHERE g.status = 'playing' AND g.wake <= :now{p} "
        "UNION ALL SELECT g.id, g.expires FROM game_tables g WHERE g.status = 'lobby' AND g.expires <= :now{p}")
_NO_OWNER = "''"


def _scope(args: dict[str, object], scope: ClaimScope) -> str:
    """The scope's filter on `g` as SQL (its values put in `args`): '' for every table."""
    sql = ""
    if scope.platforms is not None:
        names = []
        for i, platform in enumerate(scope.platforms):
            args[f"platform{i}"] = platform
            names.append(f":platform{i}")
        sql += f" AND g.platform IN ({', '.join(names) or _NO_OWNER})"
    if scope.shards is not None:
        count, ids = scope.shards
        args["shard_count"] = count
        sql += f" AND (g.shard_key IS NULL OR g.shard_key % :shard_count IN ({', '.join(map(str, ids)) or '-1'}))"
    return sql


def _dead(args: dict[str, object], dead: Sequence[str]) -> str:
    """`dead`'s owners as named parameters of `args`; the SQL list that names them. Never empty:
    `''` (no owner's name) stands for none, as NULL would make `NOT IN` unknown."""
    names = []
    for i, owner in enumerate(dead):
        args[f"dead{i}"] = owner
        names.append(f":dead{i}")
    return ", ".join(names) or _NO_OWNER


def _ids(db: sqlite3.Connection, sql: str, args: dict[str, object] | tuple[object, ...]) -> list[str]:
    return [r[0] for r in db.execute(sql, args).fetchall()]


def write_claim(db: sqlite3.Connection, table_id: str, claim: ClaimWrite) -> None:
    """A claim taken or dropped inside a commit's transaction (`Store.commit`'s `claim`)."""
    if claim.until is None:
        db.execute("DELETE FROM table_claims WHERE table_id = ? AND owner = ?", (table_id, claim.owner))
    else:
        db.execute("INSERT INTO table_claims (table_id, owner, until) VALUES (?, ?, ?) ON CONFLICT (table_id) "
                   "DO UPDATE SET owner = excluded.owner, until = excluded.until", (table_id, claim.owner, claim.until))


class SqliteClaims:
    if TYPE_CHECKING:
        async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T: ...

        def _read(self) -> AbstractAsyncContextManager[LoopReader]: ...

    async def claim_due(self, now: float, owner: str, lease_s: float, limit: int = 100,
                        dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        args: dict[str, object] = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}
        names = _dead(args, dead)
        due = _DUE.format(p=_scope(args, scope))

        def work(db: sqlite3.Connection) -> list[str]:
            # The writer's transaction holds SQLite's write lock: what is free now is free at the INSERT.
            due_ids = _ids(db, f"SELECT d.id FROM ({due}) d WHERE {_FREE.format(dead=names)} "
                               "GROUP BY d.id ORDER BY min(d.at), d.id LIMIT :limit", args)
            taken = set(_ids(db, "INSERT INTO table_claims (table_id, owner, until) "
                                 "SELECT value, :owner, :until FROM json_each(:ids) WHERE true "
                                 f"{_TAKE.format(dead=names)}", {**args, "ids": json.dumps(due_ids)}))
            return [t for t in due_ids if t in taken]  # RETURNING promises no order: the earliest due first

        return await self._write(work)

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100,
                          dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        args: dict[str, object] = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}
        sql = ("UPDATE table_claims SET owner = :owner, until = :until WHERE table_id IN ("
               "SELECT c.table_id FROM table_claims c JOIN game_tables g ON g.id = c.table_id "
               f"WHERE (c.until <= :now OR c.owner IN ({_dead(args, dead)})) AND g.status = 'playing'{_scope(args, scope)} "
               "ORDER BY c.until, c.table_id LIMIT :limit) RETURNING table_id")
        return sorted(await self._write(lambda db: _ids(db, sql, args)))

    async def claim_holders(self, now: float) -> list[str]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT DISTINCT owner FROM table_claims WHERE until > ? ORDER BY owner", (now,))
        return [r[0] for r in rows]

    async def claim_table(self, table_id: str, owner: str, now: float, lease_s: float) -> bool:
        args: dict[str, object] = {"now": now, "owner": owner, "until": now + lease_s, "id": table_id}
        sql = ("INSERT INTO table_claims (table_id, owner, until) "
               f"SELECT g.id, :owner, :until FROM game_tables g WHERE g.id = :id AND g.status = 'playing' "
               f"{_TAKE.format(dead=_NO_OWNER)}")
        return bool(await self._write(lambda db: _ids(db, sql, args)))

    async def hold_liveness(self, owner: str) -> None:
        pass  # one process's memory, or one machine's file: bot/core/liveness.py sees its processes

    async def gone(self, owners: Sequence[str]) -> list[str]:
        return []

    async def release_claim(self, table_id: str, owner: str) -> None:
        await self._write(lambda db: db.execute(
            "DELETE FROM table_claims WHERE table_id = ? AND owner = ?", (table_id, owner)))
