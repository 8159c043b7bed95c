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


@functools.cache
def commit_sql(names: tuple[str, ...]) -> str:
    """A commit's writes as one statement: the log entries (arrays, unnested), the idempotency key
    (when there is one) and the row update. $1 is the id, then the row's columns `names`, then the
    six log columns, then key, version, reply and time of the key, then the claim's owner and until
    (`ClaimWrite`: both null for none, until null to drop the owner's claim)."""
    assignments = ", ".join(f"{k} = ${i}" for i, k in enumerate(names, start=2))
    n = len(names) + 2
    return (f"WITH log AS (INSERT INTO table_log SELECT * FROM unnest(${n}::text[], ${n + 1}::int[], "
            f"${n + 2}::text[], ${n + 3}::int[], ${n + 4}::text[], ${n + 5}::float8[])), "
            f"keyed AS (INSERT INTO action_keys SELECT ${n + 6}::text, $1, ${n + 7}::int, ${n + 8}::json, "
            f"${n + 9}::float8 WHERE ${n + 6}::text IS NOT NULL), "
            f"claimed AS (INSERT INTO table_claims SELECT $1, ${n + 10}::text, ${n + 11}::float8 "
            f"WHERE ${n + 11}::float8 IS NOT NULL ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
            f"until = EXCLUDED.until), "
            f"released AS (DELETE FROM table_claims WHERE table_id = $1 AND owner = ${n + 10}::text "
            f"AND ${n + 11}::float8 IS NULL) "
            f"UPDATE game_tables SET {assignments} WHERE id = $1")
