"""The lobby half of the table service: opening a table, seats, options, ending, rematches.

Every change here is judged on fresh data and retried when another process wrote the table first
(`VersionConflict`), so five people pressing Join at once are all seated or told why — never an
error for the race itself. A change may carry the platform's idempotency key: it is stored with the
change, and a redelivery of the same press returns the table as it is instead of acting twice.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core.ai_seats import ai_level, ai_name
from bot.core.clock import Clock
from bot.core.models import Player, ServiceError
from bot.core.options_text import bad_option
from rules import IllegalAction, SetupError, engine_names, get_engine
from rules.core.levels import DEFAULT_LEVEL
from storage import (
    ActionKeyRecord,
    DuplicateAction,
    MatchResultRecord,
    SeatRecord,
    Store,
    TableExists,
    TableRecord,
    VersionConflict,
)

if TYPE_CHECKING:
    from bot.core.table_gate import TableGate

# A lost race costs one fresh read and another try; this many losses in a row is a table so busy
# that the player is asked to try again (a sentence, E_CONFLICT).
RETRIES = 8

Change = Callable[[TableRecord], Awaitable[None]]
T = TypeVar("T")


class Lobby:
    """Mixed into `TableService`, which provides the attributes and helpers declared here."""

    store: Store
    clock: Clock
    lobby_ttl_s: float
    _new_table_id: Callable[[], str]
    _new_seed: Callable[[], int]

    if TYPE_CHECKING:  # provided by TableService; for the type checker only, so nothing here shadows them
        def _lock(self, table_id: str) -> TableGate: ...  # noqa: D102
        async def get(self, table_id: str) -> TableRecord: ...  # noqa: D102
        def _result_record(self, rec: TableRecord, state: Any) -> MatchResultRecord: ...  # noqa: D102

    @staticmethod
    def seat_of(rec: TableRecord, user: Player) -> int | None:
        for i, seat in enumerate(rec.seats):
            if seat.kind == "human" and seat.platform == user.platform and seat.user_id == user.user_id:
                return i
        return None

    @classmethod
    def playing_seat(cls, rec: TableRecord, user: Player) -> int:
        """`user`'s seat at a table in play; a `ServiceError` naming which of the two it is not."""
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        seat = cls.seat_of(rec, user)
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        return seat

    @staticmethod
    def is_host(rec: TableRecord, user: Player) -> bool:
        """Whether `user` hosts the table (adapters show host-only controls by it)."""
        return rec.host_platform == user.platform and rec.host_user_id == user.user_id

    # ---- keyed, retried changes ------------------------------------------------------------------

    async def _done(self, key: str | None) -> ActionKeyRecord | None:
        """The change already made under this key (a redelivery), if any."""
        return None if key is None else await self.store.action_key(key)

    async def _save_seats(self, rec: TableRecord, key: str | None = None) -> TableRecord:
        """Store a change outside the game state (seats, options, status): no log entry.
        A table that ends here (ended early, lobby expired) gets its abandoned result in the same
        transaction."""
        rec.updated_at = self.clock.now()
        result = self._result_record(rec, None) if rec.status == "abandoned" else None
        return await self.store.commit(rec, expected_version=rec.version, result=result, key=key)

    async def _keyed(self, table_id: str, key: str | None, attempt: Callable[[TableRecord], Awaitable[T]],
                     repeat: Callable[[ActionKeyRecord], Awaitable[T]]) -> T:
        """Every change to a table, under its lock: `attempt` runs on a fresh copy, and again on what
        another process wrote when that one won the race (VersionConflict). With `key`, a change
        already made under it — found at COMMIT (the store checks the key in the change's own
        transaction), or as the cause of a refusal (our own first delivery moved the table on) — is
        answered by `repeat` and not made again. The key is not looked up before trying: that read
        would be paid by every change for the sake of the rare redelivery, which the COMMIT catches
        anyway (an attempt that stores anything before its own commit checks the key itself)."""
        async with self._lock(table_id):
            for _ in range(RETRIES):
                rec = await self.get(table_id)
                try:
                    return await attempt(rec)
                except DuplicateAction as dup:
                    return await repeat(dup.record)
                except VersionConflict:
                    continue
                except (ServiceError, IllegalAction):
                    if (done := await self._done(key)) is not None:
                        return await repeat(done)
                    raise
            raise ServiceError("E_CONFLICT")

    async def _change(self, table_id: str, change: Change, key: str | None) -> TableRecord:
        """A change outside the game state (seats, options, status); a repeat gets the table as it is."""
        async def attempt(rec: TableRecord) -> TableRecord:
            await change(rec)
            return await self._save_seats(rec, key)

        async def repeat(done: ActionKeyRecord) -> TableRecord:
            return await self.get(done.table_id)

        return await self._keyed(table_id, key, attempt, repeat)

    @staticmethod
    def _in_lobby(rec: TableRecord, user: Player | None = None, host_only: bool = False) -> None:
        if rec.status != "lobby":
            raise ServiceError("E_NOT_IN_LOBBY")
        if host_only and user is not None and not Lobby.is_host(rec, user):
            raise ServiceError("E_NOT_HOST")

    # ---- opening ---------------------------------------------------------------------------------

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
        key: str | None = None,
        shard_key: int | None = None,
    ) -> TableRecord:
        """Open a lobby in a chat. The host takes seat 1 unless `seat_host` is off (AI-only tables).
        `shard_key` places the table with the process of its Discord shard (`TableRecord.shard_key`)."""
        if (done := await self._done(key)) is not None:
            return await self.get(done.table_id)
        try:
            engine = get_engine(game)
        except KeyError:
            raise ServiceError("E_UNKNOWN_GAME", game=game, known=", ".join(engine_names())) from None
        try:
            opts = engine.options_model.parse_options(options).model_dump()
        except SetupError as err:
            raise bad_option(err, engine) from None
        if await self.store.active_table_for_chat(platform, chat_id, topic_id) is not None:
            return await self._opened_by(key)
        now = self.clock.now()
        await self.store.upsert_player(host.platform, host.user_id, host.name)
        seats = [SeatRecord(kind="human", platform=host.platform, user_id=host.user_id, name=host.name)]
        rec = TableRecord(
            id=self._new_table_id(), game=engine.name, platform=platform, chat_id=chat_id, topic_id=topic_id,
            status="lobby", host_platform=host.platform, host_user_id=host.user_id, options=opts,
            seed=self._new_seed() if seed is None else seed, deck=deck, seats=seats if seat_host else [],
            created_at=now, updated_at=now, expires=now + self.lobby_ttl_s, shard_key=shard_key, meta=meta or {},
        )
        return await self._create(rec, key)

    async def _create(self, rec: TableRecord, key: str | None) -> TableRecord:
        try:
            await self.store.create_table(rec, key=key)
        except DuplicateAction as dup:  # another process took this very /new first
            return await self.get(dup.record.table_id)
        except TableExists:  # another process opened one in the same moment
            return await self._opened_by(key)
        return rec

    async def _opened_by(self, key: str | None) -> TableRecord:
        """The chat has a table already: when this very /new opened it (the same update delivered
        twice, the other delivery just ahead of this one), the answer is that table, as the first
        delivery's was; otherwise the chat's table is in the way."""
        if (done := await self._done(key)) is not None:
            return await self.get(done.table_id)
        raise ServiceError("E_TABLE_EXISTS")

    async def rematch(
        self, platform: str, chat_id: str, by: Player, *, topic_id: str | None = None,
        meta: dict[str, Any] | None = None, key: str | None = None, shard_key: int | None = None,
    ) -> TableRecord:
        """`/rematch`: a lobby with the seats and options of the chat's last match, and a new seed.
        Anyone who sat at that match (or hosted it) may ask; they host the new one."""
        if (done := await self._done(key)) is not None:
            return await self.get(done.table_id)
        if await self.store.active_table_for_chat(platform, chat_id, topic_id) is not None:
            return await self._opened_by(key)
        old: TableRecord | None = None
        for res in await self.store.results(platform, chat_id, limit=20):
            found = await self.store.get_table(res.table_id)
            if found is not None and (found.topic_id or None) == (topic_id or None) and found.seats:
                old = found
                break
        if old is None:
            raise ServiceError("E_NO_TABLE")
        if self.seat_of(old, by) is None and not self.is_host(old, by):
            raise ServiceError("E_NOT_SEATED")
        now = self.clock.now()
        await self.store.upsert_player(by.platform, by.user_id, by.name)
        rec = TableRecord(
            id=self._new_table_id(), game=old.game, platform=platform, chat_id=chat_id, topic_id=topic_id,
            status="lobby", host_platform=by.platform, host_user_id=by.user_id, options=dict(old.options),
            seed=self._new_seed(), deck=None, seats=[s.model_copy(update={"away": False}) for s in old.seats],
            created_at=now, updated_at=now,
            expires=now + self.lobby_ttl_s, shard_key=shard_key, meta={"rematch_of": old.id, **(meta or {})},
        )
        return await self._create(rec, key)

    # ---- seats and options -----------------------------------------------------------------------

    async def join(self, table_id: str, user: Player, *, key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec)
            if self.seat_of(rec, user) is not None:
                raise ServiceError("E_ALREADY_SEATED")
            engine = get_engine(rec.game)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            await self.store.upsert_player(user.platform, user.user_id, user.name)
            rec.seats.append(SeatRecord(kind="human", platform=user.platform, user_id=user.user_id, name=user.name))

        return await self._change(table_id, change, key)

    async def leave(self, table_id: str, user: Player, *, key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec)
            seat = self.seat_of(rec, user)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            del rec.seats[seat]
            if self.is_host(rec, user):
                humans = [s for s in rec.seats if s.kind == "human"]
                if humans:  # the host role passes to the next human in join order
                    rec.host_platform, rec.host_user_id = humans[0].platform, humans[0].user_id
                else:
                    rec.status = "abandoned"

        return await self._change(table_id, change, key)

    async def add_ai(self, table_id: str, by: Player, *, level: str = DEFAULT_LEVEL,
                     key: str | None = None) -> TableRecord:
        """The host seats an AI that plays at `level` (easy, normal, strong: rules/core/levels.py;
        the "addai" button may carry it as its argument, bot/core/ai_seats.py)."""
        chosen = ai_level(level)  # refused before any read: a bad level is the caller's, not a race

        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec, by, host_only=True)
            engine = get_engine(rec.game)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            n = 1 + sum(1 for s in rec.seats if s.kind == "ai")
            rec.seats.append(SeatRecord(kind="ai", platform=None, user_id=None, name=ai_name(n), level=chosen))

        return await self._change(table_id, change, key)

    async def remove_ai(self, table_id: str, by: Player, *, key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec, by, host_only=True)
            ai_seats = [i for i, s in enumerate(rec.seats) if s.kind == "ai"]
            if not ai_seats:
                raise ServiceError("E_NO_AI")
            del rec.seats[ai_seats[-1]]

        return await self._change(table_id, change, key)

    async def swap_seats(self, table_id: str, by: Player, a: int, b: int, *, key: str | None = None) -> TableRecord:
        """The host reorders seats before the start (0-based); in team games this picks partners,
        since partners sit opposite each other."""
        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec, by, host_only=True)
            if not (0 <= a < len(rec.seats) and 0 <= b < len(rec.seats)) or a == b:
                raise ServiceError("E_BAD_SEAT", seats=len(rec.seats))
            rec.seats[a], rec.seats[b] = rec.seats[b], rec.seats[a]

        return await self._change(table_id, change, key)

    async def set_option(self, table_id: str, by: Player, option: str, value: Any, *,
                         key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            self._in_lobby(rec, by, host_only=True)
            engine = get_engine(rec.game)
            try:
                rec.options = engine.options_model.parse_options({**rec.options, option: value}).model_dump()
            except SetupError as err:
                raise bad_option(err, engine) from None

        return await self._change(table_id, change, key)

    async def end_table(self, table_id: str, by: Player, *, is_admin: bool = False,
                        key: str | None = None) -> TableRecord:
        """The host or a chat admin ends a table at any time; it is stored as abandoned."""
        async def change(rec: TableRecord) -> None:
            if rec.status not in ("lobby", "playing"):
                raise ServiceError("E_NOT_PLAYING")
            if not (is_admin or self.is_host(rec, by)):
                raise ServiceError("E_NOT_HOST")
            rec.status = "abandoned"
            rec.deadline = None

        return await self._change(table_id, change, key)
