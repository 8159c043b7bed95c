"""The terminal adapter driven end to end: in process with a scripted reader, and as the real
`rummyclub` process fed through stdin (including SIGKILL mid-game and a restart)."""

from __future__ import annotations

import io
import os
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

import bot.cli as cli
from bot.console.app import ConsoleTable
from bot.console.terminal import TerminalInput
from bot.core.clock import FakeClock
from bot.core.service import TableService
from rules import get_engine
from storage import SqliteStore
from tests.console.driver import move_from_db

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
    # DEFAULT_LANG set: the terminal would otherwise speak the machine's LANG (issue 30), and these read English.
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": "", "DEFAULT_LANG": "en"}
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


# ---- leaving with Ctrl-C, and a whole session through the real process -----------------------------


def _spawn(db: Path, *argv: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": "", "DEFAULT_LANG": "en"}
    return subprocess.Popen([sys.executable, "-m", "bot.cli", *argv, "--db", str(db)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT, env=env)


def _until_prompt(proc: subprocess.Popen[str], limit_s: float = 60.0) -> str:
    """Everything the child writes up to its next prompt (the prompt has no newline, so it ends the output)."""
    assert proc.stdout is not None
    seen = ""
    end = time.monotonic() + limit_s
    while not seen.endswith("> "):
        remaining = end - time.monotonic()
        assert remaining > 0, f"no prompt in output:\n{seen}"
        ready, _, _ = select.select([proc.stdout.fileno()], [], [], remaining)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536).decode()
            assert chunk, f"process ended before its prompt:\n{seen}"
            seen += chunk
    return seen


def _type(proc: subprocess.Popen[str], line: str) -> None:
    assert proc.stdin is not None
    proc.stdin.write(line + "\n")
    proc.stdin.flush()


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_ctrl_c_at_the_prompt_quits_at_once_and_closes_the_store(tmp_path: Path) -> None:
    db = tmp_path / "int.db"
    proc = _spawn(db, "play", "rummikub", "--ai", "1", "--seed", "11")
    # The prompt names the moves you can type now (no colour: the output is a pipe, not a terminal).
    assert _until_prompt(proc).splitlines()[-1].startswith("draw · play <melds> · new <tiles>")
    proc.send_signal(signal.SIGINT)
    # Before: `^C` sat on the prompt until Enter (the reader thread held asyncio.run's shutdown),
    # so with stdin still open (as here, on purpose) this wait ran out.
    assert proc.wait(timeout=15) == 0
    assert proc.stdout is not None and proc.stdin is not None
    rest = proc.stdout.read()
    proc.stdin.close()
    assert rest.strip() == "Saved. Run the same command again to continue." and "Traceback" not in rest
    assert not Path(f"{db}-wal").exists()  # the store was closed: SQLite folds its WAL back on the last close
    again = _spawn(db, "play", "rummikub", "--ai", "1", "--seed", "11")
    assert "Game restored." in _until_prompt(again)
    again.send_signal(signal.SIGINT)
    again.communicate(timeout=15)
    assert again.returncode == 0


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT")
def test_a_session_plays_to_the_end_rematches_shows_standings_and_quits_with_ctrl_c(tmp_path: Path) -> None:
    db = tmp_path / "session.db"
    proc = _spawn(db, "play", "three_thirteen", "--ai", "1", "-o", "rounds=1", "--seed", "4")
    menus, transcript, answers = 0, "", iter(["rematch", "3"])
    while menus < 2:
        chunk = _until_prompt(proc)
        transcript += chunk
        if "What next?" in chunk:
            menus += 1
            _type(proc, next(answers))
        else:
            move = move_from_db(db)  # the game's AI chooses your move; you type it
            assert move is not None, chunk
            _type(proc, move)
    standings = _until_prompt(proc)
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=15)
    assert proc.returncode == 0, rest
    assert transcript.startswith("Rummy Club — terminal table.")
    assert "Rematch: the same seats and options, a new deal." in transcript
    assert "🏆 Three-Thirteen — this chat, all time\n1. You — rating" in standings and "🕘 Last 2" in standings
    assert "Saved. Run the same command again to continue." in rest and "Traceback" not in rest
    assert not Path(f"{db}-wal").exists()
    with closing(sqlite3.connect(db)) as conn:
        rows = conn.execute("SELECT status, game FROM match_results ORDER BY finished_at").fetchall()
        active = conn.execute("SELECT count(*) FROM game_tables WHERE status IN ('lobby', 'playing')").fetchone()
    assert rows == [("finished", "three_thirteen"), ("finished", "three_thirteen")] and active == (0,)


async def test_ctrl_c_while_the_table_is_busy_leaves_cleanly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C during an AI turn (no prompt waiting) cancels the session task; it ends like quit."""
    readers: list[TerminalInput] = []

    class Spy(TerminalInput):
        def __init__(self, prompt: str) -> None:
            super().__init__(prompt, stdin=io.StringIO("draw\n"))
            readers.append(self)

    real_act = TableService.act

    async def interrupted_act(self: TableService, *args: Any, **kwargs: Any) -> Any:
        readers[0].interrupt()  # what SIGINT does while the table works
        return await real_act(self, *args, **kwargs)

    monkeypatch.setattr(cli, "TerminalInput", Spy)
    monkeypatch.setattr(TableService, "act", interrupted_act)
    db = tmp_path / "busy.db"
    assert await cli._play("rummikub", 1, {}, 3, False, str(db), "en") == 0
    assert capsys.readouterr().out.rstrip().endswith("Saved. Run the same command again to continue.")
    store = SqliteStore(str(db))
    await store.open()
    rec = await store.active_table_for_chat("console", "terminal")
    assert rec is not None and rec.state == await TableService(store).replay(rec.id)  # nothing half written
    await store.close()
