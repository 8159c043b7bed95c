"""Which errors mean "the store cannot be reached right now" — the one place that decides it.

Such an error changed nothing (a transaction that did not commit is rolled back by the database),
and the same call may succeed in a moment: a connection dropped or refused, a server shutting down
or starting, a statement timed out, an SQLite file locked past its busy timeout or failing on disk.
Everything else — a constraint, a bad statement, a bug — is not: it would fail again the same way.
"""

from __future__ import annotations

import logging
import socket
import sqlite3

import asyncpg

# SQLite's own words for a database it cannot use right now (sqlite3.OperationalError's text).
_SQLITE_TRANSIENT = ("database is locked", "database table is locked", "disk i/o error", "unable to open",
                     "database or disk is full", "disk is full", "readonly database")

_PG_TRANSIENT: tuple[type[BaseException], ...] = (
    asyncpg.PostgresConnectionError,  # class 08: connection lost, refused, does not exist
    asyncpg.CannotConnectNowError,  # the server is starting up or shutting down
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, pg_terminate_backend, crash recovery
    asyncpg.TooManyConnectionsError,
)


def unavailable(err: BaseException) -> bool:
    """Whether `err` means the store is unreachable for now (retrying later may succeed)."""
    if isinstance(err, (ConnectionError, TimeoutError, socket.gaierror, *_PG_TRANSIENT)):
        return True  # a refused, reset or broken socket, a host not found, a connect or command timeout
    if isinstance(err, asyncpg.exceptions._base.InternalClientError):
        # A connection whose server vanished mid-exchange, used before its loss was noticed
        # ("cannot switch to state …; another operation … is in progress").
        return "another operation" in str(err)
    if isinstance(err, asyncpg.InterfaceError):
        # A connection closed under the pool ("connection is closed", "pool is closing") is; a
        # misuse of the driver is not.
        return "closed" in str(err) or "closing" in str(err)
    if isinstance(err, sqlite3.OperationalError):
        return any(words in str(err).lower() for words in _SQLITE_TRANSIENT)
    return False


class OutageInOneLine(logging.Filter):
    """A logger filter for a driver that logs an unreachable server with a traceback each time it
    retries (asyncpg's pool restoring its connection floor: several a second during an outage). The
    line says what failed; the traceback of a refused socket says nothing more and buries the log."""

    def filter(self, record: logging.LogRecord) -> bool:
        err = record.exc_info[1] if record.exc_info else None
        if err is not None and unavailable(err):
            record.msg = f"{record.getMessage()} ({type(err).__name__}: {err})"
            record.args = None
            record.exc_info = None
            record.exc_text = None
        return True
