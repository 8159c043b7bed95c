"""Which errors mean "the store cannot be reached right now" (storage/unavailable.py, ISSUE 24 item 4):
the one place that decides what the players are told is "could not be saved — try again"."""

from __future__ import annotations

import logging
import socket
import sqlite3

import asyncpg
import pytest

from storage.unavailable import unavailable


@pytest.mark.parametrize("err", [
    ConnectionRefusedError(111, "Connect call failed"),
    ConnectionResetError(104, "Connection reset by peer"),
    TimeoutError(),
    socket.gaierror(-2, "Name or service not known"),
    asyncpg.ConnectionDoesNotExistError("connection was closed in the middle of operation"),
    asyncpg.CannotConnectNowError("the database system is starting up"),
    asyncpg.AdminShutdownError("terminating connection due to administrator command"),
    asyncpg.TooManyConnectionsError("sorry, too many clients already"),
    asyncpg.InterfaceError("cannot perform operation: connection is closed"),
    asyncpg.exceptions._base.InternalClientError("cannot switch to state 15; another operation (2) is in progress"),
    sqlite3.OperationalError("database is locked"),
    sqlite3.OperationalError("disk I/O error"),
    sqlite3.OperationalError("database or disk is full"),
], ids=lambda e: type(e).__name__)
def test_an_unreachable_store(err: BaseException) -> None:
    assert unavailable(err)


@pytest.mark.parametrize("err", [
    sqlite3.OperationalError("no such table: game_tables"),
    sqlite3.IntegrityError("UNIQUE constraint failed: game_tables.id"),
    asyncpg.UndefinedTableError('relation "game_tables" does not exist'),
    asyncpg.UniqueViolationError("duplicate key value violates unique constraint"),
    asyncpg.InterfaceError("cannot call Connection.fetch(): connection has another operation in progress"),
    ValueError("entries do not continue the log"),
    RuntimeError("SqliteStore is not open; await store.open() first"),
    PermissionError(13, "Permission denied"),
], ids=lambda e: f"{type(e).__name__}:{str(e)[:20]}")
def test_not_an_outage(err: BaseException) -> None:
    assert not unavailable(err)


def test_an_outage_logged_by_the_driver_is_one_line_and_a_real_failure_keeps_its_traceback(
        caplog: pytest.LogCaptureFixture) -> None:
    import storage.postgres  # noqa: F401 - the PostgreSQL store installs the filter on asyncpg's pool logger

    logger = logging.getLogger("asyncpg.pool")

    def logged(err: Exception) -> logging.LogRecord:
        caplog.clear()
        try:
            raise err
        except Exception:
            logger.warning("Failed to restore the pool connection floor; retrying", exc_info=True)
        (record,) = caplog.records
        return record

    refused = logged(ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 5432)"))
    assert refused.exc_info is None and refused.exc_text is None
    assert "ConnectionRefusedError" in refused.getMessage() and "5432" in refused.getMessage()
    bug = logged(ValueError("a bug"))
    assert bug.exc_info is not None
