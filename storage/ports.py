"""The storage port the table service depends on; all backends pass tests/storage/test_store_contract.py."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from storage.models import (
    EVERY_TABLE,
    ActionKeyRecord,
    BoardRow,
    ClaimScope,
    ClaimWrite,
    LogEntry,
    MatchPlayerRecord,
    MatchResultRecord,
    PlayerRecord,
    RatingKey,
    RatingRecord,
    TableRecord,
)

# Given a result and the current ratings it touches (absent = never rated), what to write:
# the per-seat rows and the new ratings. Pure and synchronous, so it runs inside the transaction.
RateFn = Callable[[MatchResultRecord, dict[RatingKey, RatingRecord]],
                  tuple[list[MatchPlayerRecord], list[RatingRecord]]]


class Store(Protocol):
    async def open(self) -> None:
        """Connect and bring the schema up to date. Call once before anything else."""

    async def close(self) -> None:
        """Release the connection; safe to call twice."""

    async def create_table(self, rec: TableRecord, key: str | None = None,
                           reply: dict[str, Any] | None = None) -> None:
        """Store a new table as given. `TableExists` when the id is taken or the chat/topic
        already has an active (lobby or playing) table. With `key`, the key is recorded in the same
        transaction (version 0); `DuplicateAction` (nothing written) if the key was used before."""

    async def get_table(self, table_id: str) -> TableRecord | None: ...

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        """The lobby or playing table of that chat; `topic_id=None` means the chat's main thread."""

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        """Tables in any of `statuses`, oldest first."""

    async def count_tables(self, statuses: Sequence[str]) -> dict[str, int]:
        """How many tables are in each of `statuses` (0 for none): an index count, for metrics."""

    async def due_tables(self, now: float) -> list[str]:
        """Ids of playing tables whose turn deadline is at or before `now`, earliest first."""

    # ---- claims (migration 005): one process does a table's clock work --------------------------

    async def claim_due(self, now: float, owner: str, lease_s: float, limit: int = 100,
                        dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        """Atomically claim, for `owner` until `now + lease_s`, up to `limit` tables in `scope` whose
        clock work is due — a playing table's deadline or `wake` (automatic moves on turn), or a
        lobby's `expires`, at or before `now` — earliest first, and return their ids. Indexed by
        (platform, time) per status, so no process reads the tables it does not take. A table claimed by another owner whose lease has not
        run out (until > now) is skipped, unless that owner is in `dead` (proven gone: its claims
        are taken at once); an expired claim, or one of `owner`'s own, is taken (renewed). Two
        owners claiming at once never get the same table.

        So a table whose automatic moves were left unplayed — a failed commit whose claim was
        released, a process that died, a claim lost — is due again at the next tick."""

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100,
                          dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        """Atomically take over up to `limit` playing tables in `scope` holding a claim that was never released
        and either expired or belongs to an owner in `dead` (its owner died mid-turn: AI moves or a
        timeout are pending); the oldest leases are taken first, the ids come sorted."""

    async def claim_holders(self, now: float) -> list[str]:
        """The owners holding a live claim (until > now), sorted: whom a restarted process may
        prove gone (bot/core/liveness.py) and pass as `dead`."""

    async def hold_liveness(self, owner: str) -> None:
        """Show `owner` alive to the other processes for as long as this store is open (call it
        again now and then: a session lost with the database is taken again). A no-op where the
        database cannot tell (SQLite, memory: one host, whose processes bot/core/liveness.py sees)."""

    async def gone(self, owners: Sequence[str]) -> list[str]:
        """Those of `owners` that the database shows are not alive (no open store holds their
        `hold_liveness`), sorted; [] where it cannot tell."""

    async def claim_table(self, table_id: str, owner: str, now: float, lease_s: float) -> bool:
        """Claim one playing table (as `claim_due`, whatever its deadline): True if `owner` now
        holds it, False if another owner's lease is live or the table is not playing."""

    async def release_claim(self, table_id: str, owner: str) -> None:
        """Drop `owner`'s claim of the table (the work is done); another owner's claim is kept."""

    async def commit(
        self,
        rec: TableRecord,
        expected_version: int,
        entries: Sequence[LogEntry] = (),
        result: MatchResultRecord | None = None,
        key: str | None = None,
        reply: dict[str, Any] | None = None,
        claim: ClaimWrite | None = None,
    ) -> TableRecord:
        """Atomically: check the version, append `entries` to the log, write `rec` as the new snapshot,
        and store `result` (the match's result, once per table as in `record_result`) in the same
        transaction, so a finished or abandoned table never lacks its result.

        `key` is the platform's idempotency key of the change (with the JSON `reply` to give a
        repeat): recorded in the same transaction, with the new version and `rec.updated_at` as its
        time. `DuplicateAction` if the key was used before — checked first, so a repeat is told apart
        from a stale writer.

        `claim` takes (renews) or drops a claim of the table in the same transaction. Taken, it
        replaces whatever claim is stored, another owner's live one included: the version check
        passed, so any other owner's work is for a version that is gone (its commits will conflict).

        `VersionConflict` if the stored version is not `expected_version`; `ValueError` if the
        entries do not continue the log densely (first seq == stored log_seq + 1) or name another
        table; `TableNotFound` if there is no such table. On any error nothing is written.
        `rec.version`, `rec.log_seq`, `rec.created_at` are ignored: the result carries
        version = expected_version + 1 and log_seq = the last entry's seq (unchanged if none).
        """

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        """Entries with seq > after_seq, in order."""

    async def action_key(self, key: str) -> ActionKeyRecord | None:
        """The change recorded under `key`, if any (see `commit`)."""

    async def prune_action_keys(self, before: float) -> int:
        """Forget keys recorded before `before` (platforms redeliver within hours); returns how many."""

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        """Create the player or update the name; created_at is kept from the first call."""

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None: ...

    async def record_result(self, rec: MatchResultRecord) -> bool:
        """Store a match result once per table: True if stored now, False if it was already there."""

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        """The chat's results, newest first, optionally for one game only."""

    # ---- standings (migration 003) ---------------------------------------------------------------

    async def unrated_results(self, limit: int = 100) -> list[MatchResultRecord]:
        """Finished results not rated yet, oldest first (ratings must be applied in match order)."""

    async def rate_result(self, table_id: str, keys: Sequence[RatingKey], rate: RateFn) -> bool:
        """In one transaction: if the result is finished and not yet rated, load the current ratings
        of `keys` (in the result's platform and game), call `rate`, write its seat rows and ratings
        and mark the result rated. False (nothing written) when it was rated already or is not a
        finished result: rating happens exactly once."""

    async def board(
        self, platform: str, scope: str, game: str, kind: str = "player", since: float | None = None,
        limit: int = 10,
    ) -> list[BoardRow]:
        """A leaderboard, best rating first. `since=None`: all time, straight from the ratings;
        else matches/wins/points of the matches finished at or after `since` (rating as of now)."""

    async def ratings(self, platform: str, scope: str, kind: str = "player", game: str | None = None
                      ) -> list[RatingRecord]:
        """Every rating of a scope (a chat or GLOBAL_SCOPE), best first."""

    async def player_matches(
        self, platform: str, user_id: str, chat_id: str | None = None, game: str | None = None
    ) -> list[MatchPlayerRecord]:
        """A player's counted matches, oldest first; in one chat or (chat_id=None) all of them."""

    async def team_names(self, platform: str, chat_id: str) -> dict[str, str]:
        """Team subject -> the name given with `/team name` in that chat."""

    async def set_team_name(self, platform: str, chat_id: str, team: str, name: str) -> None: ...

    # ---- adapter data (migration 002): never touches a table's version --------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        """The chat's settings (language, ...); {} when none were stored."""

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        """Replace the chat's settings with `settings` (JSON values)."""

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        """True the first time an update id is claimed, False for a duplicate (exactly once across
        processes sharing the store)."""

    async def update_claimed(self, platform: str, update_id: str) -> bool:
        """Whether `claim_update` was called for this update id (a finished update, seen again)."""

    async def prune_updates(self, platform: str, before: float) -> int:
        """Forget update ids claimed before `before`; returns how many were dropped."""

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        """An adapter's references for a table (message ids ...); {} when none."""

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        """Store one reference (a JSON value); `None` removes it."""
