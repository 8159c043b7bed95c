"""PostgresStore's schema: the numbered migrations of storage/migrations_pg/, applied under an
advisory lock, the refusals of a database that is not ours to use, and the URL as it may be shown
(never its password)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg

from storage.migration_files import applied_mismatch, numbered_sql
from storage.sqlite import DatabaseUnusable

MIGRATIONS_DIR = Path(__file__).parent / "migrations_pg"
# Any constant would do: it only has to be the same in every process migrating this database.
MIGRATION_LOCK = 0x52554D4D59  # "RUMMY"


class PostgresUnusable(DatabaseUnusable):
    """The PostgreSQL database cannot serve: `reason` is "unreachable", "auth" (the server refused
    the user or password), "no_database", "foreign" or "newer". `path` is the URL without its
    password, `where` its host:port; nothing here ever holds the password."""

    def __init__(self, url: str, reason: str, detail: str = "") -> None:
        super().__init__(display_url(url), reason, detail)
        parts = urlsplit(url)
        self.where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
        self.user = parts.username or ""
        self.database = parts.path.lstrip("/") or self.user


def display_url(url: str) -> str:
    """The URL with its password removed: safe to print and to log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return parts._replace(netloc=f"{user}@{netloc}").geturl()


def migrations() -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql in migrations_pg/, in order."""
    return numbered_sql(MIGRATIONS_DIR)


async def migrate(pool: asyncpg.Pool, url: str, clock: Callable[[], float]) -> None:
    """Every migration not applied yet, in one transaction."""
    # One transaction under an advisory lock: two processes starting together apply each
    # migration once, and a failing migration leaves nothing behind (DDL is transactional here).
    async with pool.acquire() as db, db.transaction():
        await db.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
        await _check_ours(db, url)
        await db.execute("CREATE TABLE IF NOT EXISTS schema_migrations "
                         "(version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at DOUBLE PRECISION NOT NULL)")
        applied = {r["version"] for r in await db.fetch("SELECT version FROM schema_migrations")}
        for number, name, sql in migrations():
            if number in applied:
                continue
            await db.execute(sql)  # no arguments: the simple protocol runs the whole script
            await db.execute("INSERT INTO schema_migrations VALUES ($1, $2, $3)", number, name, clock())


async def _check_ours(db: asyncpg.Connection, url: str) -> None:
    """Refuse, before anything is written, a schema holding another program's tables (no
    schema_migrations of ours) or migrations this version does not know (a newer Rummy Club)."""
    tables = {r["tablename"] for r in await db.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")}
    if not tables:
        return  # a new (or empty) database: ours to set up
    if "schema_migrations" not in tables:
        raise PostgresUnusable(url, "foreign", ", ".join(sorted(tables)[:5]))
    columns = {r["column_name"] for r in await db.fetch(
        "SELECT column_name FROM information_schema.columns "
        "WHERE table_schema = current_schema() AND table_name = 'schema_migrations'")}
    if not {"version", "name", "applied_at"} <= columns:
        raise PostgresUnusable(url, "foreign", "schema_migrations")
    rows = await db.fetch("SELECT version, name FROM schema_migrations")
    if mismatch := applied_mismatch([(r["version"], r["name"]) for r in rows], migrations()):
        raise PostgresUnusable(url, *mismatch)
