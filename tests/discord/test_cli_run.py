"""`rummyclub run` with DISCORD_TOKEN starts the Discord client; with both tokens, one process
serves Telegram and Discord on one database."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from tests.discord.conftest import TOKEN
from tests.discord.fake_discord import FakeDiscord
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def bot_process(tmp_path: Path, fake: FakeDiscord, **env: str) -> AsyncIterator[asyncio.subprocess.Process]:
    full = {**os.environ, "DISCORD_TOKEN": TOKEN, "DISCORD_API_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url, "DATABASE_URL": str(tmp_path / "run.db"),
            "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT), "TELEGRAM_TOKEN": "", **env}
    proc = await asyncio.create_subprocess_exec(sys.executable, "-m", "bot.cli", "run", cwd=str(tmp_path), env=full,
                                                stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        yield proc
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(proc.wait(), 15)
        except TimeoutError:
            proc.kill()
            await proc.wait()


async def _open_a_table(fake: FakeDiscord) -> None:
    await asyncio.wait_for(fake.ready.wait(), 20)
    payload = fake.slash("rummy", user=fake.user(4242, "Alice"))
    payload["data"]["options"] = [{"name": "new", "type": 1, "options": [
        {"name": "game", "type": 3, "value": "rummikub"}]}]
    await fake.send_interaction(payload)
    await fake.wait_for_request("POST", rf"/interactions/{payload['id']}/.*/callback", timeout=10)
    lobby = await fake.wait_for_request("POST", rf"/channels/{fake.channel_id}/messages", timeout=10)
    assert lobby.json["embeds"] and lobby.json["components"]


async def test_run_starts_discord(tmp_path: Path) -> None:
    fake = await FakeDiscord(TOKEN).start()
    try:
        async with bot_process(tmp_path, fake):
            await fake.wait_for_request("PUT", rf"/applications/{fake.app_id}/commands", timeout=20)
            await _open_a_table(fake)
    finally:
        await fake.stop()
    assert (tmp_path / "run.db").exists()


async def test_run_both_in_one_process(tmp_path: Path) -> None:
    fake = await FakeDiscord(TOKEN).start()
    tg = await FakeTelegramBotAPI("123456:TEST-TOKEN").start()
    try:
        async with bot_process(tmp_path, fake, TELEGRAM_TOKEN="123456:TEST-TOKEN", TELEGRAM_API_URL=tg.base_url):
            await tg.wait_for_call("setMyCommands", timeout=20)
            await _open_a_table(fake)
            tg.push_text("/start", user=tg.user(7, "Zoe"))
            reply = await tg.wait_for_call("sendMessage", timeout=10)
            assert "Welcome to Rummy Club" in reply.params["text"]
    finally:
        await tg.stop()
        await fake.stop()
