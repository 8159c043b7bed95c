"""`rummyclub backup PATH`: one line saying what was written; refuses to overwrite without
--force; a copy taken while another process keeps writing is a whole, valid database."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from contextlib import closing
from pathlib import Path

import pytest

from storage import SqliteStore
from tests.cli.conftest import PYTHON, Run, subprocess_env


def played(db: Path, rummyclub: Run) -> None:
    assert rummyclub("simulate", "rummikub", "--games", "1", "--db", str(db)).code == 0


def test_backup_writes_one_line(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    db = tmp_path / "rummy.db"
    played(db, rummyclub)
    clean_env.setenv("DATABASE_URL", f"sqlite:///{db}")
    got = rummyclub("backup", "copy.db")
    size = (tmp_path / "copy.db").stat().st_size
    assert (got.code, got.out, got.err) == (0, f"backed up {db} to copy.db ({size} bytes)\n", "")
    with closing(sqlite3.connect(tmp_path / "copy.db")) as conn:
        assert conn.execute("SELECT status FROM game_tables").fetchall() == [("finished",)]


def test_backup_never_overwrites_without_force(tmp_path: Path, rummyclub: Run) -> None:
    db = tmp_path / "rummy.db"
    played(db, rummyclub)
    (tmp_path / "copy.db").write_bytes(b"yesterday's backup")
    got = rummyclub("backup", "copy.db", "--db", str(db))
    assert (got.code, got.lines) == (2, ["rummyclub: copy.db already exists — pass --force to replace it, or name "
                                         "another file"])
    assert (tmp_path / "copy.db").read_bytes() == b"yesterday's backup"
    assert rummyclub("backup", "copy.db", "--db", str(db), "--force").code == 0
    assert (tmp_path / "copy.db").read_bytes()[:16] == b"SQLite format 3\0"


@pytest.mark.parametrize(("args", "line"), [
    (["--db", "memory://"], "rummyclub: --db: memory:// keeps nothing on disk to back up — point --db at the SQLite "
                            "file"),
    (["--db", "missing.db"], "rummyclub: --db: there is no database at missing.db — check --db"),
])
def test_backup_of_nothing_is_refused(args: list[str], line: str, tmp_path: Path, rummyclub: Run) -> None:
    got = rummyclub("backup", "copy.db", *args)
    assert (got.code, got.lines) == (2, [line])
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_backup_into_a_folder_is_refused(tmp_path: Path, rummyclub: Run) -> None:
    played(tmp_path / "rummy.db", rummyclub)
    (tmp_path / "backups").mkdir()
    got = rummyclub("backup", "backups", "--db", str(tmp_path / "rummy.db"))
    assert (got.code, got.lines) == (2, ["rummyclub: backups is a folder — name the backup file, e.g. "
                                         "backups/rummyclub-backup.db"])


async def test_backup_while_another_process_plays(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    env = subprocess_env(tmp_path, DATABASE_URL=str(db))
    players = await asyncio.create_subprocess_exec(PYTHON, "-m", "bot.cli", "simulate", "rummikub", "--games", "400",
                                                   "--db", str(db), cwd=str(tmp_path), env=env,
                                                   stdout=asyncio.subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while not finished_tables(db):  # waiting for the subprocess to have committed a match
            assert players.returncode is None and time.monotonic() < deadline
            await asyncio.sleep(0.05)
        backup = await asyncio.create_subprocess_exec(PYTHON, "-m", "bot.cli", "backup", "copy.db", cwd=str(tmp_path),
                                                      env=env, stdout=asyncio.subprocess.PIPE)
        out, _ = await asyncio.wait_for(backup.communicate(), 60)
        assert backup.returncode == 0 and out.decode().startswith(f"backed up {db} to copy.db")
        assert players.returncode is None, "the copy must be taken while the other process is still writing"
    finally:
        if players.returncode is None:
            players.terminate()
        await players.wait()
    with closing(sqlite3.connect(tmp_path / "copy.db")) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    copy = SqliteStore(str(tmp_path / "copy.db"))
    await copy.open()
    try:
        tables = await copy.list_tables(["finished"])
        assert tables and all(t.state is not None for t in tables)
        assert [e.seq for e in await copy.log(tables[0].id)] == list(range(1, tables[0].log_seq + 1))
    finally:
        await copy.close()


def finished_tables(db: Path) -> int:
    if not db.exists():
        return 0
    try:
        with closing(sqlite3.connect(db)) as conn:
            return conn.execute("SELECT COUNT(*) FROM game_tables WHERE status = 'finished'").fetchone()[0]
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0
