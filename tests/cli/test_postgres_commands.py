"""`rummyclub migrate` on SQLite and PostgreSQL, `rummyclub backup` pointing PostgreSQL at pg_dump, and
one startup line (exit code 2, never the password) for each way a PostgreSQL database cannot serve."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import pytest

from tests.cli.conftest import Outcome, Run
from tests.storage.pg_server import PASSWORD_ROLE, PostgresServer

SECRET = "Pg-Secret-123"


def one_line(got: Outcome, code: int = 2) -> str:
    assert got.code == code and len(got.lines) == 1, got.err
    assert "Traceback" not in got.err and SECRET not in got.err + got.out
    return got.lines[0]


def sql(url: str, statement: str) -> None:
    async def run() -> None:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()
    asyncio.run(run())


def test_migrate_sqlite(tmp_path: Path, rummyclub: Run) -> None:
    for _ in range(2):  # a new file, then one already up to date
        got = rummyclub("migrate", "--db", "data/rummy.db")
        assert (got.code, got.out, got.err) == (0, "data/rummy.db: schema version 7 (007_claim_scope.sql), "
                                                   "up to date\n", "")
    assert (tmp_path / "data" / "rummy.db").is_file()


def test_migrate_postgres(postgres_url: str, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("DATABASE_URL", postgres_url)
    for _ in range(2):
        got = rummyclub("migrate")
        assert (got.code, got.out, got.err) == (0, f"{postgres_url}: schema version 9 (009_notify_per_batch.sql), "
                                                   "up to date\n", "")


def test_migrate_memory_is_refused(rummyclub: Run) -> None:
    assert one_line(rummyclub("migrate", "--db", "memory://")) == (
        "rummyclub: --db: memory:// keeps nothing to migrate — point --db at the database")


def test_backup_of_postgres_names_pg_dump(rummyclub: Run) -> None:
    line = one_line(rummyclub("backup", "copy.db", "--db", f"postgresql://rummy:{SECRET}@db.example/rummy"))
    assert line == ("rummyclub: --db: a PostgreSQL database is backed up with pg_dump, e.g. pg_dump -Fc -f "
                    "rummyclub.dump 'postgresql://rummy@db.example/rummy' (and restored with pg_restore)")


def test_an_unreachable_server(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("DATABASE_URL", f"postgresql://rummy:{SECRET}@127.0.0.1:1/rummy")
    clean_env.setenv("TELEGRAM_TOKEN", "123456:" + "A" * 35)  # the database is checked before Telegram
    line = one_line(rummyclub("run"))
    assert line.startswith("rummyclub: DATABASE_URL: cannot reach PostgreSQL at 127.0.0.1:1 (")
    assert line.endswith(") — check that the server runs and the host and port in DATABASE_URL")


def test_a_wrong_password(postgres_server: PostgresServer, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    postgres_server.psql(f"DROP ROLE IF EXISTS {PASSWORD_ROLE}; CREATE ROLE {PASSWORD_ROLE} LOGIN PASSWORD 'Right-1'")
    clean_env.setenv("LOG_LEVEL", "DEBUG")  # the traceback is printed too: still no password
    got = rummyclub("migrate", "--db", postgres_server.url("rummy", user=PASSWORD_ROLE, password=SECRET))
    assert got.code == 2 and SECRET not in got.err + got.out
    assert got.lines[-1] == (f"rummyclub: --db: PostgreSQL at 127.0.0.1:{postgres_server.port} refused user "
                             f"'{PASSWORD_ROLE}' (password authentication failed for user \"{PASSWORD_ROLE}\") — "
                             "check the user and password in --db")


def test_a_missing_database(postgres_server: PostgresServer, rummyclub: Run) -> None:
    line = one_line(rummyclub("migrate", "--db", postgres_server.url("no_such_db")))
    assert line == (f"rummyclub: --db: PostgreSQL at 127.0.0.1:{postgres_server.port} has no database 'no_such_db' "
                    "— create it (createdb no_such_db) or fix the name in --db")


def test_another_programs_tables(postgres_database: str, postgres_server: PostgresServer, rummyclub: Run) -> None:
    sql(postgres_database, "CREATE TABLE customers (id INTEGER PRIMARY KEY)")
    name = postgres_database.rsplit("/", 1)[1]
    line = one_line(rummyclub("migrate", "--db", postgres_database))
    assert line == (f"rummyclub: --db: the database '{name}' at 127.0.0.1:{postgres_server.port} holds another "
                    "program's tables (customers); it was left untouched — point --db at another database (or schema)")


def test_export_sqlite_to_postgres_then_refuses_to_overwrite(tmp_path: Path, postgres_url: str, rummyclub: Run) -> None:
    assert rummyclub("simulate", "rummikub", "--games", "1", "--db", "old.db").code == 0
    got = rummyclub("export", "sqlite:///old.db", postgres_url)
    assert got.code == 0 and got.err == "", got.err
    assert got.out.startswith(f"copied sqlite:///old.db to {postgres_url}: game_tables 1, table_log ")
    again = one_line(rummyclub("export", "sqlite:///old.db", postgres_url))
    assert again.startswith(f"rummyclub: {postgres_url}: the destination already holds data (game_tables")
