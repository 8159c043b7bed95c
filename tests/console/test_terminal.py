"""The terminal adapter driven end to end: in process with a scripted reader, and as the real
`rummyclub` process fed through stdin (including SIGKILL mid-game and a restart)."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path

import pytest

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.service import TableService
from rules import get_engine
from storage import SqliteStore

ROOT = Path(__file__).resolve().parents[2]
ENGINE = get_engine("rummikub")


def scripted(lines: Iterable[str]):
    queue = list(lines)

    async def read() -> str | None:
        return queue.pop(0) + "\n" if queue else None

    return read


async def test_scripted_session_shows_rack_table_help_and_errors(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    service = TableService(store, FakeClock())
    console = ConsoleTable(service, scripted(["help", "pass", "draw", "bogus", "sort", "quit"]), out.append)
    rec = await console.open_or_resume("rummikub", ai=2, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None and [s.kind for s in rec.seats] == ["human", "ai", "ai"]
    assert await console.run(rec) == 0
    text = "\n".join(out)
    assert "Commands (Rummikub):" in text and "split 1 3" in text
    assert "You can pass only when the pool is empty (64 tiles left): draw instead." in text
    assert "You got:" in text  # the private line for the tile drawn
    assert "I could not read that: 'bogus' is not a command. The commands here are play, draw" in text
    assert "Your rack (" in text and "Players:" in text and "AI 1" in text
    # The whole game so far is in the log, and replays to the stored state.
    stored = await service.get(rec.id)
    assert stored.state == await service.replay(rec.id)
    await store.close()


async def test_resume_same_game_and_refuse_another(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    service = TableService(store, FakeClock())
    first = await ConsoleTable(service, scripted([]), out.append).open_or_resume("rummikub", 1, seed=9)
    again = await ConsoleTable(service, scripted([]), out.append).open_or_resume("rummikub", 1, seed=1)
    assert again is not None and again.id == first.id and "Game restored." in out
    fresh = await ConsoleTable(service, scripted([]), out.append).open_or_resume("rummikub", 1, new=True)
    assert fresh is not None and fresh.id != first.id
    assert (await service.get(first.id)).status == "abandoned"
    await store.close()


def _cli(db: Path, *args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": ""}
    return subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "rummikub", "--ai", "1", "--seed", "11", "--db", str(db), *args],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env,
    )


def _read_until(proc: subprocess.Popen[str], marker: str, limit_s: float = 60.0) -> str:
    """Read the child's output until `marker` shows up; `limit_s` only guards against a hang."""
    assert proc.stdout is not None
    seen = ""
    end = time.monotonic() + limit_s
    fd = proc.stdout.fileno()
    while marker not in seen:
        remaining = end - time.monotonic()
        assert remaining > 0, f"no {marker!r} in output:\n{seen}"
        ready, _, _ = select.select([fd], [], [], remaining)
        if ready:
            chunk = os.read(fd, 65536).decode()
            assert chunk, f"process ended before {marker!r}:\n{seen}"
            seen += chunk
    return seen


def _log(db: Path) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT seq, kind, text FROM table_log ORDER BY seq").fetchall()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_process_resumes_from_the_last_accepted_action(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    proc = _cli(db)
    _read_until(proc, "> ")
    assert proc.stdin is not None
    proc.stdin.write("draw\n")
    proc.stdin.flush()
    _read_until(proc, "You got:")  # accepted: stored before it was shown
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    log_at_kill = _log(db)
    assert ("action", "draw") in [(k, t) for _, k, t in log_at_kill]

    again = _cli(db)
    out = _read_until(again, "> ")
    assert "Game restored." in out
    assert again.stdin is not None
    again.stdin.write("draw\nquit\n")
    again.stdin.flush()
    rest, _ = again.communicate(timeout=60)
    assert again.returncode == 0, rest
    log_after = _log(db)
    assert log_after[: len(log_at_kill)] == log_at_kill  # nothing lost, nothing rewritten
    assert [k for _, k, t in log_after[len(log_at_kill):] if k == "action"] == ["action"]
