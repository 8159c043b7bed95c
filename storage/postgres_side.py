"""The PostgreSQL store's side tables: standings (ratings, seat rows, team names) and adapter data
(chat settings, claimed updates, message references). A mixin of PostgresStore, as
storage/sqlite_side.py is of SqliteStore: it reaches the database through the store's pool."""

from __future__ import annotations

import json
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

import asyncpg

from storage.models import BoardRow, MatchPlayerRecord, MatchResultRecord, RatingKey, RatingRecord
from storage.ports import RateFn
from storage.sqlite_files import board_query

_RESULT_JSON = ("seats", "result")


def result_from_row(row: asyncpg.Record) -> MatchResultRecord:
    return MatchResultRecord.model_validate({k: json.loads(v) if k in _RESULT_JSON and v is not None else v
                                             for k, v in row.items() if k not in ("recorded", "rated")})


def insert_sql(table: str, row: dict[str, Any]) -> str:
    marks = ", ".join(f"${i}" for i in range(1, len(row) + 1))
    return f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})"


def count(status: str) -> int:
    """Rows touched, from a command tag such as "INSERT 0 1" or "DELETE 3"."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresSideTables:
    if TYPE_CHECKING:
        def _conn(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...
        def _write(self) -> AbstractAsyncContextManager[asyncpg.Connection]: ...

    # ---- standings -------------------------------------------------------------------------------

    async def unrated_results(self, limit: int = 100) -> list[MatchResultRecord]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT * FROM match_results WHERE NOT rated AND status = 'finished' "
                                  "ORDER BY finished_at, recorded LIMIT $1", max(limit, 0))
        return [result_from_row(r) for r in rows]

    async def rate_result(self, table_id: str, keys: Sequence[RatingKey], rate: RateFn) -> bool:
        async with self._write() as db:
            # FOR UPDATE: a concurrent rater waits here, then finds the row rated and does nothing.
            row = await db.fetchrow("SELECT * FROM match_results WHERE table_id = $1 AND NOT rated "
                                    "AND status = 'finished' FOR UPDATE", table_id)
            if row is None:
                return False
            result = result_from_row(row)
            current: dict[RatingKey, RatingRecord] = {}
            for scope, subject in keys:
                found = await db.fetchrow("SELECT * FROM ratings WHERE platform = $1 AND scope = $2 AND game = $3 "
                                          "AND subject = $4", result.platform, scope, result.game, subject)
                if found:
                    current[(scope, subject)] = RatingRecord.model_validate(dict(found))
            seats, ratings = rate(result, current)
            for seat in seats:
                data = seat.model_dump(mode="json")
                await db.execute(insert_sql("match_players", data) + " ON CONFLICT DO NOTHING", *data.values())
            for rating in ratings:
                data = rating.model_dump(mode="json")
                await db.execute(insert_sql("ratings", data) + " ON CONFLICT (platform, scope, game, subject) "
                                 "DO UPDATE SET " + ", ".join(f"{k} = excluded.{k}" for k in data), *data.values())
            await db.execute("UPDATE match_results SET rated = TRUE WHERE table_id = $1", table_id)
        return True

    async def board(
        self, platform: str, scope: str, game: str, kind: str = "player", since: float | None = None,
        limit: int = 10,
    ) -> list[BoardRow]:
        sql, args = board_query(platform, scope, game, kind, since, limit, postgres=True)
        async with self._conn() as db:
            rows = await db.fetch(sql, *args)
        return [BoardRow.model_validate(dict(r)) for r in rows]

    async def ratings(self, platform: str, scope: str, kind: str = "player", game: str | None = None
                      ) -> list[RatingRecord]:
        async with self._conn() as db:
            rows = await db.fetch(
                "SELECT * FROM ratings WHERE platform = $1 AND scope = $2 AND kind = $3 "
                "AND ($4::text IS NULL OR game = $4) ORDER BY rating DESC, game, subject", platform, scope, kind, game)
        return [RatingRecord.model_validate(dict(r)) for r in rows]

    async def player_matches(
        self, platform: str, user_id: str, chat_id: str | None = None, game: str | None = None
    ) -> list[MatchPlayerRecord]:
        async with self._conn() as db:
            rows = await db.fetch(
                "SELECT * FROM match_players WHERE platform = $1 AND user_id = $2 AND ($3::text IS NULL OR chat_id = $3) "
                "AND ($4::text IS NULL OR game = $4) ORDER BY finished_at, table_id", platform, user_id, chat_id, game)
        return [MatchPlayerRecord.model_validate(dict(r)) for r in rows]

    async def team_names(self, platform: str, chat_id: str) -> dict[str, str]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT team, name FROM team_names WHERE platform = $1 AND chat_id = $2",
                                  platform, chat_id)
        return {r["team"]: r["name"] for r in rows}

    async def set_team_name(self, platform: str, chat_id: str, team: str, name: str) -> None:
        async with self._conn() as db:
            await db.execute("INSERT INTO team_names VALUES ($1, $2, $3, $4) "
                             "ON CONFLICT (platform, chat_id, team) DO UPDATE SET name = excluded.name",
                             platform, chat_id, team, name)

    # ---- adapter data ----------------------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        async with self._conn() as db:
            value = await db.fetchval("SELECT settings FROM chat_settings WHERE platform = $1 AND chat_id = $2",
                                      platform, chat_id)
        return json.loads(value) if value is not None else {}

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        async with self._conn() as db:
            await db.execute("INSERT INTO chat_settings VALUES ($1, $2, $3) "
                             "ON CONFLICT (platform, chat_id) DO UPDATE SET settings = excluded.settings",
                             platform, chat_id, json.dumps(settings, ensure_ascii=False))

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        async with self._conn() as db:
            status = await db.execute("INSERT INTO processed_updates VALUES ($1, $2, $3) "
                                      "ON CONFLICT (platform, update_id) DO NOTHING", platform, update_id, now)
        return count(status) == 1

    async def update_claimed(self, platform: str, update_id: str) -> bool:
        async with self._conn() as db:
            return bool(await db.fetchval("SELECT 1 FROM processed_updates WHERE platform = $1 AND update_id = $2",
                                          platform, update_id))

    async def prune_updates(self, platform: str, before: float) -> int:
        async with self._conn() as db:
            return count(await db.execute("DELETE FROM processed_updates WHERE platform = $1 AND at < $2",
                                           platform, before))

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        async with self._conn() as db:
            rows = await db.fetch("SELECT key, value FROM table_refs WHERE table_id = $1", table_id)
        return {r["key"]: json.loads(r["value"]) for r in rows}

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        async with self._conn() as db:
            if value is None:
                await db.execute("DELETE FROM table_refs WHERE table_id = $1 AND key = $2", table_id, key)
            else:
                await db.execute("INSERT INTO table_refs VALUES ($1, $2, $3) "
                                 "ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value",
                                 table_id, key, json.dumps(value, ensure_ascii=False))
