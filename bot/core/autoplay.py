"""The moves the table makes by itself: AI seats and seats whose player is away.

They are stored in the same transaction as the move that led to them (a player's action, a
timeout, the deal), up to `AI_CHUNK` of them: one commit and one round trip per player's move
instead of one per move plus a claim and its release. That is safe because an AI's choice comes
from the seed and the log position only (`rng_for(seed, "ai", seq)`): a crash before the COMMIT
loses moves nobody was shown and that any process recomputes identically. And no claim is needed
for them: until that COMMIT the stored table has a present human (or nobody: a lobby) on turn, so
no other process has automatic moves to play there, and the version guard settles any race.

A run longer than one chunk (a table of AIs, everybody away) goes on under a claim
(`Store.claim_table`, renewed before it can run out), one commit per chunk: another process that
resumes the table meanwhile leaves it alone, and a process that dies mid-run leaves the claim for
`claim_stale` to find once its lease has run out.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from bot.core.models import Outcome
from rules import Engine, IllegalAction, State
from rules.core.deck import rng_for
from storage import LogEntry, Store, TableRecord

if TYPE_CHECKING:
    from bot.core.clock import Clock

MAX_AI_STEPS = 20_000  # a safety net: no legal game runs this long between two human turns
# Automatic moves per commit. Bounds what a crash makes a process recompute and how long one
# commit's moves keep this table's lock; a chunk yields to other tables between its moves.
AI_CHUNK = 16


class Autoplay:
    """Mixed into `TableService`, which provides the attributes and helpers declared here."""

    store: Store
    clock: Clock
    owner: str
    claim_lease_s: float

    def engine_for(self, rec: TableRecord) -> Engine: ...  # noqa: D102 - provided by TableService
    def _with_views(self, outcome: Outcome) -> Outcome: ...  # noqa: D102
    def _entry(self, rec: TableRecord, kind: str, seat: int | None, text: str, offset: int) -> LogEntry: ...  # noqa: D102

    def _maybe_next_round(  # noqa: D102
        self, engine: Engine, rec: TableRecord, state: State, entries: list[LogEntry], outcome: Outcome
    ) -> tuple[State, list[LogEntry]]: ...

    async def _commit(  # noqa: D102
        self, rec: TableRecord, state: State, entries: list[LogEntry], *, acted_seat: int | None,
        prev_turn: int | None, force_new_deadline: bool = False, key: str | None = None,
        reply: dict[str, Any] | None = None,
    ) -> TableRecord: ...

    def _automatic_seat(self, rec: TableRecord, engine: Engine, state: State) -> int | None:
        seat = engine.current_seat(state)
        if seat is None or rec.status != "playing":
            return None
        s = rec.seats[seat]
        return seat if s.kind == "ai" or s.away else None

    async def _automatic_moves(
        self, engine: Engine, rec: TableRecord, state: State, outcome: Outcome, entries: list[LogEntry]
    ) -> tuple[State, list[LogEntry], int]:
        """Play up to AI_CHUNK automatic moves after `entries` (not yet stored), appending theirs;
        returns the state, the entries and how many moves were played."""
        played = 0
        while played < AI_CHUNK and (seat := self._automatic_seat(rec, engine, state)) is not None:
            if played:
                await asyncio.sleep(0)  # let other tables' work in between, as a commit would
            # The log position this move will have, exactly as when each move was its own commit.
            rng = rng_for(rec.seed, "ai", rec.log_seq + len(entries))
            try:
                if rec.seats[seat].kind == "ai":
                    action = engine.ai_action(state, seat, rng, rec.seats[seat].level)
                else:  # a player who is away: the game's stand-in (AI or the spec's auto-play)
                    action = engine.stand_in_action(state, seat, rng)
                state, events = engine.apply(state, seat, action)
            except IllegalAction:
                # An AI bug must not stall the table: the timeout rule is always legal.
                action = engine.timeout_action(state)
                state, events = engine.apply(state, seat, action)
            outcome.events.extend(events)
            entries.append(self._entry(rec, "ai", seat, engine.format(action), offset=len(entries)))
            state, entries = self._maybe_next_round(engine, rec, state, entries, outcome)
            played += 1
        return state, entries, played

    async def _commit_with_automatic(
        self, rec: TableRecord, state: State, entries: list[LogEntry], outcome: Outcome, *,
        acted_seat: int | None, prev_turn: int | None, force_new_deadline: bool = False,
        key: str | None = None, reply: dict[str, Any] | None = None,
    ) -> Outcome:
        """Commit `entries` and the automatic moves that follow them in one transaction; a run
        longer than one chunk goes on under a claim (`_run_automatic`)."""
        engine = self.engine_for(rec)
        state, entries, played = await self._automatic_moves(engine, rec, state, outcome, entries)
        # After an automatic move the next player's clock starts afresh, as it always did.
        rec = await self._commit(rec, state, entries, acted_seat=acted_seat, prev_turn=prev_turn,
                                 force_new_deadline=force_new_deadline or played > 0, key=key, reply=reply)
        outcome.table = rec
        return await self._run_automatic(rec, state, outcome)

    async def _run_automatic(self, rec: TableRecord, state: State, outcome: Outcome) -> Outcome:
        """Play the automatic moves of a stored table (after a restart, a long run, `/away`) until a
        present human is on turn, under this process's claim."""
        engine = self.engine_for(rec)
        if self._automatic_seat(rec, engine, state) is None:
            return self._with_views(outcome)  # a present human is on turn: no claim needed
        if not await self._claim(rec.id):
            return self._with_views(outcome)  # another live process is playing these turns
        claimed_at = self.clock.now()
        try:
            for _ in range(MAX_AI_STEPS // AI_CHUNK):
                if self._automatic_seat(rec, engine, state) is None:
                    break
                if self.clock.now() - claimed_at > self.claim_lease_s / 2:
                    # A long run renews its lease before it can run out; a lost claim ends the run.
                    if not await self._claim(rec.id):
                        break
                    claimed_at = self.clock.now()
                state, entries, _ = await self._automatic_moves(engine, rec, state, outcome, [])
                seat = entries[0].seat
                rec = await self._commit(rec, state, entries, acted_seat=seat, prev_turn=seat, force_new_deadline=True)
                outcome.table = rec
        finally:
            # Not reached when the process dies: the claim is left for claim_stale to find.
            await self.store.release_claim(rec.id, self.owner)
        return self._with_views(outcome)

    async def _claim(self, table_id: str) -> bool:
        return await self.store.claim_table(table_id, self.owner, self.clock.now(), self.claim_lease_s)
