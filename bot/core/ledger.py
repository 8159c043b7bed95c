"""How a change reaches a table's stored record: under the table's gate, judged on fresh data, keyed,
committed in one transaction with its log entries (and the match's result), then told to the listeners.

Every change is judged on fresh data and retried when another process wrote the table first
(`VersionConflict`), so five people pressing Join at once are all seated or told why — never an
error for the race itself. A change may carry the platform's idempotency key: it is stored in the
change's own transaction, and a redelivery of the same press is answered as the first one was
instead of acting twice.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from bot.core import metrics
from bot.core.automoves import automatic_seat, end_of_round
from bot.core.clock import Clock
from bot.core.models import Outcome, ServiceError, StoreUnavailable
from bot.core.stats import Standings
from bot.core.table_gate import TableGates
from rules import Engine, IllegalAction, State
from storage import (
    ActionKeyRecord,
    ClaimWrite,
    DuplicateAction,
    LogEntry,
    MatchResultRecord,
    Store,
    TableRecord,
    VersionConflict,
)

log = logging.getLogger(__name__)

# A lost race costs one fresh read and another try; this many losses in a row is a table so busy
# that the player is asked to try again (a sentence, E_CONFLICT).
RETRIES = 8

Change = Callable[[TableRecord], Awaitable[None]]
EngineFor = Callable[[TableRecord], Engine]
Listener = Callable[[TableRecord], None]
T = TypeVar("T")


def state_of(rec: TableRecord) -> State:
    """The game state of a table in play (E_NOT_PLAYING otherwise)."""
    if rec.state is None:
        raise ServiceError("E_NOT_PLAYING")
    return rec.state


def new_entry(rec: TableRecord, kind: str, seat: int | None, text: str, offset: int) -> LogEntry:
    """The `offset`-th log entry of the table's next commit (stamped with its time by `Ledger.commit`)."""
    return LogEntry(table_id=rec.id, seq=rec.log_seq + 1 + offset, kind=kind, seat=seat, text=text, at=0.0)


def after_round(engine: Engine, rec: TableRecord, state: State, entries: list[LogEntry], outcome: Outcome
                ) -> tuple[State, list[LogEntry]]:
    """After a round ends: note the result, then deal the next round unless the match is over."""
    state, result, dealt = end_of_round(engine, state)
    if result is not None:
        outcome.results.append(result)
        rec.status = "finished" if result.match_over else rec.status
    if dealt is not None:
        entries.append(new_entry(rec, "next_round", None, "next_round", offset=len(entries)))
        outcome.events.append(dealt)
    return state, entries


def automatic_turn(rec: TableRecord, engine: Engine, state: State) -> int | None:
    """The AI or away seat on turn at a table in play, if any (its moves are the table's own)."""
    if rec.status != "playing":
        return None
    return automatic_seat(engine, rec.seats, state)


class Ledger:
    """The table's writes. `engine_for` is the service's engine lookup; `listeners` is the service's
    list of commit listeners, told of every stored change (they must not block or raise)."""

    def __init__(self, store: Store, clock: Clock, *, gates: TableGates, engine_for: EngineFor,
                 standings: Standings, listeners: list[Listener]) -> None:
        self.store = store
        self.clock = clock
        self.gates = gates
        self.engine_for = engine_for
        self.standings = standings
        self.listeners = listeners

    async def get(self, table_id: str) -> TableRecord:
        rec = await self.store.get_table(table_id)
        if rec is None:
            raise ServiceError("E_NO_TABLE", table=table_id)
        return rec

    async def done(self, key: str | None) -> ActionKeyRecord | None:
        """The change already made under this key (a redelivery), if any."""
        return None if key is None else await self.store.action_key(key)

    async def keyed(self, table_id: str, key: str | None, attempt: Callable[[TableRecord], Awaitable[T]],
                    repeat: Callable[[ActionKeyRecord], Awaitable[T]]) -> T:
        """Every change to a table, under its gate: `attempt` runs on a fresh copy, and again on what
        another process wrote when that one won the race (VersionConflict). With `key`, a change
        already made under it — found at COMMIT (the store checks the key in the change's own
        transaction), or as the cause of a refusal (our own first delivery moved the table on) — is
        answered by `repeat` and not made again. The key is not looked up before trying: that read
        would be paid by every change for the sake of the rare redelivery, which the COMMIT catches
        anyway (an attempt that stores anything before its own commit checks the key itself)."""
        async with self.gates.of(table_id):
            for _ in range(RETRIES):
                rec = await self.get(table_id)
                try:
                    return await attempt(rec)
                except DuplicateAction as dup:
                    return await repeat(dup.record)
                except VersionConflict:
                    continue
                except (ServiceError, IllegalAction):
                    if (done := await self.done(key)) is not None:
                        return await repeat(done)
                    raise
            raise ServiceError("E_CONFLICT")

    async def change(self, table_id: str, change: Change, key: str | None) -> TableRecord:
        """A change outside the game state (seats, options, status); a repeat gets the table as it is."""
        async def attempt(rec: TableRecord) -> TableRecord:
            await change(rec)
            return await self.save_seats(rec, key)

        async def repeat(done: ActionKeyRecord) -> TableRecord:
            return await self.get(done.table_id)

        return await self.keyed(table_id, key, attempt, repeat)

    async def commit(
        self,
        rec: TableRecord,
        state: State,
        entries: list[LogEntry],
        *,
        prev_turn: int | None,
        force_new_deadline: bool = False,
        key: str | None = None,
        reply: dict[str, Any] | None = None,
        claim: ClaimWrite | None = None,
    ) -> TableRecord:
        """Store `state` with this commit's `entries` (and, with `key`, the answer to a repeat)."""
        now = self.clock.now()
        engine = self.engine_for(rec)
        turn = engine.current_seat(state) if rec.status == "playing" else None
        timer = float(rec.options.get("turn_timer_s", 0) or 0)
        if turn is None or not timer:
            rec.deadline = None
        elif force_new_deadline or len(entries) > 1 or turn != prev_turn or rec.deadline is None:
            rec.deadline = now + timer
        # else: the same player is still on turn (a draft step): the clock keeps running.
        rec.state = state
        rec.wake = now if automatic_turn(rec, engine, state) is not None else None
        rec.updated_at = now
        for item in entries:  # this commit's own entries, made by `new_entry` for it: stamped in place
            item.at = now
        # The commit that finishes the match carries its result: one transaction, so a crash can
        # neither lose the result nor store it for a match that did not end.
        if rec.status != "finished":
            saved = await self.store.commit(rec, expected_version=rec.version, entries=entries, key=key, reply=reply,
                                            claim=claim)
        else:
            saved = await self.store.commit(rec, expected_version=rec.version, entries=entries,
                                            result=self.result_record(rec, state), key=key, reply=reply,
                                            claim=claim)
            await self._rate()
        self._tell(saved)
        return saved

    async def save_seats(self, rec: TableRecord, key: str | None = None) -> TableRecord:
        """Store a change outside the game state (seats, options, status): no log entry.
        A table that ends here (ended early, lobby expired) gets its abandoned result in the same
        transaction."""
        now = self.clock.now()
        # A seat gone away on turn makes automatic moves due (one back from away: no longer).
        automatic = rec.state is not None and automatic_turn(rec, self.engine_for(rec), rec.state) is not None
        rec.wake = (rec.wake or now) if automatic else None
        rec.updated_at = now
        result = self.result_record(rec, None) if rec.status == "abandoned" else None
        saved = await self.store.commit(rec, expected_version=rec.version, result=result, key=key)
        # Seat and status changes (away, back, a table ended) reach the listeners too.
        self._tell(saved)
        return saved

    def _tell(self, rec: TableRecord) -> None:
        metrics.MOVES.labels(rec.platform).inc()
        for listener in self.listeners:
            listener(rec)

    def result_record(self, rec: TableRecord, state: State | None) -> MatchResultRecord:
        data: dict[str, Any] = {}
        if state is not None:
            final = self.engine_for(rec).result(state)
            data = final.model_dump() if final is not None else {}
            history = state.get("history") if isinstance(state, dict) else None
            if isinstance(history, list):
                data["rounds"] = history  # every round's scores (per team in team games)
        return MatchResultRecord(
            table_id=rec.id,
            game=rec.game,
            platform=rec.platform,
            chat_id=rec.chat_id,
            status="finished" if rec.status == "finished" else "abandoned",
            finished_at=self.clock.now(),
            seats=rec.seats,
            result=data,
        )

    async def _rate(self) -> None:
        """Rate the match just stored. Failing here loses nothing: the result waits, unrated, for
        the next catch-up (every stats query runs one)."""
        try:
            await self.standings.catch_up()
        except StoreUnavailable as err:
            log.warning("rating caught up later (the store is unreachable: %s)", err.params.get("detail", ""))
        except Exception:
            log.exception("rating caught up later")
