"""SqliteStore's claims (migration 005): which process does a table's clock work.

Each claim is one statement run by the store's writer inside its shared BEGIN IMMEDIATE
transaction (its own savepoint), so two processes on one file claim one after the other and the
second sees the first's rows: an `INSERT … ON CONFLICT
DO UPDATE … WHERE` that only overwrites a claim that expired, is the caller's own or belongs to an
owner proven dead (`dead`), `RETURNING` the ids it took (SQLite >= 3.35).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, TypeVar

from storage.models import ClaimWrite

if TYPE_CHECKING:
    from storage.sqlite_rows import LoopReader

T = TypeVar("T")

# A claim row is overwritten only when its lease ran out, it is the claimer's own (a renewal) or its
# owner is proven dead (`{dead}`: the placeholders of those owners, see _dead).
_TAKE = ("ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until "
         "WHERE table_claims.until <= :now OR table_claims.owner = :owner OR table_claims.owner IN ({dead}) "
         "RETURNING table_id")
_FREE = ("NOT EXISTS (SELECT 1 FROM table_claims c WHERE c.table_id = g.id "
         "AND c.until > :now AND c.owner != :owner AND c.owner NOT IN ({dead}))")
# Due: a passed turn deadline, or automatic moves nobody played (`wake`, migration 006).
_DUE = "g.status = 'playing' AND (g.deadline <= :now OR g.wake <= :now)"
_NO_OWNER = "''"
_DUE_AT = "min(coalesce(g.deadline, g.wake), coalesce(g.wake, g.deadline))"


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


def _in_order(db: sqlite3.Connection, ids: list[str], sql: str) -> list[str]:
    if len(ids) < 2:
        return ids
    return [r[0] for r in db.execute(sql.format(", ".join("?" * len(ids))), ids).fetchall()]


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
                        dead: Sequence[str] = ()) -> list[str]:
        args: dict[str, object] = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}
        names = _dead(args, dead)

        def work(db: sqlite3.Connection) -> list[str]:
            taken = _ids(db, (
                "INSERT INTO table_claims (table_id, owner, until) "
                f"SELECT g.id, :owner, :until FROM game_tables g WHERE {_DUE} AND {_FREE.format(dead=names)} "
                f"ORDER BY {_DUE_AT}, g.id LIMIT :limit {_TAKE.format(dead=names)}"), args)
            # RETURNING promises no order: the earliest due first.
            return _in_order(db, taken, f"SELECT g.id FROM game_tables g WHERE g.id IN ({{}}) ORDER BY {_DUE_AT}, g.id")

        return await self._write(work)

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100,
                          dead: Sequence[str] = ()) -> list[str]:
        args: dict[str, object] = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}
        sql = ("UPDATE table_claims SET owner = :owner, until = :until WHERE table_id IN ("
               "SELECT c.table_id FROM table_claims c JOIN game_tables g ON g.id = c.table_id "
               f"WHERE (c.until <= :now OR c.owner IN ({_dead(args, dead)})) AND g.status = 'playing' "
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
