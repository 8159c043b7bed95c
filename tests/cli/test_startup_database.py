"""Issue 12, item 4: a database file we cannot or must not use is one line naming the file and
what to do, exit code 2, and the file is left byte for byte as it was."""

from __future__ import annotations

import contextlib
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest

from tests.cli.conftest import PYTHON, Outcome, Run, subprocess_env

NOT_SQLITE = ("is not an SQLite database, or it is damaged; it was left untouched — point DATABASE_URL at another "
              "file, or restore a backup")


def sqlite_file(path: Path, *statements: str) -> bytes:
    with closing(sqlite3.connect(path)) as conn:
        for sql in statements:
            conn.execute(sql)
        conn.commit()
    return path.read_bytes()


def one_line(got: Outcome, code: int = 2) -> str:
    assert got.code == code and len(got.lines) == 1, got.err
    assert "Traceback" not in got.err
    return got.lines[0]


def test_not_a_database(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    db = tmp_path / "notes.db"
    db.write_bytes(b"shopping list: eggs, milk\n" * 200)
    before = db.read_bytes()
    clean_env.setenv("DATABASE_URL", str(db))
    assert one_line(rummyclub("run")) == f"rummyclub: DATABASE_URL: {db} {NOT_SQLITE}"
    assert db.read_bytes() == before


def test_a_damaged_database(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    db = tmp_path / "rummy.db"
    sqlite_file(db, "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)")
    with open(db, "r+b") as f:  # the header stays valid; the schema page behind it is garbage
        f.seek(100)
        f.write(b"\xde\xad\xbe\xef" * 200)
    before = db.read_bytes()
    clean_env.setenv("DATABASE_URL", f"sqlite:///{db}")
    assert one_line(rummyclub("run")) == f"rummyclub: DATABASE_URL: {db} {NOT_SQLITE}"
    assert db.read_bytes() == before


def test_another_programs_schema_is_refused_untouched(tmp_path: Path, clean_env: pytest.MonkeyPatch,
                                                      rummyclub: Run) -> None:
    db = tmp_path / "shop.db"
    before = sqlite_file(db, "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)",
                         "CREATE TABLE orders (id INTEGER PRIMARY KEY, user_id INTEGER)",
                         "INSERT INTO users VALUES (1, 'Ann')")
    clean_env.setenv("DATABASE_URL", str(db))
    assert one_line(rummyclub("run")) == (f"rummyclub: DATABASE_URL: {db} holds another program's tables (orders, "
                                          "users); it was left untouched — point DATABASE_URL at another file")
    assert db.read_bytes() == before
    assert not (tmp_path / "shop.db-wal").exists()


def test_another_tools_schema_migrations_is_refused(tmp_path: Path, clean_env: pytest.MonkeyPatch,
                                                    rummyclub: Run) -> None:
    db = tmp_path / "rails.db"  # Rails and golang-migrate both keep a schema_migrations(version)
    before = sqlite_file(db, "CREATE TABLE schema_migrations (version VARCHAR PRIMARY KEY)",
                         "INSERT INTO schema_migrations VALUES ('20240101000000')")
    clean_env.setenv("DATABASE_URL", str(db))
    assert "holds another program's tables (schema_migrations)" in one_line(rummyclub("run"))
    assert db.read_bytes() == before


def test_a_newer_rummyclub_database_is_refused(tmp_path: Path, clean_env: pytest.MonkeyPatch,
                                               rummyclub: Run) -> None:
    db = tmp_path / "rummy.db"
    clean_env.setenv("DATABASE_URL", str(db))
    assert rummyclub("simulate", "rummikub", "--games", "1", "--db", str(db)).code == 0
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("INSERT INTO schema_migrations VALUES (999, '999_future.sql', 0)")
        conn.commit()
    before = db.read_bytes()
    assert one_line(rummyclub("run")) == (f"rummyclub: DATABASE_URL: {db} was written by a newer Rummy Club "
                                          "(migration 999_future.sql); it was left untouched — upgrade "
                                          "rummyclub, or point DATABASE_URL at another file")
    assert db.read_bytes() == before


def test_a_password_in_the_db_option_is_not_shown(tmp_path: Path, rummyclub: Run) -> None:
    got = rummyclub("backup", "copy.db", "--db", "mysql://rummy:Pg-Secret-123@db.example/rummy")
    assert (got.code, got.lines) == (2, ["rummyclub: --db: unknown scheme 'mysql://' — use sqlite:///path.db, a "
                                         "file path, postgresql://user@host/db, or memory:// (nothing kept)"])
    assert "Pg-Secret-123" not in got.err + got.out


def test_a_folder(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    (tmp_path / "data").mkdir()
    clean_env.setenv("DATABASE_URL", str(tmp_path / "data"))
    assert one_line(rummyclub("run")) == (f"rummyclub: DATABASE_URL: {tmp_path / 'data'} is a folder, not a database "
                                          f"file — name a file, e.g. {tmp_path / 'data' / 'rummyclub.db'}")


def test_a_folder_that_cannot_be_created(tmp_path: Path, clean_env: pytest.MonkeyPatch,
                                         rummyclub: Run) -> None:
    (tmp_path / "data").write_text("a file where the folder should be")
    clean_env.setenv("DATABASE_URL", str(tmp_path / "data" / "rummy.db"))
    assert one_line(rummyclub("run")) == (f"rummyclub: DATABASE_URL: cannot create the folder {tmp_path / 'data'} "
                                          "(File exists) — create it, or point DATABASE_URL at another place")


def test_the_db_option_is_named_when_it_is_the_source(tmp_path: Path, rummyclub: Run) -> None:
    (tmp_path / "d").mkdir()
    line = one_line(rummyclub("play", "rummikub", "--db", str(tmp_path / "d")))
    assert line.startswith(f"rummyclub: --db: {tmp_path / 'd'} is a folder")


def test_an_unknown_scheme_names_no_password(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("DATABASE_URL", "mysql://rummy:Pg-Secret-123@db.example/rummy")
    clean_env.setenv("LOG_LEVEL", "DEBUG")  # the traceback is printed too: still no password
    got = rummyclub("run")
    assert got.code == 2 and got.lines[-1] == ("rummyclub: DATABASE_URL: unknown scheme 'mysql://' — use "
                                               "sqlite:///path.db, a file path, postgresql://user@host/db, or "
                                               "memory:// (nothing kept)")
    assert "Pg-Secret-123" not in got.err + got.out


# ---- read-only ---------------------------------------------------------------------------------
# The tests run as root, and root writes through any mode bits. An immutable file or folder
# (chattr +i) refuses even root, so it stands in for "read-only" here; the subprocess test below
# shows the mode-bit case as an ordinary user would hit it, run as nobody.


@contextlib.contextmanager
def immutable(path: Path) -> Iterator[None]:
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        yield
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_a_read_only_file(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    db = tmp_path / "rummy.db"
    clean_env.setenv("DATABASE_URL", str(db))
    assert rummyclub("simulate", "rummikub", "--games", "1", "--db", str(db)).code == 0
    before = db.read_bytes()
    with immutable(db):
        line = one_line(rummyclub("run"))
    assert line == f"rummyclub: DATABASE_URL: the file {db} is read-only — make it writable for this user"
    assert db.read_bytes() == before


def test_a_read_only_folder(tmp_path: Path, clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    clean_env.setenv("DATABASE_URL", str(folder / "rummy.db"))
    with immutable(folder):
        line = one_line(rummyclub("run"))
    assert line == (f"rummyclub: DATABASE_URL: the folder {folder} is read-only — make it writable for this user "
                    "(SQLite keeps -wal and -shm files next to the database)")


@pytest.fixture
def open_folder() -> Iterator[Path]:
    # pytest's tmp_path is root's alone (0700): nobody needs a folder it can enter.
    folder = Path(tempfile.mkdtemp(prefix="rummyclub-ro-"))
    folder.chmod(0o777)
    yield folder
    shutil.rmtree(folder)


# The child loads its code first and only then becomes nobody: a checkout (and its venv) in a folder
# only root may enter, the usual clone in a container, stays importable, yet the database is opened
# by a user without root's capabilities (setresuid away from 0 clears them all).
AS_NOBODY = """
import os, sys
import bot.cli, bot.startup, storage.sqlite  # everything `run` needs before it reaches the database
if os.geteuid() == 0:
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
assert os.geteuid() != 0 and os.access("/", os.W_OK) is False, "still privileged"
sys.exit(bot.cli.main(["run"]))
"""


def test_a_read_only_file_as_an_ordinary_user(open_folder: Path) -> None:
    folder = open_folder
    db = folder / "rummy.db"
    sqlite_file(db, "SELECT 1")
    db.chmod(0o444)
    proc = subprocess.run([PYTHON, "-c", AS_NOBODY], cwd=folder, capture_output=True, text=True,
                          env=subprocess_env(folder, DATABASE_URL=str(db)), stdin=subprocess.DEVNULL, timeout=60)
    assert (proc.returncode, proc.stderr) == (2, f"rummyclub: DATABASE_URL: the file {db} is read-only — make it "
                                                 "writable for this user\n")
    assert db.stat().st_mode & 0o777 == 0o444


def test_no_traceback_end_to_end_and_one_with_debug(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_text("not a database\n" * 100)
    for level, traceback in (("INFO", False), ("DEBUG", True)):
        proc = subprocess.run([PYTHON, "-m", "bot.cli", "run"], cwd=tmp_path, capture_output=True, text=True,
                              env=subprocess_env(tmp_path, DATABASE_URL=str(db), LOG_LEVEL=level),
                              stdin=subprocess.DEVNULL, timeout=60)
        assert proc.returncode == 2 and proc.stdout == ""
        # At DEBUG a library may log after it (aiosqlite's thread reports its close): not the last line, then.
        mine = [line for line in proc.stderr.splitlines() if line.startswith("rummyclub:")]
        assert mine == [f"rummyclub: DATABASE_URL: {db} {NOT_SQLITE}"]
        assert ("Traceback (most recent call last)" in proc.stderr) is traceback
