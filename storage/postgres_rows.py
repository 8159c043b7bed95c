"""PostgresStore's rows: the JSON columns as the same text SQLite stores, and a commit's writes as
one statement."""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

import asyncpg

from storage.models import TableRecord

TABLE_JSON = ("options", "deck", "seats", "state", "meta")
RESULT_JSON = ("seats", "result")


def to_row(data: dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    # The same JSON text SQLite stores; `json` columns keep it as written (see 001_init.sql).
    return {k: json.dumps(v, ensure_ascii=False) if k in json_fields and v is not None else v
            for k, v in data.items()}


def from_row(row: asyncpg.Record, json_fields: Sequence[str]) -> dict[str, Any]:
    return {k: json.loads(v) if k in json_fields and v is not None else v for k, v in row.items()}


def table_from_row(row: asyncpg.Record) -> TableRecord:
    return TableRecord.model_validate(from_row(row, TABLE_JSON))


# Set by the commit statement itself, never from the caller's record: the version from the
# expected one, the log position from the stored one, the creation time kept.
_SET_BY_COMMIT = ("id", "version", "log_seq", "created_at")


def commit_columns(row: dict[str, Any]) -> list[str]:
    """The columns of a table's row that a commit writes from the caller's record."""
    return [k for k in row if k not in _SET_BY_COMMIT]


@functools.cache
def commit_sql(names: tuple[str, ...]) -> str:
    """A commit's writes as one statement, one round trip: the row update, guarded by the expected
    version (and, with log entries, by the stored log position they continue), and only when it
    matched, the log entries (arrays, unnested), the idempotency key and the claim. It returns the
    stored row's created_at and new log_seq, or no row when the guard refused (nothing written).

    $1 is the id, then the row's columns `names`; then the expected version, the number of log
    entries and the log_seq they follow (null: none); the six log columns; key, reply and time of the
    key; the claim's owner and until (`ClaimWrite`: both null for none, until null to drop the
    owner's claim)."""
    assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(names, start=2))
    v = len(names) + 2
    n = v + 3
    return (f"WITH upd AS (UPDATE game_tables g SET {assignments}, version = ${v}::int + 1, "
            f"log_seq = g.log_seq + ${v + 1}::int WHERE g.id = $1 AND g.version = ${v}::int "
            f"AND (${v + 2}::int IS NULL OR g.log_seq = ${v + 2}::int) RETURNING g.created_at, g.log_seq), "
            f"log AS (INSERT INTO table_log SELECT l.* FROM upd, unnest(${n}::text[], ${n + 1}::int[], "
            f"${n + 2}::text[], ${n + 3}::int[], ${n + 4}::text[], ${n + 5}::float8[]) AS l), "
            f"keyed AS (INSERT INTO action_keys SELECT ${n + 6}::text, $1, ${v}::int + 1, ${n + 7}::json, "
            f"${n + 8}::float8 FROM upd WHERE ${n + 6}::text IS NOT NULL), "
            f"claimed AS (INSERT INTO table_claims SELECT $1, ${n + 9}::text, ${n + 10}::float8 FROM upd "
            f"WHERE ${n + 10}::float8 IS NOT NULL ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
            f"until = EXCLUDED.until), "
            f"released AS (DELETE FROM table_claims c USING upd WHERE c.table_id = $1 AND c.owner = ${n + 9}::text "
            f"AND ${n + 10}::float8 IS NULL) "
            f"SELECT created_at, log_seq FROM upd")
