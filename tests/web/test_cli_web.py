"""`rummyclub play <game> --web` in a real subprocess: it prints the terminal player's seat link,
the link opens that seat while the terminal waits for input, and `quit` still leaves cleanly."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import aiohttp

from tests.cli.conftest import PYTHON, subprocess_env


async def test_play_web_prints_a_link_that_opens_the_terminal_players_seat(tmp_path: Path) -> None:
    env = subprocess_env(tmp_path, WEB_SECRET="cli-secret")
    proc = await asyncio.create_subprocess_exec(
        PYTHON, "-m", "bot.cli", "play", "rummikub", "--ai", "1", "--web", cwd=str(tmp_path), env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        link = None
        while link is None:
            line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
            assert line, "the process ended before printing a link"
            if found := re.search(r"(http://\S+/table/(\w+)\?\S+)", line):
                link, table = found.group(1), found.group(2)
        async with aiohttp.ClientSession() as http, \
                http.get(link.replace(f"/table/{table}?", f"/api/table/{table}?")) as resp:
            data = await resp.json()
        assert data["seat"] == 0 and len(data["hand"]["items"]) == 14 and data["names"][0] == "You"
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 60) == 0
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
