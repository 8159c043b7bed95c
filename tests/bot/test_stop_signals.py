"""SIGTERM (what Docker, systemd and Kubernetes send) stops every bot mode cleanly: Telegram alone,
Discord alone, both in one process — exit 0 well inside the ~10 s a container runtime waits, no
SQLite -wal or -shm left, the stored table consistent, and the AI's moves that were in flight played
at the next start (bot/stopping.py). Real processes against the fake Telegram and Discord servers;
the AI is held "thinking" by tests/stop_child.py, so the signal lands while its work is in flight."""

from __future__ import annotations

import asyncio
import contextlib
import os
import select
import signal
import sqlite3
import sys
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path

import pytest

from bot.core.ai_pool import AiPool
from bot.core.models import Player
from bot.core.service import TableService
from storage import SqliteStore
from tests.bot.conftest import ALICE
from tests.bot.test_claims import moves
from tests.bot.test_exactly_once import ai_table
from tests.bot.test_service import ALICE_RACK, BOB_RACK
from tests.discord.conftest import TOKEN as DISCORD_TOKEN
from tests.discord.fake_discord import FakeDiscord
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

ROOT = Path(__file__).resolve().parents[2]
TELEGRAM_TOKEN = "123456:TEST-TOKEN"
GRACE_S = 2  # SHUTDOWN_GRACE_S of the runs: a thinking AI is handed back after it
EXIT_LIMIT_S = 10.0  # what a container runtime waits between SIGTERM and SIGKILL
START_LIMIT_S = 60.0  # a guard against a child that never starts, not a wait
CHATS = {"telegram": "-100500", "discord": "1234567890123456789"}  # the table's chat on each platform


async def handed_back_table(db: Path, platform: str = "telegram") -> tuple[str, list[tuple[str, int | None, str]]]:
    """Alice's draw stored, the AI's answer not, no claim on the table: what a stop that handed its AI
    work back leaves (and what a start must finish: a process showing `platform`'s tables). Returns
    the table and its log so far."""
    store = SqliteStore(str(db))
    await store.open()
    try:
        service = TableService(store, owner="before", ai=AiPool(0))
        table = await ai_table(service, platform, CHATS[platform])
        ack = await service.submit(table, ALICE, "draw")
        assert ack.pending is not None
        ack.pending.cancel()  # before it ran: the answer is never computed nor stored
        with contextlib.suppress(asyncio.CancelledError):
            await ack.pending
        await store.release_claim(table, "before")
        log = moves(await store.log(table))
        assert log[-1][0] == "action"
        return table, log
    finally:
        await store.close()


def claims(db: Path) -> int:
    with closing(sqlite3.connect(db)) as conn:
        return int(conn.execute("SELECT COUNT(*) FROM table_claims").fetchone()[0])


async def stored(db: Path, table: str) -> tuple[list[tuple[str, int | None, str]], int | None, bool]:
    """The table's log, who is on turn, and whether its snapshot is its log replayed."""
    store = SqliteStore(str(db))
    await store.open()
    try:
        service = TableService(store)
        rec = await service.get(table)
        assert rec.state is not None
        return moves(await store.log(table)), rec.state["turn"], rec.state == await service.replay(table)
    finally:
        await store.close()


class Mode:
    """The fake servers one mode talks to, and its environment."""

    def __init__(self, name: str, telegram: FakeTelegramBotAPI | None, discord: FakeDiscord | None) -> None:
        self.name, self.telegram, self.discord = name, telegram, discord

    def env(self, db: Path) -> dict[str, str]:
        env = {**os.environ, "DATABASE_URL": str(db), "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
               "SHUTDOWN_GRACE_S": str(GRACE_S), "AI_WORKERS": "1", "TELEGRAM_TOKEN": "", "DISCORD_TOKEN": ""}
        env.pop("WEB_PORT", None)
        if self.telegram is not None:
            env.update(TELEGRAM_TOKEN=TELEGRAM_TOKEN, TELEGRAM_API_URL=self.telegram.base_url)
        if self.discord is not None:
            env.update(DISCORD_TOKEN=DISCORD_TOKEN, DISCORD_API_URL=self.discord.api_base,
                       DISCORD_GATEWAY_URL=self.discord.gateway_url)
        return env

    async def serving(self) -> None:
        """Until the bot takes updates: its start (the tables resumed) is over."""
        if self.discord is not None:
            await asyncio.wait_for(self.discord.ready.wait(), START_LIMIT_S)
        if self.telegram is not None:
            after = len(self.telegram.calls)
            self.telegram.push_text("/start", user=self.telegram.user(7, "Zoe"))
            await self.telegram.wait_for_call("sendMessage", timeout=START_LIMIT_S, after=after)


@pytest.fixture(params=["telegram", "discord", "both"])
async def mode(request: pytest.FixtureRequest) -> AsyncIterator[Mode]:
    telegram = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start() if request.param != "discord" else None
    discord = await FakeDiscord(DISCORD_TOKEN).start() if request.param != "telegram" else None
    try:
        yield Mode(request.param, telegram, discord)
    finally:
        if discord is not None:
            await discord.stop()
        if telegram is not None:
            await telegram.stop()


async def spawn(module: str, env: dict[str, str], cwd: Path) -> asyncio.subprocess.Process:
    # A session of its own: a failed test ends the bot and its AI workers together (killpg).
    return await asyncio.create_subprocess_exec(sys.executable, "-m", module, "run", cwd=str(cwd), env=env,
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                start_new_session=True)


async def terminate(proc: asyncio.subprocess.Process, sig: signal.Signals = signal.SIGTERM) -> tuple[int, str]:
    """`sig` (SIGTERM), then the exit code and what it wrote to stderr. Reading to the end of both pipes
    also waits for its AI workers, which hold them: none is left behind."""
    proc.send_signal(sig)
    try:
        code = await asyncio.wait_for(proc.wait(), EXIT_LIMIT_S)
        assert proc.stdout is not None and proc.stderr is not None
        _, err = await asyncio.wait_for(asyncio.gather(proc.stdout.read(), proc.stderr.read()), EXIT_LIMIT_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        await proc.wait()
        raise AssertionError(f"no clean exit within {EXIT_LIMIT_S} s of {sig.name}") from None
    return code, err.decode()


async def test_sigterm_ends_each_mode_cleanly_and_the_ai_work_in_flight_is_played_at_the_next_start(
    mode: Mode, tmp_path: Path
) -> None:
    db = tmp_path / "run.db"
    table, before = await handed_back_table(db, "discord" if mode.name == "discord" else "telegram")

    # A start whose AI is still thinking about the table's answer when SIGTERM comes.
    proc = await spawn("tests.stop_child", mode.env(db), tmp_path)
    assert proc.stdout is not None
    line = await asyncio.wait_for(proc.stdout.readline(), START_LIMIT_S)
    assert line.strip() == b"thinking", line
    code, err = await terminate(proc)
    assert code == 0, err
    assert "Traceback" not in err, err
    assert not Path(f"{db}-wal").exists() and not Path(f"{db}-shm").exists()  # the store was closed
    log, turn, consistent = await stored(db, table)
    assert log == before and turn == 1 and consistent  # handed back: the AI still on turn, nothing half written
    assert claims(db) == 0  # and nobody holds the table: the next start plays it at once

    # The next start plays the AI's answer before it takes updates; SIGTERM ends it cleanly too.
    again = await spawn("bot.cli", mode.env(db), tmp_path)
    await mode.serving()
    code, err = await terminate(again)
    assert code == 0, err
    assert "Traceback" not in err, err
    assert not Path(f"{db}-wal").exists()
    log, turn, consistent = await stored(db, table)
    assert log[:len(before)] == before and log[len(before)][0] == "ai"  # the answer, after Alice's draw
    assert turn == 0 and consistent  # Alice on turn again
    assert claims(db) == 0


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGHUP], ids=["SIGINT", "SIGHUP"])
async def test_ctrl_c_and_sighup_end_a_telegram_bot_the_same_way(tmp_path: Path, sig: signal.Signals) -> None:
    telegram = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    try:
        mode = Mode("telegram", telegram, None)
        db = tmp_path / "run.db"
        proc = await spawn("bot.cli", mode.env(db), tmp_path)
        await mode.serving()
        code, err = await terminate(proc, sig)
        assert code == 0 and "Traceback" not in err, err
        assert db.exists() and not Path(f"{db}-wal").exists()
    finally:
        await telegram.stop()


async def test_an_ai_worker_whose_bot_is_killed_exits_without_a_traceback(tmp_path: Path) -> None:
    """SIGKILL to the bot while its AI worker computes: the worker finishes, finds nobody to answer,
    and exits quietly (before: a BrokenPipeError traceback on the terminal)."""
    telegram = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    try:
        db = tmp_path / "run.db"
        await handed_back_table(db)
        fifo = tmp_path / "release"
        os.mkfifo(fifo)
        env = {**Mode("telegram", telegram, None).env(db), "STOP_CHILD_FIFO": str(fifo)}
        proc = await spawn("tests.stop_child", env, tmp_path)
        assert proc.stdout is not None and proc.stderr is not None
        line = await asyncio.wait_for(proc.stdout.readline(), START_LIMIT_S)
        assert line.strip() == b"thinking", line  # the worker has the job
        dead = os.pidfd_open(proc.pid)  # readable once the process has ended (asyncio's wait() also
        try:  # waits for the pipes, which the worker holds)
            proc.kill()
            ended, _, _ = await asyncio.to_thread(select.select, [dead], [], [], EXIT_LIMIT_S)
            assert ended, "SIGKILL did not end the bot"
        finally:
            os.close(dead)
        # The job ends now and its answer has nowhere to go. (The worker opened the pipe for reading
        # before it said `thinking`, so this open finds it at once.) It holds the bot's stdout and
        # stderr until it exits: reading them to their end waits for it.
        await asyncio.to_thread(lambda: open(fifo, "wb").close())
        _, err = await asyncio.wait_for(asyncio.gather(proc.stdout.read(), proc.stderr.read()), EXIT_LIMIT_S)
        assert await proc.wait() == -signal.SIGKILL
        assert err.decode() == "", err.decode()
    finally:
        await telegram.stop()


async def test_sigterm_does_not_wait_out_a_busy_groups_window(tmp_path: Path) -> None:
    """A group past Telegram's 20 messages a minute: its next replies wait up to a minute for the
    window. SIGTERM does not wait them out (before: 60 s to exit); they are given up."""
    telegram = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    try:
        mode = Mode("telegram", telegram, None)
        db = tmp_path / "run.db"
        proc = await spawn("bot.cli", mode.env(db), tmp_path)
        await mode.serving()
        group = telegram.group()
        after = len(telegram.calls)
        for _ in range(25):
            telegram.push_text("/help", user=telegram.user(7, "Zoe"), chat=group)
        # The window's 20 replies went out; the 21st waits for the oldest to leave the window.
        replies = lambda call: call.params.get("chat_id") in (group["id"], str(group["id"]))  # noqa: E731
        for _ in range(20):
            call = await telegram.wait_for_call("sendMessage", replies, timeout=START_LIMIT_S, after=after)
            after = telegram.calls.index(call) + 1
        code, err = await terminate(proc)
        assert code == 0 and "Traceback" not in err, err
        assert not Path(f"{db}-wal").exists()
        sent = [c for c in telegram.calls_to("sendMessage") if replies(c)]
        assert len(sent) == 20  # nothing past the window: the limit held to the end
    finally:
        await telegram.stop()


async def test_sigterm_while_the_ai_answers_a_move_hands_the_answer_back_to_the_next_start(tmp_path: Path) -> None:
    """Zoe's move is stored and the AI is still thinking when SIGTERM comes: the bot waits the grace,
    then hands the answer back (no claim left) and exits 0; the next start plays it."""
    telegram = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    try:
        mode = Mode("telegram", telegram, None)
        db = tmp_path / "run.db"
        store = SqliteStore(str(db))
        await store.open()
        zoe = Player("telegram", "7", "Zoe")
        service = TableService(store, ai=AiPool(0))
        rec = await service.open_table("rummikub", "telegram", str(telegram.group()["id"]), zoe,
                                       deck=ALICE_RACK + BOB_RACK)
        await service.add_ai(rec.id, zoe)
        await service.start(rec.id, zoe)
        before = moves(await store.log(rec.id))
        await store.close()
        telegram.dm_open.add(7)  # her hand goes to her DM

        proc = await spawn("tests.stop_child", mode.env(db), tmp_path)
        assert proc.stdout is not None
        await mode.serving()
        telegram.push_text("draw", user=telegram.user(7, "Zoe"))
        line = await asyncio.wait_for(proc.stdout.readline(), START_LIMIT_S)
        assert line.strip() == b"thinking", line  # her draw is stored, the AI answers it
        code, err = await terminate(proc)
        assert code == 0 and "Traceback" not in err, err
        assert not Path(f"{db}-wal").exists() and claims(db) == 0
        log, turn, consistent = await stored(db, rec.id)
        assert log[:len(before)] == before and log[len(before):] == [("action", 0, "draw")]
        assert turn == 1 and consistent

        again = await spawn("bot.cli", mode.env(db), tmp_path)
        await mode.serving()
        code, err = await terminate(again)
        assert code == 0 and "Traceback" not in err, err
        log, turn, consistent = await stored(db, rec.id)
        assert log[len(before) + 1][0] == "ai" and turn == 0 and consistent
    finally:
        await telegram.stop()
