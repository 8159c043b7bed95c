"""How SqliteStore's rows are encoded (JSON columns as text), and its loop-thread reader."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from typing import Any

from storage.models import TableRecord

TABLE_JSON = ("options", "deck", "seats", "state", "meta")
RESULT_JSON = ("seats", "result")


def to_row(data: dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    # Dumping in "json" mode first makes SQLite store exactly what the memory backend keeps.
    return {k: json.dumps(v, ensure_ascii=False) if k in json_fields and v is not None else v
            for k, v in data.items()}


def from_row(row: sqlite3.Row | dict[str, Any], json_fields: Sequence[str]) -> dict[str, Any]:
    return {k: json.loads(v) if k in json_fields and v is not None else v for k, v in dict(row).items()}


def insert_sql(table: str, row: dict[str, Any]) -> str:
    return f"INSERT INTO {table} ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})"


def table_from_row(row: sqlite3.Row | dict[str, Any]) -> TableRecord:
    return TableRecord.model_validate(from_row(row, TABLE_JSON))


class LoopReader:
    """Reads on the event loop's own thread, straight through sqlite3: a read by primary key costs
    tens of microseconds, less than handing it to a thread and back (each hop waits for the GIL
    behind a busy loop). Under WAL a reader never waits for a writer, so the loop is not held up
    by another process's transaction either (only a WAL recovery after a crash makes it wait, up to
    busy_timeout)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    async def execute_fetchall(self, sql: str, parameters: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        return self.conn.execute(sql, parameters).fetchall()
