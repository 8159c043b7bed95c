"""Which claim owners are alive, as PostgreSQL sees it: each process holds a session-level advisory
lock named after its claim owner, on a connection of its own kept for its whole life. PostgreSQL
ends a session when its process dies (the socket closes, or the server's keepalive finds it gone),
and the lock with it: another process that can take the lock knows that owner is gone, on whatever
host it ran — where bot/core/liveness.py can only see its own host's processes.

A lock also drops while its live holder is cut off (a server restart, connections terminated) until
that holder connects again at its next tick; the service therefore believes "gone" only when it
stays so for a while (clockwork.GONE_CONFIRM_S), and the version guard keeps every turn applied
once even if it believed wrongly.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence

import asyncpg

CONNECT_TIMEOUT_S = 10.0


def owner_key(owner: str) -> int:
    """The advisory lock key of a claim owner: 64 bits of a hash, with a prefix of its own so that
    it meets no other key of this store (the migration lock) nor, in practice, another program's."""
    digest = hashlib.blake2b(f"rummyclub-owner:{owner}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


class Liveness:
    """The liveness session of one store: the locks of every owner shown through it (a service
    each; one per process in production)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self._conn: asyncpg.Connection | None = None
        self._wanted: set[str] = set()
        self._held: set[str] = set()
        self._lock = asyncio.Lock()  # one connect and one statement at a time on the session

    async def hold(self, owner: str) -> None:
        """Hold `owner`'s lock: free once held (no round trip, no wait); after the session was lost
        (a server restart) a new one takes every owner's lock again. A lock found taken — another
        process checking it that very moment (`gone`) — is tried again at the next call."""
        if owner in self._held and self._conn is not None and not self._conn.is_closed():
            return
        async with self._lock:
            self._wanted.add(owner)
            if self._conn is None or self._conn.is_closed():
                self._conn, self._held = None, set()
                self._conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT_S)
            missing = {owner_key(o): o for o in self._wanted - self._held}
            if missing:
                rows = await self._conn.fetch(
                    "SELECT k FROM unnest($1::bigint[]) AS k WHERE pg_try_advisory_lock(k)", list(missing))
                self._held |= {missing[r["k"]] for r in rows}

    async def close(self) -> None:
        async with self._lock:
            if self._conn is not None:
                conn, self._conn = self._conn, None
                self._held = set()
                await conn.close()  # the session ends: these owners are gone for the others


async def gone(db: asyncpg.Connection, owners: Sequence[str]) -> list[str]:
    """Those of `owners` whose lock no session holds: each lock taken is let go at once, in the same
    session, so the check leaves nothing behind."""
    keys = {owner_key(o): o for o in owners}
    if not keys:
        return []
    taken = [r["k"] for r in await db.fetch(
        "SELECT k FROM unnest($1::bigint[]) AS k WHERE pg_try_advisory_lock(k)", list(keys))]
    if taken:
        await db.execute("SELECT pg_advisory_unlock(k) FROM unnest($1::bigint[]) AS k", taken)
    return sorted(keys[k] for k in taken)
