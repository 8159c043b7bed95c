"""The table service: one owner for a table's life, lobby -> rounds -> match end.

Every accepted action is appended to the table's log and the new snapshot written in one
transaction *before* the caller gets anything back, so nothing a player was told about can be lost.
One asyncio lock per table serialises work in this process; the stored version guards across
processes (a stale writer gets `VersionConflict` and retries on fresh data).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import uuid
from collections.abc import Callable
from typing import Any

from bot.core.clock import Clock, SystemClock
from bot.core.models import Outcome, Player, ServiceError
from bot.core.options_text import bad_option
from bot.core.stats import Standings
from rules import Action, Engine, Event, IllegalAction, SetupError, State, engine_names, get_engine
from rules.core.deck import rng_for
from storage import LogEntry, MatchResultRecord, SeatRecord, Store, TableExists, TableRecord, VersionConflict

log = logging.getLogger(__name__)

MAX_AI_STEPS = 20_000  # a safety net: no legal game runs this long between two human turns
DEFAULT_LOBBY_TTL_S = 3600.0


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
    ) -> None:
        self.store = store
        self.clock = clock or SystemClock()
        self.lobby_ttl_s = lobby_ttl_s
        self._new_table_id = new_table_id
        self._new_seed = new_seed
        self._locks: dict[str, asyncio.Lock] = {}
        self.standings = Standings(store, self.clock)

    # ---- helpers -----------------------------------------------------------------------------

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def get(self, table_id: str) -> TableRecord:
        rec = await self.store.get_table(table_id)
        if rec is None:
            raise ServiceError("E_NO_TABLE", table=table_id)
        return rec

    @staticmethod
    def engine_for(rec: TableRecord) -> Engine:
        return get_engine(rec.game)

    @staticmethod
    def seat_of(rec: TableRecord, user: Player) -> int | None:
        for i, seat in enumerate(rec.seats):
            if seat.kind == "human" and seat.platform == user.platform and seat.user_id == user.user_id:
                return i
        return None

    @staticmethod
    def _is_host(rec: TableRecord, user: Player) -> bool:
        return rec.host_platform == user.platform and rec.host_user_id == user.user_id

    @staticmethod
    def is_host(rec: TableRecord, user: Player) -> bool:
        """Whether `user` hosts the table (adapters show host-only controls by it)."""
        return TableService._is_host(rec, user)

    async def _save_seats(self, rec: TableRecord) -> TableRecord:
        """Store a change outside the game state (seats, options, status): no log entry.
        A table that ends here (ended early, lobby expired) gets its abandoned result in the same
        transaction."""
        rec.updated_at = self.clock.now()
        if rec.status == "abandoned":
            return await self.store.commit(rec, expected_version=rec.version, result=self._result_record(rec, None))
        return await self.store.commit(rec, expected_version=rec.version)

    def _lobby(self, rec: TableRecord, user: Player | None = None, host_only: bool = False) -> None:
        if rec.status != "lobby":
            raise ServiceError("E_NOT_IN_LOBBY")
        if host_only and user is not None and not self._is_host(rec, user):
            raise ServiceError("E_NOT_HOST")

    # ---- lobby -------------------------------------------------------------------------------

    async def open_table(
        self,
        game: str,
        platform: str,
        chat_id: str,
        host: Player,
        *,
        topic_id: str | None = None,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        deck: list[str] | None = None,
        meta: dict[str, Any] | None = None,
        seat_host: bool = True,
    ) -> TableRecord:
        """Open a lobby in a chat. The host takes seat 1 unless `seat_host` is off (AI-only tables)."""
        try:
            engine = get_engine(game)
        except KeyError:
            raise ServiceError("E_UNKNOWN_GAME", game=game, known=", ".join(engine_names())) from None
        try:
            opts = engine.options_model.parse_options(options).model_dump()
        except SetupError as err:
            raise bad_option(err, engine) from None
        if await self.store.active_table_for_chat(platform, chat_id, topic_id) is not None:
            raise ServiceError("E_TABLE_EXISTS")
        now = self.clock.now()
        await self.store.upsert_player(host.platform, host.user_id, host.name)
        rec = TableRecord(
            id=self._new_table_id(),
            game=engine.name,
            platform=platform,
            chat_id=chat_id,
            topic_id=topic_id,
            status="lobby",
            host_platform=host.platform,
            host_user_id=host.user_id,
            options=opts,
            seed=self._new_seed() if seed is None else seed,
            deck=deck,
            seats=[SeatRecord(kind="human", platform=host.platform, user_id=host.user_id, name=host.name)]
            if seat_host
            else [],
            created_at=now,
            updated_at=now,
            meta={"lobby_expires": now + self.lobby_ttl_s, **(meta or {})},
        )
        try:
            await self.store.create_table(rec)
        except TableExists:  # another process opened one in the same moment
            raise ServiceError("E_TABLE_EXISTS") from None
        return rec

    async def join(self, table_id: str, user: Player) -> TableRecord:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec)
            if self.seat_of(rec, user) is not None:
                raise ServiceError("E_ALREADY_SEATED")
            engine = self.engine_for(rec)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            await self.store.upsert_player(user.platform, user.user_id, user.name)
            rec.seats.append(SeatRecord(kind="human", platform=user.platform, user_id=user.user_id, name=user.name))
            return await self._save_seats(rec)

    async def leave(self, table_id: str, user: Player) -> TableRecord:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec)
            seat = self.seat_of(rec, user)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            del rec.seats[seat]
            if self._is_host(rec, user):
                humans = [s for s in rec.seats if s.kind == "human"]
                if humans:  # the host role passes to the next human in join order
                    rec.host_platform, rec.host_user_id = humans[0].platform, humans[0].user_id
                else:
                    rec.status = "abandoned"
            return await self._save_seats(rec)

    async def add_ai(self, table_id: str, by: Player) -> TableRecord:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec, by, host_only=True)
            engine = self.engine_for(rec)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            n = 1 + sum(1 for s in rec.seats if s.kind == "ai")
            rec.seats.append(SeatRecord(kind="ai", platform=None, user_id=None, name=f"AI {n}"))
            return await self._save_seats(rec)

    async def remove_ai(self, table_id: str, by: Player) -> TableRecord:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec, by, host_only=True)
            ai_seats = [i for i, s in enumerate(rec.seats) if s.kind == "ai"]
            if not ai_seats:
                raise ServiceError("E_NO_AI")
            del rec.seats[ai_seats[-1]]
            return await self._save_seats(rec)

    async def swap_seats(self, table_id: str, by: Player, a: int, b: int) -> TableRecord:
        """The host reorders seats before the start (0-based); in team games this picks partners,
        since partners sit opposite each other."""
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec, by, host_only=True)
            if not (0 <= a < len(rec.seats) and 0 <= b < len(rec.seats)) or a == b:
                raise ServiceError("E_BAD_SEAT", seats=len(rec.seats))
            rec.seats[a], rec.seats[b] = rec.seats[b], rec.seats[a]
            return await self._save_seats(rec)

    async def set_option(self, table_id: str, by: Player, key: str, value: Any) -> TableRecord:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec, by, host_only=True)
            engine = self.engine_for(rec)
            try:
                opts = engine.options_model.parse_options({**rec.options, key: value}).model_dump()
            except SetupError as err:
                raise bad_option(err, engine) from None
            rec.options = opts
            return await self._save_seats(rec)

    async def start(self, table_id: str, by: Player) -> Outcome:
        async with self._lock(table_id):
            rec = await self.get(table_id)
            self._lobby(rec, by, host_only=True)
            engine = self.engine_for(rec)
            if len(rec.seats) < engine.min_seats:
                raise ServiceError("E_TOO_FEW_PLAYERS", game=engine.name, min=engine.min_seats)
            try:
                state = engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
            except SetupError as err:
                raise bad_option(err, engine) from None
            rec.status = "playing"
            outcome = Outcome(table=rec)
            entry = self._entry(rec, "start", None, "start", offset=0)
            rec = await self._commit(rec, state, [entry], acted_seat=None, prev_turn=None)
            outcome.table = rec
            return await self._run_automatic(rec, state, outcome)

    async def end_table(self, table_id: str, by: Player, *, is_admin: bool = False) -> TableRecord:
        """The host or a chat admin ends a table at any time; it is stored as abandoned."""
        async with self._lock(table_id):
            rec = await self.get(table_id)
            if rec.status not in ("lobby", "playing"):
                raise ServiceError("E_NOT_PLAYING")
            if not (is_admin or self._is_host(rec, by)):
                raise ServiceError("E_NOT_HOST")
            rec.status = "abandoned"
            rec.deadline = None
            return await self._save_seats(rec)

    async def set_away(self, table_id: str, user: Player, away: bool) -> TableRecord:
        """`/away`: the AI plays this seat until `/back` or the player's next action."""
        async with self._lock(table_id):
            rec = await self.get(table_id)
            seat = self.seat_of(rec, user)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            rec.seats[seat].away = away
            if rec.status != "playing":
                return await self._save_seats(rec)
            outcome = await self._run_automatic(await self._save_seats(rec), self._state(rec), Outcome(table=rec))
            return outcome.table

    # ---- play --------------------------------------------------------------------------------

    async def act(
        self,
        table_id: str,
        user: Player,
        action: str | Action,
        expected_version: int | None = None,
    ) -> Outcome:
        """Apply a player's action. Raises `IllegalAction` (game rules) or `ServiceError` (table);
        on either, nothing is stored and the table is unchanged."""
        async with self._lock(table_id):
            for attempt in range(2):
                rec = await self.get(table_id)
                try:
                    return await self._act_once(rec, user, action, expected_version)
                except VersionConflict:
                    # Another process wrote first. Buttons carry a version and are now stale;
                    # a typed command is simply judged again on the fresh table.
                    if expected_version is not None or attempt:
                        raise ServiceError("E_CONFLICT") from None
            raise AssertionError("unreachable")

    async def _act_once(
        self, rec: TableRecord, user: Player, action: str | Action, expected_version: int | None
    ) -> Outcome:
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        if expected_version is not None and expected_version != rec.version:
            raise ServiceError("E_STALE", version=expected_version, current=rec.version)
        seat = self.seat_of(rec, user)
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        engine = self.engine_for(rec)
        parsed = engine.parse(action) if isinstance(action, str) else action
        if parsed.service_only:
            raise ServiceError("E_SERVICE_ONLY", command=engine.format(parsed))
        if rec.seats[seat].away:
            # Any action takes the seat back, even one the rules then refuse.
            rec.seats[seat].away = False
            rec = await self._save_seats(rec)
        state = self._state(rec)
        prev_turn = engine.current_seat(state)
        state, events = engine.apply(state, seat, parsed)
        outcome = Outcome(table=rec, events=list(events))
        entries = [self._entry(rec, "action", seat, engine.format(parsed), offset=0)]
        state, entries = self._maybe_next_round(engine, rec, state, entries, outcome)
        rec = await self._commit(rec, state, entries, acted_seat=seat, prev_turn=prev_turn)
        outcome.table = rec
        return await self._run_automatic(rec, state, outcome)

    async def tick(self, now: float | None = None) -> list[Outcome]:
        """Apply every passed deadline (the game's timeout rule) and expire old lobbies."""
        now = self.clock.now() if now is None else now
        outcomes = []
        for table_id in await self.store.due_tables(now):
            async with self._lock(table_id):
                rec = await self.get(table_id)
                if rec.status != "playing" or rec.deadline is None or rec.deadline > now:
                    continue  # someone acted in time after all
                outcomes.append(await self._timeout(rec))
        for rec in await self.store.list_tables(["lobby"]):
            if rec.meta.get("lobby_expires", float("inf")) <= now:
                async with self._lock(rec.id):
                    fresh = await self.get(rec.id)
                    if fresh.status == "lobby":
                        fresh.status = "abandoned"
                        outcomes.append(Outcome(table=await self._save_seats(fresh)))
        return outcomes

    async def _timeout(self, rec: TableRecord) -> Outcome:
        engine = self.engine_for(rec)
        state = self._state(rec)
        seat = engine.current_seat(state)
        assert seat is not None
        action = engine.timeout_action(state)
        state, events = engine.apply(state, seat, action)
        outcome = Outcome(table=rec, events=list(events))
        entries = [self._entry(rec, "timeout", seat, engine.format(action), offset=0)]
        state, entries = self._maybe_next_round(engine, rec, state, entries, outcome)
        rec = await self._commit(rec, state, entries, acted_seat=seat, prev_turn=seat, force_new_deadline=True)
        outcome.table = rec
        return await self._run_automatic(rec, state, outcome)

    async def resume(self, table_id: str) -> Outcome:
        """Continue a table after a restart: play the AI moves a crash may have cut short."""
        async with self._lock(table_id):
            rec = await self.get(table_id)
            if rec.status != "playing":
                return Outcome(table=rec)
            return await self._run_automatic(rec, self._state(rec), Outcome(table=rec))

    async def resume_all(self) -> list[Outcome]:
        """On start: resume every table in play, so adapters can re-render them ("game restored")."""
        return [await self.resume(rec.id) for rec in await self.store.list_tables(["playing"])]

    # ---- internals ---------------------------------------------------------------------------

    @staticmethod
    def _state(rec: TableRecord) -> State:
        if rec.state is None:
            raise ServiceError("E_NOT_PLAYING")
        return rec.state

    @staticmethod
    def _entry(rec: TableRecord, kind: str, seat: int | None, text: str, offset: int) -> LogEntry:
        return LogEntry(table_id=rec.id, seq=rec.log_seq + 1 + offset, kind=kind, seat=seat, text=text, at=0.0)

    def _maybe_next_round(
        self, engine: Engine, rec: TableRecord, state: State, entries: list[LogEntry], outcome: Outcome
    ) -> tuple[State, list[LogEntry]]:
        """After a round ends: note the result, then deal the next round unless the match is over."""
        result = engine.result(state)
        if result is None:
            return state, entries
        outcome.results.append(result)
        if result.match_over:
            rec.status = "finished"
            return state, entries
        state = engine.next_round(state)
        entries.append(self._entry(rec, "next_round", None, "next_round", offset=len(entries)))
        outcome.events.append(Event("NextRound", {"round": state.get("round"), "seat": engine.current_seat(state)}))
        return state, entries

    def _automatic_seat(self, rec: TableRecord, engine: Engine, state: State) -> int | None:
        seat = engine.current_seat(state)
        if seat is None or rec.status != "playing":
            return None
        s = rec.seats[seat]
        return seat if s.kind == "ai" or s.away else None

    async def _run_automatic(self, rec: TableRecord, state: State, outcome: Outcome) -> Outcome:
        """Play AI seats (and seats whose player is away) until a present human is on turn.

        Each move is its own commit, so a crash loses at most the move being computed; its RNG
        comes from the seed and the log position, so a replay makes the same choices."""
        engine = self.engine_for(rec)
        for _ in range(MAX_AI_STEPS):
            seat = self._automatic_seat(rec, engine, state)
            if seat is None:
                break
            rng = rng_for(rec.seed, "ai", rec.log_seq)
            try:
                if rec.seats[seat].kind == "ai":
                    action = engine.ai_action(state, seat, rng)
                else:  # a player who is away: the game's stand-in (AI or the spec's auto-play)
                    action = engine.stand_in_action(state, seat, rng)
                state, events = engine.apply(state, seat, action)
            except IllegalAction:
                # An AI bug must not stall the table: the timeout rule is always legal.
                action = engine.timeout_action(state)
                state, events = engine.apply(state, seat, action)
            outcome.events.extend(events)
            entries = [self._entry(rec, "ai", seat, engine.format(action), offset=0)]
            state, entries = self._maybe_next_round(engine, rec, state, entries, outcome)
            rec = await self._commit(rec, state, entries, acted_seat=seat, prev_turn=seat, force_new_deadline=True)
        outcome.table = rec
        outcome.public_view = engine.view(state, None)
        outcome.private_views = {
            i: engine.view(state, i) for i, s in enumerate(rec.seats) if s.kind == "human"
        }
        return outcome

    async def _commit(
        self,
        rec: TableRecord,
        state: State,
        entries: list[LogEntry],
        *,
        acted_seat: int | None,
        prev_turn: int | None,
        force_new_deadline: bool = False,
    ) -> TableRecord:
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
        rec.updated_at = now
        stamped = [e.model_copy(update={"at": now}) for e in entries]
        # The commit that finishes the match carries its result: one transaction, so a crash can
        # neither lose the result nor store it for a match that did not end.
        if rec.status != "finished":
            return await self.store.commit(rec, expected_version=rec.version, entries=stamped)
        saved = await self.store.commit(rec, expected_version=rec.version, entries=stamped,
                                        result=self._result_record(rec, state))
        await self._rate()
        return saved

    def _result_record(self, rec: TableRecord, state: State | None) -> MatchResultRecord:
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
        except Exception:
            log.exception("rating caught up later")

    async def rematch(
        self, platform: str, chat_id: str, by: Player, *, topic_id: str | None = None,
        meta: dict[str, Any] | None = None,
    ) -> TableRecord:
        """`/rematch`: a lobby with the seats and options of the chat's last match, and a new seed.
        Anyone who sat at that match (or hosted it) may ask; they host the new one."""
        if await self.store.active_table_for_chat(platform, chat_id, topic_id) is not None:
            raise ServiceError("E_TABLE_EXISTS")
        old: TableRecord | None = None
        for res in await self.store.results(platform, chat_id, limit=20):
            found = await self.store.get_table(res.table_id)
            if found is not None and (found.topic_id or None) == (topic_id or None) and found.seats:
                old = found
                break
        if old is None:
            raise ServiceError("E_NO_TABLE")
        if self.seat_of(old, by) is None and not self._is_host(old, by):
            raise ServiceError("E_NOT_SEATED")
        now = self.clock.now()
        await self.store.upsert_player(by.platform, by.user_id, by.name)
        rec = TableRecord(
            id=self._new_table_id(),
            game=old.game,
            platform=platform,
            chat_id=chat_id,
            topic_id=topic_id,
            status="lobby",
            host_platform=by.platform,
            host_user_id=by.user_id,
            options=dict(old.options),
            seed=self._new_seed(),
            deck=None,
            seats=[s.model_copy(update={"away": False}) for s in old.seats],
            created_at=now,
            updated_at=now,
            meta={"lobby_expires": now + self.lobby_ttl_s, "rematch_of": old.id, **(meta or {})},
        )
        try:
            await self.store.create_table(rec)
        except TableExists:
            raise ServiceError("E_TABLE_EXISTS") from None
        return rec

    async def replay(self, table_id: str) -> State:
        """Rebuild a table's state from seed + options + deck + log (the source of truth)."""
        rec = await self.get(table_id)
        engine = self.engine_for(rec)
        state = engine.new_game(len(rec.seats), options=rec.options, seed=rec.seed, deck=rec.deck)
        for entry in await self.store.log(table_id):
            if entry.kind == "next_round":
                state = engine.next_round(state)
            elif entry.kind != "start":
                state, _ = engine.apply(state, entry.seat, engine.parse(entry.text))
        return state
