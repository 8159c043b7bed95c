"""SQLite files and queries that need no open store: whether a file can serve as the database,
what SQLite's errors on opening mean, and the leaderboard query (apart so a test can EXPLAIN it)."""

from __future__ import annotations

import sqlite3
import tempfile
from pathlib import Path
from typing import Any

from storage.models import GLOBAL_SCOPE


def board_query(
    platform: str, scope: str, game: str, kind: str, since: float | None, limit: int, *, postgres: bool = False
) -> tuple[str, tuple[Any, ...]]:
    """The SQL behind `board` (apart so a test can EXPLAIN it): no full scan for one chat's board.
    `postgres`: the same query in PostgreSQL's dialect ($n placeholders, integer division cast back
    to int, `won` a boolean)."""
    if since is None:
        # The top of one (platform, scope, game, kind) range of ratings_board, already in order.
        sql = ("SELECT subject, name, rating, matches, wins, points FROM ratings "
               "WHERE platform = ? AND scope = ? AND game = ? AND kind = ? "
               "ORDER BY rating DESC, subject LIMIT ?")
        return _dialect(sql, postgres), (platform, scope, game, kind, max(limit, 0))
    # One index range of this chat's (or, globally, this game's) matches in the period, grouped by
    # player or team, then each group's current rating by primary key.
    column = "'p:' || user_id" if kind == "player" else "team"
    if scope == GLOBAL_SCOPE:
        where = "platform = ? AND game = ? AND finished_at >= ? AND kind = 'human'"
        args: tuple[Any, ...] = (platform, game, since)
    else:
        where = "platform = ? AND chat_id = ? AND game = ? AND finished_at >= ? AND kind = 'human'"
        args = (platform, scope, game, since)
    # A team (two humans) has two rows per match carrying the same figures: count it once.
    per = "1" if kind == "player" else "2"
    if kind == "team":
        where += " AND team IS NOT NULL"
    whole = (lambda e: f"({e})::int") if postgres else (lambda e: e)
    won = "won::int" if postgres else "won"
    sql = (f"SELECT g.subject, COALESCE(r.name, g.name) AS name, r.rating, g.matches, g.wins, g.points "
           f"FROM (SELECT {column} AS subject, MAX(name) AS name, {whole(f'COUNT(*) / {per}')} AS matches, "
           f"{whole(f'SUM({won}) / {per}')} AS wins, {whole(f'SUM(score) / {per}')} AS points "
           f"FROM match_players WHERE {where} GROUP BY subject) AS g "
           f"LEFT JOIN ratings r ON r.platform = ? AND r.scope = ? AND r.game = ? AND r.subject = g.subject "
           f"ORDER BY r.rating IS NULL, r.rating DESC, g.wins DESC, g.subject LIMIT ?")
    return _dialect(sql, postgres), (*args, platform, scope, game, max(limit, 0))


def _dialect(sql: str, postgres: bool) -> str:
    """`?` placeholders numbered $1, $2, … for PostgreSQL (these queries hold no `?` in a literal)."""
    if not postgres:
        return sql
    parts = sql.split("?")
    return parts[0] + "".join(f"${i}{part}" for i, part in enumerate(parts[1:], start=1))


class DatabaseUnusable(Exception):
    """The file cannot serve as the database. `reason` says why, for the caller to explain:
    "directory", "missing", "read_only", "not_sqlite", "foreign", "newer", "cannot_open" or
    "no_folder" (its folder cannot be created)."""

    def __init__(self, path: str, reason: str, detail: str = "") -> None:
        super().__init__(f"{path}: {reason}{': ' + detail if detail else ''}")
        self.path = path
        self.reason = reason
        self.detail = detail


def check_usable(path: str, *, must_exist: bool = False, writable: bool = True) -> None:
    """Refuse a directory, a missing file (when one must exist) or, unless only read, a file or
    folder we cannot write, before SQLite opens it: SQLite falls back to read-only without a word
    and fails only at the first write, with an error naming neither the file nor the cause. A real
    write attempt, not os.access: for root os.access says yes to everything, yet an immutable file
    (chattr +i) or a read-only mount still refuses."""
    file = Path(path)
    if file.is_dir():
        raise DatabaseUnusable(path, "directory")
    if must_exist and not file.exists():
        raise DatabaseUnusable(path, "missing")
    if not writable:
        return
    if file.exists():
        try:
            with open(file, "r+b"):  # opened for writing, nothing written
                pass
        except OSError as err:
            raise DatabaseUnusable(path, "read_only", "file") from err
    folder = file.parent
    try:
        # WAL keeps two files next to the database (-wal, -shm): the folder must take new files.
        with tempfile.TemporaryFile(dir=folder):
            pass
    except FileNotFoundError as err:
        raise DatabaseUnusable(path, "cannot_open", f"no folder {folder}") from err
    except OSError as err:
        raise DatabaseUnusable(path, "read_only", "folder") from err


def unusable_from(err: sqlite3.DatabaseError, path: str) -> DatabaseUnusable | None:
    """The reason behind an error SQLite raised while opening, when it is one we can name."""
    text = str(err).lower()
    if "not a database" in text or "malformed" in text or "encrypted" in text:
        return DatabaseUnusable(path, "not_sqlite", str(err))
    if "readonly" in text or "read-only" in text:
        return DatabaseUnusable(path, "read_only", str(err))
    if "unable to open" in text:
        return DatabaseUnusable(path, "cannot_open", str(err))
    return None
