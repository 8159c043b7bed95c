"""An in-process Store for tests and the console: same contract as SqliteStore, nothing on disk."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from pydantic import BaseModel

from storage.models import (
    ACTIVE_STATUSES,
    EVERY_TABLE,
    GLOBAL_SCOPE,
    ActionKeyRecord,
    BoardRow,
    ClaimScope,
    ClaimWrite,
    DuplicateAction,
    LogEntry,
    MatchPlayerRecord,
    MatchResultRecord,
    PlayerRecord,
    RatingKey,
    RatingRecord,
    TableExists,
    TableNotFound,
    TableRecord,
    VersionConflict,
    chat_key,
    next_log_seq,
)
from storage.ports import RateFn

M = TypeVar("M", bound=BaseModel)


def _stored(rec: M) -> M:
    # A JSON round trip on the way in: the kept copy shares nothing with the caller, and whatever
    # SQLite would refuse or change (non-JSON values, int dict keys) behaves the same here.
    return type(rec).model_validate_json(rec.model_dump_json())


def _out(rec: M) -> M:
    return rec.model_copy(deep=True)  # stored data is plain JSON already, so a deep copy suffices


def _due_at(t: TableRecord, now: float) -> float | None:
    """When the table's clock work fell due, if it has: a playing table's deadline or `wake`
    (automatic moves nobody played), a lobby's `expires`."""
    if t.status == "lobby":
        return t.expires if t.expires is not None and t.expires <= now else None
    if t.status == "playing" and any(x is not None and x <= now for x in (t.deadline, t.wake)):
        return min(x for x in (t.deadline, t.wake) if x is not None)
    return None


class MemoryStore:
    """No method awaits between reading and writing, so each call is atomic under asyncio."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._tables: dict[str, TableRecord] = {}
        self._logs: dict[str, list[LogEntry]] = {}
        self._players: dict[tuple[str, str], PlayerRecord] = {}
        self._results: dict[str, MatchResultRecord] = {}  # insertion order breaks finished_at ties
        self._chat_settings: dict[tuple[str, str], str] = {}
        self._updates: dict[tuple[str, str], float] = {}
        self._keys: dict[str, ActionKeyRecord] = {}
        self._refs: dict[tuple[str, str], str] = {}
        self._rated: set[str] = set()
        self._match_players: dict[tuple[str, int], MatchPlayerRecord] = {}
        self._ratings: dict[tuple[str, str, str, str], RatingRecord] = {}  # platform, scope, game, subject
        self._team_names: dict[tuple[str, str, str], str] = {}
        self._claims: dict[str, tuple[str, float]] = {}  # table id -> (owner, until)

    async def open(self) -> None:
        pass

    async def close(self) -> None:
        pass

    def _chat_taken(self, rec: TableRecord) -> bool:
        return any(t.id != rec.id and t.status in ACTIVE_STATUSES and chat_key(t) == chat_key(rec)
                   for t in self._tables.values())

    def _check_key(self, key: str | None) -> None:
        if key is not None and key in self._keys:
            raise DuplicateAction(_out(self._keys[key]))

    @staticmethod
    def _new_key(key: str | None, rec: TableRecord, version: int,
                 reply: dict[str, Any] | None) -> ActionKeyRecord | None:
        """Built (and JSON-checked) before anything is written, so a bad reply fails the whole change.
        Stamped with the change's own time (the caller's clock), which is what pruning compares."""
        if key is None:
            return None
        return _stored(ActionKeyRecord(key=key, table_id=rec.id, version=version, reply=reply or {},
                                       at=rec.updated_at))

    def _keep_key(self, record: ActionKeyRecord | None) -> None:
        if record is not None:
            self._keys[record.key] = record

    async def action_key(self, key: str) -> ActionKeyRecord | None:
        found = self._keys.get(key)
        return _out(found) if found is not None else None

    async def prune_action_keys(self, before: float) -> int:
        old = [k for k, r in self._keys.items() if r.at < before]
        for k in old:
            del self._keys[k]
        return len(old)

    async def create_table(self, rec: TableRecord, key: str | None = None,
                           reply: dict[str, Any] | None = None) -> None:
        self._check_key(key)
        if rec.id in self._tables:
            raise TableExists(f"table {rec.id!r} already exists")
        if rec.status in ACTIVE_STATUSES and self._chat_taken(rec):
            raise TableExists(f"chat {chat_key(rec)} already has an active table")
        keyed = self._new_key(key, rec, rec.version, reply)
        self._tables[rec.id] = _stored(rec)
        self._logs[rec.id] = []
        self._keep_key(keyed)

    async def get_table(self, table_id: str) -> TableRecord | None:
        rec = self._tables.get(table_id)
        return _out(rec) if rec is not None else None

    async def active_table_for_chat(
        self, platform: str, chat_id: str, topic_id: str | None = None
    ) -> TableRecord | None:
        key = (platform, chat_id, topic_id or "")
        found = (t for t in self._tables.values() if t.status in ACTIVE_STATUSES and chat_key(t) == key)
        rec = next(found, None)
        return _out(rec) if rec is not None else None

    async def list_tables(self, statuses: Sequence[str]) -> list[TableRecord]:
        found = [_out(t) for t in self._tables.values() if t.status in statuses]
        return sorted(found, key=lambda t: (t.created_at, t.id))

    async def count_tables(self, statuses: Sequence[str]) -> dict[str, int]:
        counts = dict.fromkeys(statuses, 0)
        for t in self._tables.values():
            if t.status in counts:
                counts[t.status] += 1
        return counts

    async def due_tables(self, now: float) -> list[str]:
        due = [t for t in self._tables.values()
               if t.status == "playing" and t.deadline is not None and t.deadline <= now]
        return [t.id for t in sorted(due, key=lambda t: (t.deadline, t.id))]

    # ---- claims ----------------------------------------------------------------------------------

    def _claimable(self, table_id: str, owner: str, now: float, dead: Sequence[str] = ()) -> bool:
        held = self._claims.get(table_id)
        return held is None or held[0] == owner or held[1] <= now or held[0] in dead

    async def claim_due(self, now: float, owner: str, lease_s: float, limit: int = 100,
                        dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        at = {t.id: when for t in self._tables.values() if scope.takes(t) and (when := _due_at(t, now)) is not None}
        due = [t for t in sorted(at, key=lambda t: (at[t], t)) if self._claimable(t, owner, now, dead)]
        for table_id in due[:max(limit, 0)]:
            self._claims[table_id] = (owner, now + lease_s)
        return due[:max(limit, 0)]

    async def claim_holders(self, now: float) -> list[str]:
        return sorted({o for o, until in self._claims.values() if until > now})

    async def claim_stale(self, now: float, owner: str, lease_s: float, limit: int = 100,
                          dead: Sequence[str] = (), scope: ClaimScope = EVERY_TABLE) -> list[str]:
        stale = sorted((until, t) for t, (held, until) in self._claims.items()
                       if (until <= now or held in dead) and t in self._tables and self._tables[t].status == "playing"
                       and scope.takes(self._tables[t]))
        taken = sorted(t for _, t in stale[:max(limit, 0)])
        for table_id in taken:
            self._claims[table_id] = (owner, now + lease_s)
        return taken

    async def claim_table(self, table_id: str, owner: str, now: float, lease_s: float) -> bool:
        rec = self._tables.get(table_id)
        if rec is None or rec.status != "playing" or not self._claimable(table_id, owner, now):
            return False
        self._claims[table_id] = (owner, now + lease_s)
        return True

    async def hold_liveness(self, owner: str) -> None:
        pass  # one process's memory, or one machine's file: bot/core/liveness.py sees its processes

    async def gone(self, owners: Sequence[str]) -> list[str]:
        return []

    async def release_claim(self, table_id: str, owner: str) -> None:
        if self._claims.get(table_id, ("", 0.0))[0] == owner:
            del self._claims[table_id]

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
        self._check_key(key)  # first: a repeat is not a stale writer
        current = self._tables.get(rec.id)
        if current is None:
            raise TableNotFound(rec.id)
        if current.version != expected_version:
            raise VersionConflict(rec.id, expected_version, current.version)
        stored = rec.model_copy(update={"version": expected_version + 1, "created_at": current.created_at,
                                        "log_seq": next_log_seq(rec.id, current.log_seq, entries)})
        if stored.status in ACTIVE_STATUSES and self._chat_taken(stored):
            raise TableExists(f"chat {chat_key(stored)} already has an active table")
        keyed = self._new_key(key, rec, stored.version, reply)
        # Every check is done; from here on nothing can fail half way.
        self._logs[rec.id].extend(_stored(e) for e in entries)
        self._tables[rec.id] = _stored(stored)
        if result is not None and result.table_id not in self._results:
            self._results[result.table_id] = _stored(result)
        self._keep_key(keyed)
        if claim is not None and claim.until is not None:
            self._claims[rec.id] = (claim.owner, claim.until)
        elif claim is not None and self._claims.get(rec.id, ("", 0.0))[0] == claim.owner:
            del self._claims[rec.id]
        return _out(self._tables[rec.id])

    async def log(self, table_id: str, after_seq: int = 0) -> list[LogEntry]:
        # seq is dense from 1, so entry seq n sits at index n - 1.
        return [_out(e) for e in self._logs.get(table_id, [])[max(after_seq, 0):]]

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        old = self._players.get((platform, user_id))
        created_at = old.created_at if old is not None else self._clock()
        rec = PlayerRecord(platform=platform, user_id=user_id, name=name, created_at=created_at)
        self._players[(platform, user_id)] = rec

    async def get_player(self, platform: str, user_id: str) -> PlayerRecord | None:
        rec = self._players.get((platform, user_id))
        return _out(rec) if rec is not None else None

    async def record_result(self, rec: MatchResultRecord) -> bool:
        if rec.table_id in self._results:
            return False
        self._results[rec.table_id] = _stored(rec)
        return True

    async def results(
        self, platform: str, chat_id: str, limit: int = 20, game: str | None = None
    ) -> list[MatchResultRecord]:
        found = [(i, r) for i, r in enumerate(self._results.values())
                 if r.platform == platform and r.chat_id == chat_id and (game is None or r.game == game)]
        found.sort(key=lambda ir: (ir[1].finished_at, ir[0]), reverse=True)
        return [_out(r) for _, r in found[:max(limit, 0)]]

    # ---- standings -------------------------------------------------------------------------------

    async def unrated_results(self, limit: int = 100) -> list[MatchResultRecord]:
        found = [(r.finished_at, i, r) for i, r in enumerate(self._results.values())
                 if r.status == "finished" and r.table_id not in self._rated]
        found.sort(key=lambda x: (x[0], x[1]))
        return [_out(r) for _, _, r in found[:max(limit, 0)]]

    async def rate_result(self, table_id: str, keys: Sequence[RatingKey], rate: RateFn) -> bool:
        result = self._results.get(table_id)
        if result is None or result.status != "finished" or table_id in self._rated:
            return False
        current = {(scope, subject): _out(self._ratings[k])
                   for scope, subject in keys
                   if (k := (result.platform, scope, result.game, subject)) in self._ratings}
        seats, ratings = rate(_out(result), current)
        seats = [_stored(s) for s in seats]
        ratings = [_stored(r) for r in ratings]  # validated before anything is written
        for seat in seats:
            self._match_players.setdefault((seat.table_id, seat.seat), seat)
        for r in ratings:
            self._ratings[(r.platform, r.scope, r.game, r.subject)] = r
        self._rated.add(table_id)
        return True

    async def board(
        self, platform: str, scope: str, game: str, kind: str = "player", since: float | None = None,
        limit: int = 10,
    ) -> list[BoardRow]:
        def rating_of(subject: str) -> RatingRecord | None:
            return self._ratings.get((platform, scope, game, subject))

        if since is None:
            rows = [BoardRow(subject=r.subject, name=r.name, rating=r.rating, matches=r.matches, wins=r.wins,
                             points=r.points)
                    for r in self._ratings.values()
                    if (r.platform, r.scope, r.game, r.kind) == (platform, scope, game, kind)]
        else:
            groups: dict[str, list[MatchPlayerRecord]] = {}
            for m in self._match_players.values():
                if (m.platform != platform or m.game != game or m.finished_at < since or m.kind != "human"
                        or (scope != GLOBAL_SCOPE and m.chat_id != scope)):
                    continue
                subject = f"p:{m.user_id}" if kind == "player" else m.team
                if subject is not None:
                    groups.setdefault(subject, []).append(m)
            per = 1 if kind == "player" else 2  # a team has two rows per match with the same figures
            rows = []
            for subject, ms in groups.items():
                r = rating_of(subject)
                rows.append(BoardRow(subject=subject, name=r.name if r else max(m.name for m in ms),
                                     rating=r.rating if r else None, matches=len(ms) // per,
                                     wins=sum(m.won for m in ms) // per, points=sum(m.score for m in ms) // per))
        rows.sort(key=lambda b: (b.rating is None, -(b.rating or 0.0), -b.wins if since is not None else 0,
                                 b.subject))
        return rows[:max(limit, 0)]

    async def ratings(self, platform: str, scope: str, kind: str = "player", game: str | None = None
                      ) -> list[RatingRecord]:
        found = [_out(r) for r in self._ratings.values()
                 if (r.platform, r.scope, r.kind) == (platform, scope, kind) and (game is None or r.game == game)]
        return sorted(found, key=lambda r: (-r.rating, r.game, r.subject))

    async def player_matches(
        self, platform: str, user_id: str, chat_id: str | None = None, game: str | None = None
    ) -> list[MatchPlayerRecord]:
        found = [_out(m) for m in self._match_players.values()
                 if m.platform == platform and m.user_id == user_id and (chat_id is None or m.chat_id == chat_id)
                 and (game is None or m.game == game)]
        return sorted(found, key=lambda m: (m.finished_at, m.table_id))

    async def team_names(self, platform: str, chat_id: str) -> dict[str, str]:
        return {team: name for (p, c, team), name in self._team_names.items() if (p, c) == (platform, chat_id)}

    async def set_team_name(self, platform: str, chat_id: str, team: str, name: str) -> None:
        self._team_names[(platform, chat_id, team)] = name

    # ---- adapter data ----------------------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        raw = self._chat_settings.get((platform, chat_id))
        return json.loads(raw) if raw is not None else {}

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        self._chat_settings[(platform, chat_id)] = json.dumps(settings)

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        if (platform, update_id) in self._updates:
            return False
        self._updates[(platform, update_id)] = now
        return True

    async def update_claimed(self, platform: str, update_id: str) -> bool:
        return (platform, update_id) in self._updates

    async def prune_updates(self, platform: str, before: float) -> int:
        old = [k for k, at in self._updates.items() if k[0] == platform and at < before]
        for k in old:
            del self._updates[k]
        return len(old)

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        return {k: json.loads(v) for (tid, k), v in self._refs.items() if tid == table_id}

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        if value is None:
            self._refs.pop((table_id, key), None)
        else:
            self._refs[(table_id, key)] = json.dumps(value)
