"""The SQLite store's side tables: standings (ratings, seat rows, team names) and adapter data
(chat settings, claimed updates, message references). A mixin of SqliteStore: reads go through
its loop reader, writes through its group writer, like everything else."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any

from storage.models import BoardRow, MatchPlayerRecord, MatchResultRecord, RatingKey, RatingRecord
from storage.ports import RateFn
from storage.sqlite_files import board_query
from storage.sqlite_rows import RESULT_JSON, from_row, insert_sql


class SideTables:
    # Provided by SqliteStore.
    _read: Callable[[], AbstractAsyncContextManager[Any]]
    _write: Callable[[Callable[[sqlite3.Connection], Any]], Any]

    # ---- standings -------------------------------------------------------------------------------

    async def unrated_results(self, limit: int = 100) -> list[MatchResultRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_results WHERE rated = 0 AND status = 'finished' "
                "ORDER BY finished_at, rowid LIMIT ?", (max(limit, 0),))
        return [MatchResultRecord.model_validate(from_row(r, RESULT_JSON)) for r in rows]

    async def rate_result(self, table_id: str, keys: Sequence[RatingKey], rate: RateFn) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            found = db.execute("SELECT * FROM match_results WHERE table_id = ? AND rated = 0 AND status = 'finished'",
                               (table_id,)).fetchone()
            if found is None:
                return False
            result = MatchResultRecord.model_validate(from_row(found, RESULT_JSON))
            current: dict[RatingKey, RatingRecord] = {}
            for scope, subject in keys:
                rating = db.execute(
                    "SELECT * FROM ratings WHERE platform = ? AND scope = ? AND game = ? AND subject = ?",
                    (result.platform, scope, result.game, subject)).fetchone()
                if rating is not None:
                    current[(scope, subject)] = RatingRecord.model_validate(dict(rating))
            seats, ratings = rate(result, current)
            for seat in seats:
                row = seat.model_dump(mode="json")
                db.execute(insert_sql("match_players", row) + " ON CONFLICT DO NOTHING", tuple(row.values()))
            for new in ratings:
                row = new.model_dump(mode="json")
                db.execute(insert_sql("ratings", row) + " ON CONFLICT (platform, scope, game, subject) DO UPDATE "
                           "SET " + ", ".join(f"{k} = excluded.{k}" for k in row), tuple(row.values()))
            db.execute("UPDATE match_results SET rated = 1 WHERE table_id = ?", (table_id,))
            return True

        return await self._write(work)

    async def board(
        self, platform: str, scope: str, game: str, kind: str = "player", since: float | None = None,
        limit: int = 10,
    ) -> list[BoardRow]:
        sql, args = board_query(platform, scope, game, kind, since, limit)
        async with self._read() as db:
            rows = await db.execute_fetchall(sql, args)
        return [BoardRow.model_validate(dict(r)) for r in rows]

    async def ratings(self, platform: str, scope: str, kind: str = "player", game: str | None = None
                      ) -> list[RatingRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM ratings WHERE platform = ? AND scope = ? AND kind = ? AND (? IS NULL OR game = ?) "
                "ORDER BY rating DESC, game, subject", (platform, scope, kind, game, game))
        return [RatingRecord.model_validate(dict(r)) for r in rows]

    async def player_matches(
        self, platform: str, user_id: str, chat_id: str | None = None, game: str | None = None
    ) -> list[MatchPlayerRecord]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT * FROM match_players WHERE platform = ? AND user_id = ? AND (? IS NULL OR chat_id = ?) "
                "AND (? IS NULL OR game = ?) ORDER BY finished_at, table_id",
                (platform, user_id, chat_id, chat_id, game, game))
        return [MatchPlayerRecord.model_validate(dict(r)) for r in rows]

    async def team_names(self, platform: str, chat_id: str) -> dict[str, str]:
        async with self._read() as db:
            rows = await db.execute_fetchall(
                "SELECT team, name FROM team_names WHERE platform = ? AND chat_id = ?", (platform, chat_id))
        return {r[0]: r[1] for r in rows}

    async def set_team_name(self, platform: str, chat_id: str, team: str, name: str) -> None:
        await self._write(lambda db: db.execute(
            "INSERT INTO team_names VALUES (?, ?, ?, ?) "
            "ON CONFLICT (platform, chat_id, team) DO UPDATE SET name = excluded.name", (platform, chat_id, team, name)))

    # ---- adapter data ----------------------------------------------------------------------------

    async def chat_settings(self, platform: str, chat_id: str) -> dict[str, Any]:
        async with self._read() as db:
            rows = list(await db.execute_fetchall(
                "SELECT settings FROM chat_settings WHERE platform = ? AND chat_id = ?", (platform, chat_id)))
        return json.loads(rows[0][0]) if rows else {}

    async def set_chat_settings(self, platform: str, chat_id: str, settings: dict[str, Any]) -> None:
        text = json.dumps(settings, ensure_ascii=False)
        await self._write(lambda db: db.execute(
            "INSERT INTO chat_settings VALUES (?, ?, ?) "
            "ON CONFLICT (platform, chat_id) DO UPDATE SET settings = excluded.settings", (platform, chat_id, text)))

    async def claim_update(self, platform: str, update_id: str, now: float) -> bool:
        sql = "INSERT INTO processed_updates VALUES (?, ?, ?) ON CONFLICT (platform, update_id) DO NOTHING"
        return await self._write(lambda db: db.execute(sql, (platform, update_id, now)).rowcount == 1)

    async def update_claimed(self, platform: str, update_id: str) -> bool:
        async with self._read() as db:
            return bool(await db.execute_fetchall(
                "SELECT 1 FROM processed_updates WHERE platform = ? AND update_id = ?", (platform, update_id)))

    async def prune_updates(self, platform: str, before: float) -> int:
        sql = "DELETE FROM processed_updates WHERE platform = ? AND at < ?"
        return await self._write(lambda db: db.execute(sql, (platform, before)).rowcount)

    async def table_refs(self, table_id: str) -> dict[str, Any]:
        async with self._read() as db:
            rows = await db.execute_fetchall("SELECT key, value FROM table_refs WHERE table_id = ?", (table_id,))
        return {r[0]: json.loads(r[1]) for r in rows}

    async def set_table_ref(self, table_id: str, key: str, value: Any) -> None:
        def work(db: sqlite3.Connection) -> None:
            if value is None:
                db.execute("DELETE FROM table_refs WHERE table_id = ? AND key = ?", (table_id, key))
            else:
                db.execute("INSERT INTO table_refs VALUES (?, ?, ?) "
                           "ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value",
                           (table_id, key, json.dumps(value, ensure_ascii=False)))

        await self._write(work)
