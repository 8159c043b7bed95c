"""The lobby: opening a table, seats, options, ending, rematches.

Every change goes through the ledger (bot/core/ledger.py): judged on fresh data under the table's
gate, retried when another process wrote the table first, and keyed, so five people pressing Join at
once are all seated or told why, and a redelivery of the same press returns the table as it is
instead of acting twice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.ai_seats import ai_level, ai_name
from bot.core.clock import Clock
from bot.core.ledger import Ledger
from bot.core.models import Player, ServiceError
from bot.core.options_text import bad_option
from rules import SetupError, engine_names, get_engine
from rules.core.levels import DEFAULT_LEVEL
from storage import DuplicateAction, SeatRecord, Store, TableExists, TableRecord


def seat_of(rec: TableRecord, user: Player) -> int | None:
    for i, seat in enumerate(rec.seats):
        if seat.kind == "human" and seat.platform == user.platform and seat.user_id == user.user_id:
            return i
    return None


def playing_seat(rec: TableRecord, user: Player) -> int:
    """`user`'s seat at a table in play; a `ServiceError` naming which of the two it is not."""
    if rec.status != "playing":
        raise ServiceError("E_NOT_PLAYING")
    seat = seat_of(rec, user)
    if seat is None:
        raise ServiceError("E_NOT_SEATED")
    return seat


def is_host(rec: TableRecord, user: Player) -> bool:
    """Whether `user` hosts the table (adapters show host-only controls by it)."""
    return rec.host_platform == user.platform and rec.host_user_id == user.user_id


def in_lobby(rec: TableRecord, user: Player | None = None, host_only: bool = False) -> None:
    """Refuse unless the table is a lobby (and, with `host_only`, `user` hosts it)."""
    if rec.status != "lobby":
        raise ServiceError("E_NOT_IN_LOBBY")
    if host_only and user is not None and not is_host(rec, user):
        raise ServiceError("E_NOT_HOST")


class Lobby:
    """The table's life before its deal (and its end at any time). New tables get their id from
    `new_table_id`, their seed from `new_seed`, and expire `lobby_ttl_s` after opening."""

    def __init__(self, store: Store, clock: Clock, *, ledger: Ledger, lobby_ttl_s: float,
                 new_table_id: Callable[[], str], new_seed: Callable[[], int]) -> None:
        self.store = store
        self.clock = clock
        self.ledger = ledger
        self.lobby_ttl_s = lobby_ttl_s
        self._new_table_id = new_table_id
        self._new_seed = new_seed

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
        if (done := await self.ledger.done(key)) is not None:
            return await self.ledger.get(done.table_id)
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
            return await self.ledger.get(dup.record.table_id)
        except TableExists:  # another process opened one in the same moment
            return await self._opened_by(key)
        return rec

    async def _opened_by(self, key: str | None) -> TableRecord:
        """The chat has a table already: when this very /new opened it (the same update delivered
        twice, the other delivery just ahead of this one), the answer is that table, as the first
        delivery's was; otherwise the chat's table is in the way."""
        if (done := await self.ledger.done(key)) is not None:
            return await self.ledger.get(done.table_id)
        raise ServiceError("E_TABLE_EXISTS")

    async def rematch(
        self, platform: str, chat_id: str, by: Player, *, topic_id: str | None = None,
        meta: dict[str, Any] | None = None, key: str | None = None, shard_key: int | None = None,
    ) -> TableRecord:
        """`/rematch`: a lobby with the seats and options of the chat's last match, and a new seed.
        Anyone who sat at that match (or hosted it) may ask; they host the new one."""
        if (done := await self.ledger.done(key)) is not None:
            return await self.ledger.get(done.table_id)
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
        if seat_of(old, by) is None and not is_host(old, by):
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
            in_lobby(rec)
            if seat_of(rec, user) is not None:
                raise ServiceError("E_ALREADY_SEATED")
            engine = get_engine(rec.game)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            await self.store.upsert_player(user.platform, user.user_id, user.name)
            rec.seats.append(SeatRecord(kind="human", platform=user.platform, user_id=user.user_id, name=user.name))

        return await self.ledger.change(table_id, change, key)

    async def leave(self, table_id: str, user: Player, *, key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            in_lobby(rec)
            seat = seat_of(rec, user)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            del rec.seats[seat]
            if is_host(rec, user):
                humans = [s for s in rec.seats if s.kind == "human"]
                if humans:  # the host role passes to the next human in join order
                    rec.host_platform, rec.host_user_id = humans[0].platform, humans[0].user_id
                else:
                    rec.status = "abandoned"

        return await self.ledger.change(table_id, change, key)

    async def add_ai(self, table_id: str, by: Player, *, level: str = DEFAULT_LEVEL,
                     key: str | None = None) -> TableRecord:
        """The host seats an AI that plays at `level` (easy, normal, strong: rules/core/levels.py;
        the "addai" button may carry it as its argument, bot/core/ai_seats.py)."""
        chosen = ai_level(level)  # refused before any read: a bad level is the caller's, not a race

        async def change(rec: TableRecord) -> None:
            in_lobby(rec, by, host_only=True)
            engine = get_engine(rec.game)
            if len(rec.seats) >= engine.max_seats:
                raise ServiceError("E_TABLE_FULL", seats=engine.max_seats)
            n = 1 + sum(1 for s in rec.seats if s.kind == "ai")
            rec.seats.append(SeatRecord(kind="ai", platform=None, user_id=None, name=ai_name(n), level=chosen))

        return await self.ledger.change(table_id, change, key)

    async def remove_ai(self, table_id: str, by: Player, *, key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            in_lobby(rec, by, host_only=True)
            ai_seats = [i for i, s in enumerate(rec.seats) if s.kind == "ai"]
            if not ai_seats:
                raise ServiceError("E_NO_AI")
            del rec.seats[ai_seats[-1]]

        return await self.ledger.change(table_id, change, key)

    async def swap_seats(self, table_id: str, by: Player, a: int, b: int, *, key: str | None = None) -> TableRecord:
        """The host reorders seats before the start (0-based); in team games this picks partners,
        since partners sit opposite each other."""
        async def change(rec: TableRecord) -> None:
            in_lobby(rec, by, host_only=True)
            if not (0 <= a < len(rec.seats) and 0 <= b < len(rec.seats)) or a == b:
                raise ServiceError("E_BAD_SEAT", seats=len(rec.seats))
            rec.seats[a], rec.seats[b] = rec.seats[b], rec.seats[a]

        return await self.ledger.change(table_id, change, key)

    async def set_option(self, table_id: str, by: Player, option: str, value: Any, *,
                         key: str | None = None) -> TableRecord:
        async def change(rec: TableRecord) -> None:
            in_lobby(rec, by, host_only=True)
            engine = get_engine(rec.game)
            try:
                rec.options = engine.options_model.parse_options({**rec.options, option: value}).model_dump()
            except SetupError as err:
                raise bad_option(err, engine) from None

        return await self.ledger.change(table_id, change, key)

    async def move_chat(self, table_id: str, chat_id: str, *, key: str | None = None) -> TableRecord:
        """The chat the table is played in got a new id (a Telegram group became a supergroup): the
        table follows it, as it is. Moving it to the id it has already is a no-op."""
        async def change(rec: TableRecord) -> None:
            rec.chat_id = chat_id

        rec = await self.store.get_table(table_id)
        if rec is not None and rec.chat_id == chat_id:
            return rec
        return await self.ledger.change(table_id, change, key)

    async def end_table(self, table_id: str, by: Player, *, is_admin: bool = False,
                        key: str | None = None) -> TableRecord:
        """The host or a chat admin ends a table at any time; it is stored as abandoned."""
        async def change(rec: TableRecord) -> None:
            if rec.status not in ("lobby", "playing"):
                raise ServiceError("E_NOT_PLAYING")
            if not (is_admin or is_host(rec, by)):
                raise ServiceError("E_NOT_HOST")
            rec.status = "abandoned"
            rec.deadline = None

        return await self.ledger.change(table_id, change, key)
