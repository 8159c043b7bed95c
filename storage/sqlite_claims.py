"""SqliteStore's claims (migration 005): which process does a table's clock work.

Each claim is one statement run by the store's writer inside its shared BEGIN IMMEDIATE
transaction (its own savepoint), so two processes on one file claim one after the other and the
second sees the first's rows: an `INSERT … ON CONFLICT
DO UPDATE … WHERE` that only overwrites a claim that expired or is the caller's own, `RETURNING` the
ids it took (SQLite >= 3.35).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from storage.models import ClaimWrite

T = TypeVar("T")

# A claim row is overwritten only when its lease ran out or it is the claimer's own (a renewal).
_TAKE = ("ON CONFLICT (table_id) DO UPDATE SET owner = excluded.owner, until = excluded.until "
         "WHERE table_claims.until <= :now OR table_claims.owner = :owner RETURNING table_id")
_FREE = ("NOT EXISTS (SELECT 1 FROM table_claims c WHERE c.table_id = g.id "
         "AND c.until > :now AND c.owner != :owner)")


def _ids(db: sqlite3.Connection, sql: str, args: dict[str, object]) -> list[str]:
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

    async def claim_due(self, now: float, owner: str, lease_s: float, limit: int = 100) -> list[str]:
        args = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}

        def work(db: sqlite3.Connection) -> list[str]:
            taken = _ids(db, (
                "INSERT INTO table_claims (table_id, owner, until) "
                "SELECT g.id, :owner, :until FROM game_tables g "
                f"WHERE g.status = 'playing' AND g.deadline <= :now AND {_FREE} "
                f"ORDER BY g.deadline, g.id LIMIT :limit {_TAKE}"), args)
            # RETURNING promises no order: earliest deadline first, as due_tables.
            return _in_order(db, taken, "SELECT id FROM game_tables WHERE id IN ({}) ORDER BY deadline, id")

        return await self._write(work)

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100) -> list[str]:
        args = {"now": now, "owner": owner, "until": now + lease_s, "limit": max(limit, 0)}
        sql = ("UPDATE table_claims SET owner = :owner, until = :until WHERE table_id IN ("
               "SELECT c.table_id FROM table_claims c JOIN game_tables g ON g.id = c.table_id "
               "WHERE c.until <= :now AND g.status = 'playing' ORDER BY c.until, c.table_id LIMIT :limit) "
               "RETURNING table_id")
        return sorted(await self._write(lambda db: _ids(db, sql, args)))

    async def claim_table(self, table_id: str, owner: str, now: float, lease_s: float) -> bool:
        args = {"now": now, "owner": owner, "until": now + lease_s, "id": table_id}
        sql = ("INSERT INTO table_claims (table_id, owner, until) "
               f"SELECT g.id, :owner, :until FROM game_tables g WHERE g.id = :id AND g.status = 'playing' {_TAKE}")
        return bool(await self._write(lambda db: _ids(db, sql, args)))

    async def release_claim(self, table_id: str, owner: str) -> None:
        await self._write(lambda db: db.execute(
            "DELETE FROM table_claims WHERE table_id = ? AND owner = ?", (table_id, owner)))
