"""The SQLite schema's numbered migrations (storage/migrations/NNN_name.sql), split into statements
so they run inside the store's own transaction, and the check that a file is ours to migrate."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import aiosqlite

from storage.migration_files import applied_mismatch, numbered_sql
from storage.sqlite_files import DatabaseUnusable

MIGRATIONS_DIR = Path(__file__).parent / "migrations"


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql, in order."""
    return numbered_sql(MIGRATIONS_DIR)


def split_statements(script: str) -> list[str]:
    """Statements of a migration script, so they can run one by one inside our own transaction
    (executescript would commit any open transaction first)."""
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if any(ln.strip() and not ln.strip().startswith("--") for ln in pending.splitlines()):
        raise ValueError(f"migration ends inside a statement: {pending.strip()[:80]!r}")
    return statements


async def check_ours(db: aiosqlite.Connection, path: str) -> None:
    """Refuse, before anything is written, a database holding another program's tables (no
    schema_migrations of ours) or migrations this version does not know (a newer Rummy Club)."""
    tables = {r[0] for r in await db.execute_fetchall(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}
    if not tables:
        return  # a new (or empty) file: ours to set up
    if "schema_migrations" not in tables:
        raise DatabaseUnusable(path, "foreign", ", ".join(sorted(tables)[:5]))
    columns = {r[1] for r in await db.execute_fetchall("PRAGMA table_info(schema_migrations)")}
    if not {"version", "name", "applied_at"} <= columns:  # another tool's schema_migrations
        raise DatabaseUnusable(path, "foreign", "schema_migrations")
    rows = await db.execute_fetchall("SELECT version, name FROM schema_migrations")
    if mismatch := applied_mismatch([(version, name) for version, name in rows], migrations()):
        raise DatabaseUnusable(path, *mismatch)
