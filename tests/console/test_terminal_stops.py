"""The terminal never wedges and always stops cleanly: killed while the AI answers, the next start
plays the AI's move at once and takes yours; SIGTERM and SIGHUP end `play`, `run` and `play --web`
like `quit` (exit 0, the store closed); the table's clock ticks in the terminal as in the bots."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import sqlite3
import subprocess
import sys
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.console.app import CHAT_ID, PLATFORM, TERMINAL_OWNER, YOU, ConsoleTable
from bot.core.clock import FakeClock
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.test_terminal import _read_until, _spawn, _type, _until_prompt

ROOT = Path(__file__).resolve().parents[2]
NOT_YOUR_TURN = "It is not your turn"
EXIT_LIMIT_S = 10.0  # what a container runtime waits between SIGTERM and SIGKILL
PLAY = ("play", "rummikub", "--ai", "1", "--seed", "11")

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _log(db: Path) -> list[tuple[str, int | None, str]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT kind, seat, text FROM table_log ORDER BY seq").fetchall()


def _claims(db: Path) -> list[tuple[str, str]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT table_id, owner FROM table_claims").fetchall()


def _thinking_terminal(db: Path) -> subprocess.Popen[str]:
    """`rummyclub play …` whose AI never answers (tests/stop_child.py): it prints `thinking` and waits."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": "", "DEFAULT_LANG": "en"}
    return subprocess.Popen([sys.executable, "-m", "tests.stop_child", *PLAY, "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)


@contextlib.contextmanager
def ended(*procs: subprocess.Popen[str]) -> Iterator[None]:
    """Whatever the test asserts, no child outlives it."""
    try:
        yield
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.communicate()


def test_killed_while_the_ai_answers_the_next_start_plays_its_move_at_once_and_takes_yours(tmp_path: Path) -> None:
    db = tmp_path / "wedge.db"
    first = _thinking_terminal(db)
    with ended(first):
        _read_until(first, "thinking")  # the deal is stored, and the AI (first on turn at this seed) answers it
        first.kill()
        first.wait()
    at_kill = _log(db)
    assert at_kill and all(kind != "ai" for kind, _, _ in at_kill)
    assert len(_claims(db)) == 1  # left behind by the killed terminal, its lease still running

    again = _spawn(db, *PLAY)
    with ended(again):
        out = _until_prompt(again)
        assert "Game restored." in out
        after_start = _log(db)
        assert after_start[:len(at_kill)] == at_kill and after_start[len(at_kill)][0] == "ai"  # played at once
        _type(again, "draw")
        out = _until_prompt(again)
        assert NOT_YOUR_TURN not in out, out
        log = _log(db)
        assert log[len(after_start)][:2] == ("action", 0)  # your move taken
        again.send_signal(signal.SIGTERM)
        rest, _ = again.communicate(timeout=EXIT_LIMIT_S)
    assert again.returncode == 0, rest
    assert "Saved. Run the same command again to continue." in rest and "Traceback" not in rest
    assert not Path(f"{db}-wal").exists() and _claims(db) == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
@pytest.mark.parametrize("argv", [PLAY, ("run",), (*PLAY, "--web")], ids=["play", "run", "play-web"])
def test_sigterm_and_sighup_end_the_terminal_like_quit(tmp_path: Path, sig: signal.Signals,
                                                       argv: tuple[str, ...]) -> None:
    db = tmp_path / "stop.db"
    proc = _spawn(db, *argv)
    with ended(proc):
        out = _until_prompt(proc)
        if "--web" in argv:
            assert "Your seat in a browser: http://" in out
        proc.send_signal(sig)
        rest, _ = proc.communicate(timeout=EXIT_LIMIT_S)
    assert proc.returncode == 0, rest
    assert "Saved. Run the same command again to continue." in rest and "Traceback" not in rest
    assert db.exists() and not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()


def scripted(lines: Iterable[str]):  # type: ignore[no-untyped-def]
    queue = list(lines)

    async def read() -> str | None:
        return queue.pop(0) + "\n" if queue else None
    return read


async def test_the_table_clock_ticks_in_the_terminal_and_shows_what_it_did(tmp_path: Path) -> None:
    """A turn timer at the terminal: the clock's tick plays your timeout and the AI's answer, shows
    both, and the table you play on is the one the clock left (your next move is taken)."""
    store = SqliteStore(str(tmp_path / "clock.db"))
    await store.open()
    try:
        clock = FakeClock()
        service = TableService(store, clock, owner=TERMINAL_OWNER)
        out: list[str] = []
        table = ConsoleTable(service, scripted(["draw"]), out.append)
        rec = await table.open_new("rummikub", 1, {"turn_timer_s": 60}, seed=11)
        assert (rec.platform, rec.chat_id) == (PLATFORM, CHAT_ID)
        scheduler = Scheduler(service, 1.0, table.show_clock)
        assert await scheduler.run_once() == []  # nothing due yet
        clock.advance(61)
        shown = len(out)
        (outcome,) = await scheduler.run_once()
        assert [e.kind for e in await store.log(rec.id)][-2:] == ["timeout", "ai"]
        assert outcome.table.id == rec.id and len(out) > shown  # shown, as a move is
        # The session's loop still holds the table as it was before the tick: it plays on the new one.
        await table.play(rec, YOU)
        assert NOT_YOUR_TURN not in "\n".join(out)
        assert [e.kind for e in await store.log(rec.id)][-2:] == ["action", "ai"]
    finally:
        await store.close()


def test_closing_the_terminal_window_saves_and_leaves(tmp_path: Path) -> None:
    """A real terminal closed under the session (its pty's master end): the kernel sends SIGHUP and
    every write fails from then on; the session still closes the store and exits 0."""
    db = tmp_path / "hup.db"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": "", "DEFAULT_LANG": "en"}
    pid, master = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal
        os.chdir(ROOT)
        # --line: a pty would open the full screen; this is the line mode's window closing.
        os.execve(sys.executable, [sys.executable, "-m", "bot.cli", *PLAY, "--line", "--db", str(db)], env)
    dead = os.pidfd_open(pid)
    try:
        seen = b""
        while b"> " not in seen:  # the first prompt: the session is up and waits for you
            ready, _, _ = select.select([master], [], [], 60)
            assert ready, seen
            seen += os.read(master, 65536)
        os.close(master)  # the window closes
        ended, _, _ = select.select([dead], [], [], EXIT_LIMIT_S)
        assert ended, "still running after its terminal closed"
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()
    finally:
        os.close(dead)
        with contextlib.suppress(ProcessLookupError, ChildProcessError):
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
