"""`rummyclub run` with TELEGRAM_TOKEN set starts the Telegram bot from settings: polling by
default, a webhook server when TELEGRAM_MODE=webhook (a redelivered update is applied once)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp

from tests.telegram.conftest import TOKEN
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

ROOT = Path(__file__).resolve().parents[2]


@contextlib.asynccontextmanager
async def bot_process(tmp_path: Path, **env: str) -> AsyncIterator[asyncio.subprocess.Process]:
    full = {**os.environ, "TELEGRAM_TOKEN": TOKEN, "DATABASE_URL": str(tmp_path / "run.db"), "LOG_LEVEL": "WARNING",
            "PYTHONPATH": str(ROOT), **env}
    full.pop("DISCORD_TOKEN", None)
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


async def test_run_starts_polling_and_answers(fake: FakeTelegramBotAPI, tmp_path: Path) -> None:
    async with bot_process(tmp_path, TELEGRAM_API_URL=fake.base_url):
        await fake.wait_for_call("setMyCommands", timeout=20)
        fake.push_text("/start", user=fake.user(7, "Zoe"))
        reply = await fake.wait_for_call("sendMessage", timeout=10)
        assert "Welcome to Rummy Club" in reply.params["text"]
    assert (tmp_path / "run.db").exists()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_run_in_webhook_mode(fake: FakeTelegramBotAPI, tmp_path: Path) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"
    async with bot_process(tmp_path, TELEGRAM_API_URL=fake.base_url, TELEGRAM_MODE="webhook",
                           TELEGRAM_WEBHOOK_URL=url, TELEGRAM_WEBHOOK_PORT=str(port),
                           TELEGRAM_WEBHOOK_SECRET="s3cret"):
        hook = await fake.wait_for_call("setWebhook", timeout=20)
        assert hook.params["url"] == url and hook.params["secret_token"] == "s3cret"
        await fake.wait_for_call("setMyCommands", timeout=20)
        user = fake.user(7, "Zoe")
        fake.dm_open.add(7)
        start = {"update_id": 500, "message": {"message_id": 1, "date": 0, "chat": fake.private_chat(user),
                                                "from": user, "text": "/start",
                                                "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}
        helpu = {"update_id": 501, "message": {**start["message"], "message_id": 2, "text": "/help",
                                                "entities": [{"type": "bot_command", "offset": 0, "length": 5}]}}
        async with aiohttp.ClientSession() as http:
            for _ in range(100):  # the server may bind a moment after setWebhook
                try:
                    async with http.post(url, json=start, headers={"X-Telegram-Bot-Api-Secret-Token": "no"}) as r:
                        assert r.status == 403
                        break
                except aiohttp.ClientConnectorError:
                    await asyncio.sleep(0.05)
            else:
                raise AssertionError("the webhook server never listened")
            for update in (start, start, helpu):  # Telegram may deliver an update twice
                async with http.post(url, json=update, headers={"X-Telegram-Bot-Api-Secret-Token": "s3cret"}) as r:
                    assert r.status == 200
        await fake.wait_for_call("sendMessage", lambda c: "/new" in c.params["text"] and "Join" in c.params["text"],
                                 timeout=10)
        welcomes = [c for c in fake.calls_to("sendMessage") if "Welcome" in c.params["text"]]
        assert len(welcomes) == 1
