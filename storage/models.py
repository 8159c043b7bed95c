"""Records the storage layer keeps. Games are opaque JSON here: storage never imports `rules/`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic_core import to_json

TableStatus = Literal["lobby", "playing", "finished", "abandoned"]
ACTIVE_STATUSES: tuple[str, ...] = ("lobby", "playing")

# SQLite INTEGER is a signed 64-bit value; bounding the seed here keeps every backend equally strict.
_INT64_MIN = -(2**63)
_INT64_MAX = 2**63 - 1


class SeatRecord(BaseModel):
    kind: Literal["human", "ai"]
    platform: str | None
    user_id: str | None
    name: str
    away: bool = False
    # How an AI seat plays (rules/core/levels.py; human seats keep the default). Records stored
    # before levels existed have no such key and load as the AI they always were.
    level: Literal["easy", "normal", "strong"] = "normal"


class TableRecord(BaseModel):
    id: str
    game: str
    platform: str
    chat_id: str
    topic_id: str | None = None
    status: TableStatus
    host_platform: str | None
    host_user_id: str | None
    options: dict[str, Any]
    seed: int = Field(ge=_INT64_MIN, le=_INT64_MAX)
    deck: list[str] | None = None
    seats: list[SeatRecord]
    version: int = 0
    # Engine state snapshot taken after log entry `log_seq`; replaying the log from there must agree.
    state: dict[str, Any] | None = None
    log_seq: int = 0
    deadline: float | None = None  # epoch seconds of the current turn deadline
    # While an AI or away seat is on turn: when those automatic moves became due (None: a present
    # human is on turn). Store.claim_due takes tables whose wake passed, whatever became of the claim.
    wake: float | None = None
    # A lobby's end: not started by then, it is abandoned by whichever process claims it (claim_due).
    expires: float | None = None
    # What a platform's processes split its tables by (`ClaimScope.shards`): for Discord the guild
    # id's upper bits (guild_id >> 22), so shard_key % shard_count is the guild's gateway shard.
    # None: any process of the platform (tables opened before shards were known).
    shard_key: int | None = Field(None, ge=0, le=_INT64_MAX)
    created_at: float
    updated_at: float
    meta: dict[str, Any] = Field(default_factory=dict)  # adapter data: message ids, language...


class ClaimScope(BaseModel, frozen=True):
    """The tables a process does clock work for: those it can show (a passed deadline played by a
    process that cannot edit the table's message would be stored and never seen). `platforms=None`:
    every platform. `shards=(count, ids)`: of the tables with a `shard_key`, only those whose
    `shard_key % count` is in `ids` (a Discord shard's guilds); tables without one pass."""

    platforms: tuple[str, ...] | None = None
    shards: tuple[int, tuple[int, ...]] | None = None

    def takes(self, rec: TableRecord) -> bool:
        if self.platforms is not None and rec.platform not in self.platforms:
            return False
        if self.shards is None or rec.shard_key is None:
            return True
        count, ids = self.shards
        return rec.shard_key % count in ids


EVERY_TABLE = ClaimScope()


class LogEntry(BaseModel):
    table_id: str
    seq: int = Field(ge=1)  # 1-based and dense per table, so a replay can tell when something is missing
    kind: str
    seat: int | None
    text: str  # the action in the game's text grammar
    at: float

    def mover(self) -> int:
        """The seat that made this move. Only a move's entry has one (`start` and `next_round` have none),
        so a move stored without a seat is a damaged log: replaying it must stop, naming the entry."""
        if self.seat is None:
            raise ValueError(f"table {self.table_id!r}: log entry {self.seq} ({self.kind} {self.text!r}) "
                             "is a move without a seat; the log is damaged and cannot be replayed")
        return self.seat


class PlayerRecord(BaseModel):
    platform: str
    user_id: str
    name: str
    created_at: float


class MatchResultRecord(BaseModel):
    table_id: str
    game: str
    platform: str
    chat_id: str
    status: Literal["finished", "abandoned"]
    finished_at: float
    seats: list[SeatRecord]
    result: dict[str, Any]


GLOBAL_SCOPE = "*"  # the ratings scope across all chats of a platform


class MatchPlayerRecord(BaseModel):
    """One seat of a counted match, as the standings read it. AI seats are kept (kind "ai") but
    never ranked; `team` is the team's subject in team games (see RatingRecord)."""

    table_id: str
    seat: int
    platform: str
    chat_id: str
    game: str
    finished_at: float
    kind: Literal["human", "ai"]
    user_id: str | None
    name: str
    team: str | None = None
    place: int  # 1 = first; equal places are ties
    won: bool
    score: int  # the seat's final total
    best_round: int | None = None


class RatingRecord(BaseModel):
    """A subject's current skill in one game: subject "p:<user_id>" (a player) or
    "t:<user_id>+<user_id>" (a team, ids sorted); scope is a chat id or GLOBAL_SCOPE."""

    platform: str
    scope: str
    game: str
    subject: str
    kind: Literal["player", "team"]
    name: str
    mu: float
    sigma: float
    rating: float  # the conservative estimate shown and sorted by (mu - 3 sigma)
    matches: int = 0
    wins: int = 0
    points: int = 0
    updated_at: float


class BoardRow(BaseModel):
    """A leaderboard line: matches/wins/points over the period asked for, the rating as of now."""

    subject: str
    name: str
    rating: float | None
    matches: int
    wins: int
    points: int


RatingKey = tuple[str, str]  # (scope, subject) within one platform and game


class VersionConflict(Exception):
    """The stored table moved on since the caller read it (a stale button, another process)."""

    def __init__(self, table_id: str, expected: int, actual: int) -> None:
        super().__init__(f"table {table_id!r}: expected version {expected}, stored version is {actual}")
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class ClaimWrite(BaseModel):
    """A table's claim written by `Store.commit` in the change's own transaction: taken (or renewed)
    for `owner` until `until`, or, with `until=None`, `owner`'s claim dropped. Taken with the move
    that leads to automatic moves, the claim covers them before anyone could see that move: no other
    process plays those turns, and a crash leaves the claim for `claim_stale`."""

    owner: str
    until: float | None


class ActionKeyRecord(BaseModel):
    """A change made under a platform's idempotency key (an update id, an interaction id). It is
    stored in the same transaction as the change, so a redelivery is answered, never applied again."""

    key: str
    table_id: str
    version: int  # the table version the keyed change produced
    reply: dict[str, Any] = Field(default_factory=dict)  # what the service answers a repeat with
    at: float


class DuplicateAction(Exception):
    """A keyed change whose key was already used: nothing was written; `record` is the first one."""

    def __init__(self, record: ActionKeyRecord) -> None:
        super().__init__(f"key {record.key!r} was already applied to table {record.table_id!r}")
        self.record = record


class TableNotFound(Exception):
    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id!r} not found")
        self.table_id = table_id


class TableExists(Exception):
    """A table with that id exists, or the chat/topic already has an active (lobby/playing) table."""


def chat_key(rec: TableRecord) -> tuple[str, str, str]:
    """What makes two active tables clash. A missing topic counts as '' so that NULLs cannot slip
    past the SQLite unique index (NULLs never compare equal there)."""
    return rec.platform, rec.chat_id, rec.topic_id or ""


def next_log_seq(table_id: str, log_seq: int, entries: Sequence[LogEntry]) -> int:
    """The table's log_seq after appending `entries`; ValueError unless they continue the log densely.

    Both backends call this before writing anything, so a gap or a replayed action is refused alike.
    """
    for offset, entry in enumerate(entries, start=1):
        if entry.table_id != table_id:
            raise ValueError(f"log entry for table {entry.table_id!r} committed with table {table_id!r}")
        if entry.seq != log_seq + offset:
            raise ValueError(
                f"table {table_id!r}: log entry seq {entry.seq} does not follow seq {log_seq + offset - 1}"
            )
    return log_seq + len(entries)


TABLE_JSON_COLUMNS = ("options", "deck", "seats", "state", "meta")


def table_row(rec: TableRecord) -> dict[str, Any]:
    """The table's row for SQLite and PostgreSQL, its JSON columns encoded by pydantic's own (Rust)
    encoder: several times faster than a model_dump then json.dumps per column, and the same JSON
    once decoded."""
    return {k: to_json(v).decode() if k in TABLE_JSON_COLUMNS and v is not None else v
            for k, v in ((k, getattr(rec, k)) for k in TableRecord.model_fields)}
