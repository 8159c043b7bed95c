"""`rummyclub play <game> --web` in a real subprocess: it prints the terminal player's seat link,
the link opens that seat while the terminal waits for input, `history` links a finished match to
its replay, and `quit` still leaves cleanly."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from bot.core.service import TableService
from storage import SqliteStore
from tests.cli.conftest import PYTHON, subprocess_env
from tests.web.test_server import finished_console_match


async def _line_with(stdout: asyncio.StreamReader, pattern: str) -> re.Match[str]:
    while True:
        line = (await asyncio.wait_for(stdout.readline(), 60)).decode()
        assert line, f"the process ended before printing {pattern!r}"
        if found := re.search(pattern, line):
            return found


async def test_play_web_prints_a_link_that_opens_the_terminal_players_seat(tmp_path: Path) -> None:
    env = subprocess_env(tmp_path, WEB_SECRET="cli-secret")
    store = SqliteStore(env["DATABASE_URL"])
    await store.open()
    try:
        done = await finished_console_match(TableService(store))
    finally:
        await store.close()
    proc = await asyncio.create_subprocess_exec(
        PYTHON, "-m", "bot.cli", "play", "rummikub", "--ai", "1", "--web", cwd=str(tmp_path), env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        link, table = (await _line_with(proc.stdout, r"(http://\S+/table/(\w+)\?\S+)")).groups()
        async with aiohttp.ClientSession() as http, \
                http.get(link.replace(f"/table/{table}?", f"/api/table/{table}?")) as resp:
            data = await resp.json()
        assert data["seat"] == 0 and len(data["hand"]["items"]) == 14 and data["names"][0] == "You"
        proc.stdin.write(b"history\n")
        await proc.stdin.drain()
        replay = (await _line_with(proc.stdout, rf"(http://\S+/replay/{done}\?\S+)")).group(1)
        async with aiohttp.ClientSession() as http, \
                http.get(replay.replace(f"/replay/{done}?", f"/api/table/{done}/replay?")) as resp:
            frame = await resp.json()
        assert frame["table"] == done and frame["steps"] > 1 and frame["hand"] is None
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
