"""The moves the table makes by itself: AI seats and seats whose player is away.

A move that leads to automatic moves (a player's action, a timeout, the deal) is stored first and
alone, and its caller answered then: the player's press is acknowledged once *their* move is
durable. The same transaction takes this process's claim of the table (`ClaimWrite`), so from the
moment anyone can see that move, the AI turns after it are this process's: another process's
resume or tick leaves them alone, and a crash leaves the claim for `claim_stale` to find once its
lease runs out; any process then plays them identically, since an AI's choice comes from the seed
and the log position only (bot/core/automoves.py).

The automatic moves are then computed off the event loop (bot/core/ai_pool.py) and stored by a
task of their own (`Outcome.pending`; `Outcome.settled()` awaits it), `AI_CHUNK` moves per commit.
Each chunk's commit renews the claim and the last one drops it, in their own transactions. The
table's gate (bot/core/table_gate.py) makes the table's next piece of work wait for that task.
Every commit that leaves an automatic seat on turn stamps the table's `wake` as well: if those moves
are never stored (a failed commit, a dead process), the next clock tick plays them (clockwork.py).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.core.ai_pool import AiPool
from bot.core.automoves import AutoJob, SeatPlay
from bot.core.clock import Clock
from bot.core.ledger import EngineFor, Ledger, automatic_turn, new_entry
from bot.core.models import Outcome, StoreUnavailable
from bot.core.table_gate import TableGates
from rules import State
from storage import ClaimWrite, LogEntry, Store, TableRecord, VersionConflict

log = logging.getLogger(__name__)

MAX_AI_STEPS = 20_000  # a safety net: no legal game runs this long between two human turns
# Automatic moves per commit. Bounds what a crash makes a process recompute and how long one job
# keeps a worker; the loop serves other tables while a job is computed.
AI_CHUNK = 16

Viewed = Callable[[Outcome], Awaitable[Outcome]]


def seat_plays(rec: TableRecord) -> tuple[SeatPlay, ...]:
    return tuple(SeatPlay(s.kind, s.level, s.away) for s in rec.seats)


def _report(task: asyncio.Task[Outcome]) -> None:
    # Read here, so that a failure nobody awaits (a caller that only wanted the ack) is still told.
    if not task.cancelled() and (err := task.exception()) is not None:
        if isinstance(err, StoreUnavailable):
            log.warning("automatic moves not stored (the store is unreachable: %s); they stay due, and the "
                        "next clock tick that reaches the store plays them", err.params.get("detail", ""))
        else:
            log.error("automatic moves not stored; they stay due, and the next clock tick plays them", exc_info=err)


class Autoplay:
    """Plays and stores the automatic moves of this process's tables, and keeps the tasks doing it
    (`hand_back`). `owner` and `claim_lease_s` are this process's claims; `viewed` builds an
    outcome's views (the service's); `worker_views` lets the AI pool's workers build them with the
    moves they compute."""

    def __init__(self, store: Store, clock: Clock, *, owner: str, claim_lease_s: float, ai: AiPool,
                 gates: TableGates, ledger: Ledger, engine_for: EngineFor, viewed: Viewed,
                 worker_views: bool) -> None:
        self.store = store
        self.clock = clock
        self.owner = owner
        self.claim_lease_s = claim_lease_s
        self.ai = ai
        self.gates = gates
        self.ledger = ledger
        self.engine_for = engine_for
        self.viewed = viewed
        self.worker_views = worker_views
        self._settling: set[asyncio.Task[Outcome]] = set()

    async def hand_back(self, grace_s: float | None = None) -> None:
        """Wait for the automatic moves in flight, for at most `grace_s`; then hand back the rest:
        each task is cancelled, which releases its table's claim, so the next start (or another
        process's tick) plays those moves from the stored table. Whoever awaited them gets the
        outcome stored so far (`Outcome.settled`)."""
        if self._settling and grace_s != 0:
            await asyncio.wait(set(self._settling), timeout=grace_s)
        left = set(self._settling)
        for task in left:
            task.cancel()
        if left:
            log.info("%d table(s) with automatic moves in flight handed back: they continue at the next start",
                     len(left))
            await asyncio.wait(left)

    def _views_for(self, rec: TableRecord) -> tuple[int, ...] | None:
        """The seats whose views a worker builds with the moves (None: built by `viewed`)."""
        if not self.ai.workers or not self.worker_views:
            return None
        return tuple(i for i, s in enumerate(rec.seats) if s.kind == "human")

    def _lease(self) -> ClaimWrite:
        return ClaimWrite(owner=self.owner, until=self.clock.now() + self.claim_lease_s)

    async def _automatic_moves(self, rec: TableRecord, state: State, outcome: Outcome
                               ) -> tuple[State, list[LogEntry]]:
        """Up to AI_CHUNK automatic moves after the stored table, computed by the AI pool; their
        events and results go to `outcome`, their entries (not yet stored) are returned."""
        job = AutoJob(rec.game, state, seat_plays(rec), rec.seed, rec.log_seq, AI_CHUNK, self._views_for(rec))
        run = await self.ai.run(job)
        if run.views is not None:
            outcome.public_view, outcome.private_views = run.views
        outcome.events.extend(run.events)
        outcome.results.extend(run.results)
        if run.finished:
            rec.status = "finished"
        entries = [new_entry(rec, kind, seat, text, offset=i) for i, (kind, seat, text) in enumerate(run.moves)]
        return run.state, entries

    async def commit(
        self, rec: TableRecord, state: State, entries: list[LogEntry], outcome: Outcome, *,
        prev_turn: int | None, force_new_deadline: bool = False,
        key: str | None = None, reply: dict[str, Any] | None = None,
    ) -> Outcome:
        """Commit `entries` and return the acknowledgement: `outcome.pending` is a task that plays
        the automatic moves that follow, if any — this process's claim of them taken in the same
        transaction — and builds the views (off the loop too). Called under the table's gate."""
        follows = automatic_turn(rec, self.engine_for(rec), state) is not None
        if follows:
            await self.alive()  # about to hold a claim: shown alive to the others first
        rec = await self.ledger.commit(rec, state, entries, prev_turn=prev_turn,
                                       force_new_deadline=force_new_deadline, key=key, reply=reply,
                                       claim=self._lease() if follows else None)
        outcome.table = rec
        # The settled outcome is a new one: the caller may read this one (the ack) meanwhile.
        settled = Outcome(table=rec, events=list(outcome.events), results=list(outcome.results))
        work = self._settle(rec, state, settled) if follows else self.viewed(settled)
        task = asyncio.ensure_future(work)
        # Even a task that only builds views goes before the table's next work: renders stay in order.
        self.gates.of(rec.id).settle_with(task)
        self._settling.add(task)
        task.add_done_callback(self._settling.discard)
        task.add_done_callback(_report)
        outcome.pending = task
        return outcome

    async def _settle(self, rec: TableRecord, state: State, outcome: Outcome) -> Outcome:
        try:
            return await self.run(rec, state, outcome, claimed=True)
        except VersionConflict:
            # Another process moved the table on meanwhile (a player back from /away there, or a
            # takeover after our lease ran out): its moves stand, ours were never stored.
            outcome.table = await self.ledger.get(rec.id)
            return await self.viewed(outcome)

    async def run(self, rec: TableRecord, state: State, outcome: Outcome, *, claimed: bool = False) -> Outcome:
        """Play the automatic moves of a stored table (after a player's move, a restart, `/away`)
        until a present human is on turn, under this process's claim (`claimed`: already taken)."""
        engine = self.engine_for(rec)
        if automatic_turn(rec, engine, state) is None:
            return await self.viewed(outcome)  # a present human is on turn: no claim needed
        if not claimed and not await self._claim(rec.id):
            return await self.viewed(outcome)  # another live process is playing these turns
        released = False
        try:
            for step in range(MAX_AI_STEPS // AI_CHUNK):
                state, entries = await self._automatic_moves(rec, state, outcome)
                done = automatic_turn(rec, engine, state) is None or step == MAX_AI_STEPS // AI_CHUNK - 1
                # Each chunk renews the lease in its own commit (a long run keeps the table); the
                # last one drops it there too: no round trip of its own for either.
                claim = ClaimWrite(owner=self.owner, until=None) if done else self._lease()
                seat = entries[0].seat
                rec = await self.ledger.commit(rec, state, entries, prev_turn=seat, force_new_deadline=True,
                                               claim=claim)
                outcome.table = rec
                if done:
                    released = True
                    break
        finally:
            if not released:  # a failed commit: the table's `wake` keeps it due for the next tick
                await self.let_go(rec.id)
        if outcome.public_view is not None:
            return outcome  # built with the last moves, by the same worker
        return await self.viewed(outcome)

    async def let_go(self, table_id: str) -> None:
        """Release this process's claim of the table. A release the store could not take is only
        logged: the claim stays this process's own, taken again by its next tick if the table's
        work is still due (by other processes once the lease runs out)."""
        try:
            await self.store.release_claim(table_id, self.owner)
        except StoreUnavailable as err:
            log.warning("claim of table %s kept (the store is unreachable: %s); this process's next tick "
                        "takes it again if its work is still due", table_id, err.params.get("detail", ""))

    async def alive(self) -> None:
        """Show this process alive to the others (`Store.hold_liveness`): nothing to do once held.
        Never in the way of a move: if the database refuses it, the next call tries again."""
        try:
            await self.store.hold_liveness(self.owner)
        except StoreUnavailable as err:
            log.warning("this process's liveness not shown (the store is unreachable: %s)", err.params.get("detail", ""))

    async def _claim(self, table_id: str) -> bool:
        await self.alive()
        return await self.store.claim_table(table_id, self.owner, self.clock.now(), self.claim_lease_s)
