"""The table service's clock work: passed deadlines, tables a dead process left, restarts.

Several processes on one database: a table's clock work (a passed deadline, a long AI run) is done
by the one process that claimed the table in storage (`Store.claim_due`, a lease of `claim_lease_s`,
`owner` = this process). A process that dies mid-turn leaves its claim behind; when the lease runs
out — or at once, when it is proven gone (bot/core/liveness.py) — another process's tick takes the
table over (`claim_due`, `claim_stale`) and finishes the turn. A claim is released under the
table's gate, so the release never drops the claim of a move made after it.

No table is left stuck: a table whose AI or away seat is on turn carries a `wake` in its row, set by
the very commit that put that seat on turn, so it is due at every tick until its automatic moves
are stored, whatever failed on the way (a commit, a release, the process). A live process takes its
own claims again at its next tick (`claim_due` renews the caller's own): a store error costs a tick,
not a lease.

A process claims only the tables it can show (`ClaimScope`: its platforms, its Discord shards): a
timeout played by a process that cannot edit the table's message would be stored and never seen.
Lobby expiry is claimed the same way (the row's `expires`), not found by reading every lobby.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable

from bot.core.autoplay import Autoplay, Viewed
from bot.core.clock import Clock
from bot.core.ledger import EngineFor, Ledger, after_round, automatic_turn, new_entry, state_of
from bot.core.liveness import proven_dead
from bot.core.models import Outcome, ViewsLater
from bot.core.table_gate import TableGates
from storage import ClaimScope, Store, TableRecord, VersionConflict

KEY_MEMORY_S = 7 * 24 * 3600.0  # platforms redeliver within a day (Telegram keeps updates 24 h)
CLAIM_BATCH = 250  # due tables claimed (and handled together) per tick; the rest wait for the next tick
# How long the database must show a claim owner without its liveness session before its tables are
# taken: more than a tick, in which a live process cut off with the database holds it again.
GONE_CONFIRM_S = 2.5

log = logging.getLogger(__name__)


async def _each(table_ids: list[str], work: Callable[[str], Awaitable[Outcome | None]]) -> list[Outcome]:
    """`work` for every table at once (each under its own lock); the outcomes in `table_ids` order.
    Every table's work runs to its end even when another's fails; then the first failure is raised
    (a store gone away is the whole process's problem, as it was table by table)."""
    done = await asyncio.gather(*(work(t) for t in table_ids), return_exceptions=True)
    for result in done:
        if isinstance(result, BaseException):
            raise result
    return [r for r in done if isinstance(r, Outcome)]


class Clockwork:
    """The clock work of the tables this process claims (`owner`, for `claim_lease_s`) within
    `scope`: their automatic moves are played by `autoplay`, their writes go through `ledger`;
    `viewed` builds an outcome's views (the service's)."""

    def __init__(self, store: Store, clock: Clock, *, owner: str, claim_lease_s: float, scope: ClaimScope,
                 gates: TableGates, ledger: Ledger, autoplay: Autoplay, engine_for: EngineFor,
                 viewed: Viewed) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner
        self.claim_lease_s = claim_lease_s
        self.scope = scope
        self.gates = gates
        self.ledger = ledger
        self.autoplay = autoplay
        self.engine_for = engine_for
        self.viewed = viewed
        self._unseen: dict[str, float] = {}  # claim owners the database showed gone -> since when

    async def tick(self, now: float | None = None) -> list[Outcome]:
        """Apply every passed deadline (the game's timeout rule) and expire old lobbies.

        The due tables are handled together, not one after the other: their commits (and claim
        releases) reach the store at the same moment and share its group commits, so a tick that
        finds hundreds of passed deadlines costs a few transactions, not hundreds of round trips."""
        now = self.clock.now() if now is None else now
        dead = await self._dead_owners(now)
        # Only the tables this process claimed, of those it can show (`scope`): another process
        # ticking now gets the others. Lobbies past their expiry are among them.
        due = await self.store.claim_due(now, self.owner, self.claim_lease_s, CLAIM_BATCH, dead, self.scope)
        # A table whose automatic moves this process is playing right now is due too (its `wake`):
        # that task goes on with it, and drops the claim when done.
        due = [table_id for table_id in due if not self.gates.of(table_id).busy]
        outcomes = await _each(due, lambda table_id: self._tick_due(table_id, now))
        # Tables whose claim outlived its owner: a process died mid-turn; finish what it left.
        stale = await self.store.claim_stale(now, self.owner, self.claim_lease_s, CLAIM_BATCH, dead, self.scope)
        outcomes += await _each(stale, self._take_over)
        return outcomes

    async def _dead_owners(self, now: float) -> list[str]:
        """The other owners of live claims that are proven gone, whose tables are taken at once: a
        process of this host whose pid no longer runs (certain), or one the database has seen
        without its liveness session (`Store.gone`) for GONE_CONFIRM_S — a live process cut off
        with the database holds it again at its next tick."""
        await self.autoplay.alive()
        others = [o for o in await self.store.claim_holders(now) if o != self.owner]
        dead = [o for o in others if proven_dead(o)]
        unseen = set(await self.store.gone([o for o in others if o not in dead]))
        self._unseen = {o: self._unseen.get(o, now) for o in unseen}
        dead += sorted(o for o, since in self._unseen.items() if now - since >= GONE_CONFIRM_S)
        if dead:
            log.info("claims of %s taken over now: those processes are gone", ", ".join(dead))
        return dead

    async def _tick_due(self, table_id: str, now: float) -> Outcome | None:
        """A claimed table whose clock work is due: automatic moves nobody stored (an AI or away
        seat on turn), else a passed deadline's timeout move (and the automatic moves that answer
        it); then its claim released — under the gate, so that the release cannot drop the claim of
        a move made after this one."""
        async with self.gates.of(table_id):
            try:
                rec = await self.ledger.get(table_id)
                if rec.status == "lobby":
                    return await self._expire_lobby(rec, now)
                if rec.status != "playing" or rec.state is None:
                    return None
                if automatic_turn(rec, self.engine_for(rec), rec.state) is not None:
                    return await self._resume_locked(table_id, claimed=True)
                if rec.deadline is None or rec.deadline > now:
                    return None  # someone acted in time after all
                try:
                    return await (await self._timeout(rec)).settled()
                except VersionConflict:
                    return None  # a move (or, despite the claim, another process) came first
            finally:
                await self.autoplay.let_go(table_id)

    async def _expire_lobby(self, rec: TableRecord, now: float) -> Outcome | None:
        """A lobby nobody started before its `expires` is abandoned."""
        if rec.expires is None or rec.expires > now:
            return None
        rec.status = "abandoned"
        try:
            return Outcome(table=await self.ledger.save_seats(rec))
        except VersionConflict:
            return None  # someone joined or started it this very moment

    async def _take_over(self, table_id: str) -> Outcome:
        async with self.gates.of(table_id):
            try:
                return await self._resume_locked(table_id, claimed=True)
            finally:
                await self.autoplay.let_go(table_id)

    async def _timeout(self, rec: TableRecord) -> Outcome:
        engine = self.engine_for(rec)
        state = state_of(rec)
        seat = engine.current_seat(state)
        assert seat is not None
        action = engine.timeout_action(state)
        state, events = engine.apply(state, seat, action)
        outcome = Outcome(table=rec, events=list(events))
        entries = [new_entry(rec, "timeout", seat, engine.format(action), offset=0)]
        state, entries = after_round(engine, rec, state, entries, outcome)
        return await self.autoplay.commit(rec, state, entries, outcome, prev_turn=seat, force_new_deadline=True)

    async def resume(self, table_id: str) -> Outcome:
        """Continue a table after a restart: play the AI moves a crash may have cut short (unless
        another live process holds the table's claim: then that process plays them)."""
        async with self.gates.of(table_id):
            return await self._resume_locked(table_id)

    async def _resume_locked(self, table_id: str, *, claimed: bool = False) -> Outcome:
        rec = await self.ledger.get(table_id)
        if rec.status != "playing":
            return Outcome(table=rec)
        try:
            return await self.autoplay.run(rec, state_of(rec), Outcome(table=rec), claimed=claimed)
        except VersionConflict:
            return await self.viewed(Outcome(table=await self.ledger.get(table_id)))  # played elsewhere

    async def resume_all(self) -> list[Outcome]:
        """On start: resume every table in play that this process shows (`scope`), so adapters can
        re-render them ("game restored"), and forget idempotency keys old enough that no platform
        redelivers them any more."""
        await self.store.prune_action_keys(self.clock.now() - KEY_MEMORY_S)
        listed = {rec.id: rec for rec in await self.store.list_tables(["playing"]) if self.scope.takes(rec)}
        # One read for all of them; the tables with automatic moves left over play them together
        # (their commits share group commits).
        return await _each(list(listed), lambda table_id: self._resume_listed(listed[table_id]))

    async def forget_old(self, platforms: Iterable[str] = ()) -> None:
        """Forget idempotency keys, and the platforms' update ids, old enough that nothing redelivers
        them any more: the running scheduler calls this (hourly), so they stay bounded however long
        the process runs."""
        before = self.clock.now() - KEY_MEMORY_S
        await self.store.prune_action_keys(before)
        for platform in platforms:
            await self.store.prune_updates(platform, before)

    async def _resume_listed(self, rec: TableRecord) -> Outcome:
        """`resume` of a record just read by resume_all: a table with a present human on turn (all
        of them but those a crash cut short) is rendered from it, without reading it again."""
        engine, state = self.engine_for(rec), state_of(rec)
        if automatic_turn(rec, engine, state) is not None:
            return await self.resume(rec.id)
        # Its views are left to the adapter's restored render (`Outcome.viewed`, in the presenter),
        # which builds only those it shows (Discord: the hands kept in a DM): the service takes
        # moves as soon as this returns, not after every table's views (bench_scale's "resume").
        humans = tuple(i for i, s in enumerate(rec.seats) if s.kind == "human")
        return Outcome(table=rec, later=ViewsLater(engine, state, humans))
