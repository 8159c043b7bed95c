"""Issue 29: the full screen as a real process in a real terminal (a pty), stopped by SIGTERM, by
SIGHUP, and by its window closing (the kernel's SIGHUP, every write failing from then on): the game
is saved exactly — every move made, the picks on the hand, the table still in play — the terminal
is given back (the alternate screen left), the store is closed (no -wal/-shm, no claim left) and the
process exits 0 in the time a container runtime gives it."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import json
import os
import pty
import select
import signal
import sqlite3
import struct
import sys
import termios
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.console.tui.driver import ClosedTerminalSafe

ROOT = Path(__file__).resolve().parents[3]
EXIT_LIMIT_S = 10.0  # what a container runtime waits between SIGTERM and SIGKILL
WAIT_S = 60.0  # only guards against a hang
PLAY = ("play", "rummikub", "--ai", "1", "--seed", "11")
LEAVE_ALT_SCREEN = b"\x1b[?1049l"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and ptys")


def _query(db: Path, sql: str) -> list[tuple[Any, ...]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql).fetchall()


def _moves(db: Path) -> list[tuple[str, int | None, str]]:
    return _query(db, "SELECT kind, seat, text FROM table_log ORDER BY seq")


def _picks(db: Path) -> list[int]:
    rows = _query(db, "SELECT value FROM table_refs WHERE key = 'ui:0'")
    return json.loads(rows[0][0]).get("picks", []) if rows and rows[0][0] else []


class Screen:
    """The full screen in a pty of 100×40: its output read as it comes, keys typed into it."""

    def __init__(self, db: Path) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": "",
               "DEFAULT_LANG": "en", "TERM": "xterm-256color"}
        env.pop("NO_COLOR", None)
        pid, fd = pty.fork()
        if pid == 0:  # the child: the pty is its controlling terminal, sized before Textual asks
            fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
            os.chdir(ROOT)
            os.execve(sys.executable, [sys.executable, "-m", "bot.cli", *PLAY, "--db", str(db)], env)
        self.pid, self.fd, self.out = pid, fd, b""
        self.dead = os.pidfd_open(pid)

    def read(self, timeout: float) -> bool:
        ready, _, _ = select.select([self.fd], [], [], timeout)
        if not ready:
            return False
        try:
            chunk = os.read(self.fd, 65536)
        except OSError:  # the child is gone and its side of the pty with it
            return False
        self.out += chunk
        return bool(chunk)

    def until(self, done: Callable[[], bool], what: str) -> None:
        """Reads the output until `done()` (the wait is bounded only against a hang)."""
        for _ in range(int(WAIT_S * 10)):
            if done():
                return
            self.read(0.1)
        raise AssertionError(f"never {what}:\n{self.out[-3000:]!r}")

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_code(self) -> int:
        """The child's exit status, read once it ended (within EXIT_LIMIT_S); the output drained."""
        with contextlib.suppress(OSError):
            while self.read(0):
                pass
        for _ in range(int(EXIT_LIMIT_S * 10)):
            ended, _, _ = select.select([self.dead], [], [], 0.1)
            if ended:
                _, status = os.waitpid(self.pid, 0)
                with contextlib.suppress(OSError):
                    while self.read(0):
                        pass
                return os.waitstatus_to_exitcode(status)
            with contextlib.suppress(OSError):
                self.read(0)
        raise AssertionError("still running after the signal")

    def close(self) -> None:
        os.close(self.dead)
        with contextlib.suppress(OSError):
            os.close(self.fd)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(self.pid, signal.SIGKILL)
            os.waitpid(self.pid, 0)


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP", "window closed"])
def test_the_full_screen_stops_cleanly_and_the_game_is_saved_exactly(tmp_path: Path, stop: str) -> None:
    db = tmp_path / "stop.db"
    screen = Screen(db)
    try:
        screen.until(lambda: b"Suggested" in screen.out, "the table drawn with its suggested move")
        dealt = len(_moves(db))
        screen.type(b"1")  # the suggested move (your opening), and the AI's answer
        screen.until(lambda: any(kind == "action" for kind, _, _ in _moves(db)[dealt:]), "your move stored")
        screen.until(lambda: _moves(db)[-1][0] == "ai", "the AI's answer stored")
        screen.type(b"ba")  # two picks on the hand, in that order
        screen.until(lambda: _picks(db) == [1, 0], "the picks stored")
        moves = _moves(db)
        (version,) = _query(db, "SELECT version FROM game_tables")[0]
        if stop == "window closed":
            os.close(screen.fd)
        else:
            os.kill(screen.pid, getattr(signal, stop))
        assert screen.exit_code() == 0, screen.out[-3000:]
    finally:
        screen.close()
    assert b"Traceback" not in screen.out
    if stop != "window closed":  # a closed window has nobody to give the screen back to
        assert LEAVE_ALT_SCREEN in screen.out and b"Saved. Run the same command again to continue." in screen.out
    assert _moves(db) == moves and _picks(db) == [1, 0]
    assert _query(db, "SELECT status, version FROM game_tables") == [("playing", version)]
    assert _query(db, "SELECT * FROM table_claims") == []
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()


def test_a_closed_terminal_takes_no_more_writes() -> None:
    """The driver's file once the terminal is gone (EIO): writes are dropped, Textual's writer
    thread lives on to drain its queue, and the way down is never blocked."""
    class Gone(io.StringIO):
        def write(self, text: str) -> int:
            raise OSError(errno.EIO, "Input/output error")

        def flush(self) -> None:
            raise OSError(errno.EIO, "Input/output error")

    safe = ClosedTerminalSafe(Gone())
    assert not safe.gone
    assert safe.write("frame") == len("frame") and safe.gone
    safe.flush()
    assert safe.write("next frame") == len("next frame")
    live = io.StringIO()
    assert ClosedTerminalSafe(live).write("shown") == 5 and live.getvalue() == "shown"
