"""The table service: one owner for a table's life, lobby -> rounds -> match end.

Every accepted action is appended to the table's log and the new snapshot written in one
transaction *before* the caller gets anything back, so nothing a player was told about can be lost.
One gate per table (bot/core/table_gate.py) serialises work in this process; the stored version guards across
processes (a stale writer gets `VersionConflict` and retries on fresh data).

Exactly once: a player's action may carry the platform's idempotency key (an update id, an
interaction id). The key is written in the action's own transaction, so when the platform delivers
the same press again — after a crash right after the COMMIT, or to a second process at the same
moment — it is answered with the first application (`Outcome.repeated`) and never applied twice.

The service is a facade over collaborators it builds and wires here, each given what it needs: the
ledger (how a change is stored: ledger.py), the lobby (lobby.py), the automatic moves (autoplay.py)
and the clock work (clockwork.py).

A move that the AI (or an away player's stand-in) answers is acknowledged once it is stored; the
answers are computed off the event loop and stored after it, under a claim taken in the move's own
transaction (bot/core/autoplay.py). `submit` returns at that acknowledgement, `act` at the
settled outcome.

Several processes on one database: a table's clock work (passed deadlines, turns a dead process
left) is done by the process that claimed the table (bot/core/clockwork.py). The table gate and the
version guard stay as the last safety: a turn is never applied twice even if two processes came to
hold the same table.
"""

from __future__ import annotations

import logging
import secrets
import time
import uuid
from collections.abc import Callable

from bot.core.ai_pool import AiPool
from bot.core.autoplay import Autoplay
from bot.core.clock import Clock, SystemClock
from bot.core.clockwork import Clockwork
from bot.core.ledger import Ledger, after_round, new_entry, state_of
from bot.core.liveness import process_owner
from bot.core.lobby import Lobby, in_lobby, is_host, playing_seat, seat_of
from bot.core.models import Outcome, Player, ServiceError
from bot.core.options_text import bad_option
from bot.core.presses import Presses
from bot.core.stats import Standings
from bot.core.store_guard import guarded
from bot.core.table_gate import TableGates
from rules import Action, Engine, Event, RoundResult, SetupError, State, get_engine
from storage import (
    EVERY_TABLE,
    ActionKeyRecord,
    ClaimScope,
    DuplicateAction,
    Store,
    TableRecord,
)

log = logging.getLogger(__name__)

DEFAULT_LOBBY_TTL_S = 3600.0
# How long a claim keeps other processes off a table (the CLAIM_LEASE_S setting). Long enough for any
# turn's work (an AI run renews it as it goes); a dead process's tables wait this long for a new
# owner unless it is proven gone (bot/core/liveness.py).
CLAIM_LEASE_S = 30.0


def _new_table_id() -> str:
    return uuid.uuid4().hex[:12]


class TableService:
    def __init__(
        self,
        store: Store,
        clock: Clock | None = None,
        *,
        lobby_ttl_s: float = DEFAULT_LOBBY_TTL_S,
        new_table_id: Callable[[], str] = _new_table_id,
        new_seed: Callable[[], int] = lambda: secrets.randbelow(2**31),
        fresh_views: bool = False,
        owner: str | None = None,
        claim_lease_s: float = CLAIM_LEASE_S,
        ai: AiPool | None = None,
        scope: ClaimScope = EVERY_TABLE,
    ) -> None:
        self.store = guarded(store)  # an unreachable store raises StoreUnavailable (a ServiceError)
        self.ai = ai or AiPool(0)  # inline unless the app gives it worker processes (AI_WORKERS)
        self.owner = owner or process_owner()
        self.clock = clock or SystemClock()
        # The old way, kept for bench/bench_views.py to compare against: `engine.view` per seat.
        self._fresh_views = fresh_views
        self.gates = TableGates()
        self._engines: dict[str, Engine] = {}
        # Told of every committed move (the web pages' push); a listener must not block or raise.
        self.commit_listeners: list[Callable[[TableRecord], None]] = []
        self.standings = Standings(self.store, self.clock)
        self.ledger = Ledger(self.store, self.clock, gates=self.gates, engine_for=self.engine_for,
                             standings=self.standings, listeners=self.commit_listeners)
        self.autoplay = Autoplay(self.store, self.clock, owner=self.owner, claim_lease_s=claim_lease_s, ai=self.ai,
                                 gates=self.gates, ledger=self.ledger, engine_for=self.engine_for,
                                 viewed=self._viewed, worker_views=not fresh_views)
        # Of the tables its surfaces show (`scope`): a timeout this process cannot show would go unseen.
        self.clockwork = Clockwork(self.store, self.clock, owner=self.owner, claim_lease_s=claim_lease_s,
                                   scope=scope, gates=self.gates, ledger=self.ledger, autoplay=self.autoplay,
                                   engine_for=self.engine_for, viewed=self._viewed)
        # A press on a hand, decoded here against the table read under its gate (presses.py).
        self.presses = Presses(self.ledger, engine_for=self.engine_for, play=self._play, repeat=self._repeat)
        self.press = self.presses.press
        self.lobby = Lobby(self.store, self.clock, ledger=self.ledger, lobby_ttl_s=lobby_ttl_s,
                           new_table_id=new_table_id, new_seed=new_seed)
        # The lobby's part of the facade.
        self.open_table = self.lobby.open_table
        self.rematch = self.lobby.rematch
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_ai = self.lobby.add_ai
        self.remove_ai = self.lobby.remove_ai
        self.swap_seats = self.lobby.swap_seats
        self.set_option = self.lobby.set_option
        self.end_table = self.lobby.end_table
        self.move_chat = self.lobby.move_chat
        # The clock work's.
        self.tick = self.clockwork.tick
        self.resume = self.clockwork.resume
        self.resume_all = self.clockwork.resume_all
        self.forget_old = self.clockwork.forget_old

    seat_of = staticmethod(seat_of)
    playing_seat = staticmethod(playing_seat)
    is_host = staticmethod(is_host)

    async def close(self, grace_s: float | None = None) -> None:
        """Let the automatic moves in flight be stored, then stop the AI workers. Call before the
        store closes (an adapter's shutdown). With `grace_s`, what is not stored by then is handed
        back (`hand_back`)."""
        until = None if grace_s is None else time.monotonic() + grace_s
        await self.hand_back(grace_s)
        self.ai.close(10.0 if until is None else max(until - time.monotonic(), 0.0))

    async def hand_back(self, grace_s: float | None = None) -> None:
        """Wait for the automatic moves in flight, for at most `grace_s`; then hand them back
        (`Autoplay.hand_back`): the next start, or another process's tick, plays them."""
        await self.autoplay.hand_back(grace_s)

    async def get(self, table_id: str) -> TableRecord:
        return await self.ledger.get(table_id)

    def engine_for(self, rec: TableRecord) -> Engine:
        # Kept per service: get_engine goes through importlib on every call, and an action asks
        # for its table's engine several times.
        engine = self._engines.get(rec.game)
        if engine is None:
            engine = self._engines[rec.game] = get_engine(rec.game)
        return engine

    async def start(self, table_id: str, by: Player, *, key: str | None = None) -> Outcome:
        async def attempt(rec: TableRecord) -> Outcome:
            state = self._deal(rec, by)
            rec.status = "playing"
            first = new_entry(rec, "start", None, "start", offset=0)
            return await self.autoplay.commit(rec, state, [first], Outcome(table=rec), prev_turn=None, key=key)

        return await (await self.ledger.keyed(table_id, key, attempt, self._repeat)).settled()

    def _deal(self, rec: TableRecord, by: Player) -> State:
        in_lobby(rec, by, host_only=True)
        engine = self.engine_for(rec)
        if len(rec.seats) < engine.min_seats:
            raise ServiceError("E_TOO_FEW_PLAYERS", game=engine.name, min=engine.min_seats)
        try:
            return engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
        except SetupError as err:
            raise bad_option(err, engine) from None

    async def set_away(self, table_id: str, user: Player, away: bool, *, key: str | None = None) -> TableRecord:
        """`/away`: the AI plays this seat until `/back` or the player's next action."""
        async def change(rec: TableRecord) -> None:
            seat = self.seat_of(rec, user)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            rec.seats[seat].away = away

        rec = await self.ledger.change(table_id, change, key)
        if rec.status != "playing":
            return rec
        async with self.gates.of(table_id):
            rec = await self.get(table_id)
            outcome = await self.autoplay.run(rec, state_of(rec), Outcome(table=rec))
        return outcome.table

    # ---- play --------------------------------------------------------------------------------

    async def act(
        self,
        table_id: str,
        user: Player,
        action: str | Action,
        expected_version: int | None = None,
        *,
        key: str | None = None,
    ) -> Outcome:
        """`submit`, and the outcome once the automatic moves answering it are stored too."""
        outcome = await self.submit(table_id, user, action, expected_version, key=key)
        return await outcome.settled()

    async def submit(
        self,
        table_id: str,
        user: Player,
        action: str | Action,
        expected_version: int | None = None,
        *,
        key: str | None = None,
    ) -> Outcome:
        """Apply a player's action; returns once it is durable (answer the press then), with
        `Outcome.pending` set when automatic moves answer it: render `await outcome.settled()`.
        Raises `IllegalAction` (game rules) or `ServiceError` (table); on either, nothing is stored
        and the table is unchanged. With `key` (the platform's id of the message or press), a
        repeat of an action already applied returns `Outcome.repeated`."""
        # A lost race is judged again on the fresh table: a button carries a version and is then
        # stale; a typed command simply applies to the table as it now is.
        async def attempt(rec: TableRecord) -> Outcome:
            return await self._act_once(rec, user, action, expected_version, key)

        return await self.ledger.keyed(table_id, key, attempt, self._repeat)

    async def _act_once(
        self, rec: TableRecord, user: Player, action: str | Action, expected_version: int | None, key: str | None
    ) -> Outcome:
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        if expected_version is not None and expected_version != rec.version:
            raise ServiceError("E_STALE", version=expected_version, current=rec.version)
        seat = self.seat_of(rec, user)
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        return await self._play(rec, seat, user, action, key)

    async def _play(self, rec: TableRecord, seat: int, user: Player, action: str | Action, key: str | None
                    ) -> Outcome:
        """`user`'s action from `seat` on `rec`, the record just read under the table's gate (the
        table in play, the seat found): parsed, applied, committed with its log entry."""
        engine = self.engine_for(rec)
        parsed = engine.parse(action) if isinstance(action, str) else action
        if parsed.service_only:
            raise ServiceError("E_SERVICE_ONLY", command=engine.format(parsed))
        if rec.seats[seat].away:
            if key is not None and (done := await self.ledger.done(key)) is not None:
                raise DuplicateAction(done)  # a redelivery must not take the seat back either
            # Any action takes the seat back, even one the rules then refuse.
            rec.seats[seat].away = False
            rec = await self.ledger.save_seats(rec)
        state = state_of(rec)
        prev_turn = engine.current_seat(state)
        state, events = engine.apply(state, seat, parsed)
        outcome = Outcome(table=rec, events=list(events))
        command = engine.format(parsed)
        entries = [new_entry(rec, "action", seat, command, offset=0)]
        state, entries = after_round(engine, rec, state, entries, outcome)
        # What a repeat of this press is answered with: this application's own events and results.
        reply = {"command": command, "events": [e.to_json() for e in outcome.events],
                 "results": [r.model_dump(mode="json") for r in outcome.results]}
        return await self.autoplay.commit(rec, state, entries, outcome, prev_turn=prev_turn, key=key, reply=reply)

    async def _repeat(self, done: ActionKeyRecord) -> Outcome:
        """The answer to a redelivered action: its first application's events, today's table."""
        rec = await self.get(done.table_id)
        events = [Event(e["type"], e.get("data", {}), e.get("seat")) for e in done.reply.get("events", [])]
        results = [RoundResult.model_validate(r) for r in done.reply.get("results", [])]
        return self._with_views(Outcome(table=rec, events=events, results=results, repeated=True))

    async def _viewed(self, outcome: Outcome) -> Outcome:
        """`_with_views`, built by the AI pool's workers (off the event loop) when it has some."""
        rec = outcome.table
        if rec.state is None or self._fresh_views or not self.ai.workers:
            return self._with_views(outcome)
        humans = tuple(i for i, s in enumerate(rec.seats) if s.kind == "human")
        outcome.public_view, outcome.private_views = await self.ai.views(rec.game, rec.state, humans)
        return outcome

    def _with_views(self, outcome: Outcome) -> Outcome:
        """The views of the table as the outcome leaves it, built once here for every adapter: the
        public view and each human seat's, with the analysis they share done once (`engine.views`)."""
        rec = outcome.table
        if rec.state is not None:
            engine = self.engine_for(rec)
            humans = [i for i, s in enumerate(rec.seats) if s.kind == "human"]
            if self._fresh_views:
                outcome.public_view = engine.view(rec.state, None)
                outcome.private_views = {i: engine.view(rec.state, i) for i in humans}
            else:
                outcome.public_view, outcome.private_views = engine.views(rec.state, humans)
        return outcome

    async def replay(self, table_id: str) -> State:
        """Rebuild a table's state from seed + options + deck + log (the source of truth)."""
        rec = await self.get(table_id)
        engine = self.engine_for(rec)
        state = engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
        for entry in await self.store.log(table_id):
            if entry.kind == "next_round":
                state = engine.next_round(state)
            elif entry.kind != "start":
                state, _ = engine.apply(state, entry.mover(), engine.parse(entry.text))
        return state
