"""Issue 12, item 4: a token the platform rejects, or an API that cannot be reached, is one line
naming the setting, exit code 1, no traceback and no token; the rejections as real processes."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import discord
import pytest

from tests.cli.conftest import PYTHON, Run, subprocess_env
from tests.discord.fake_discord import FakeDiscord
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

TG_TOKEN = "123456:Rejected-Secret_Part-0123456789abcdef"
DC_TOKEN = "MTIzNDU2.Rejected-Secret.Part-0123456789"


def closed_port() -> int:
    with socket.socket() as s:  # bound and released: nothing listens there now
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def discord_globals(monkeypatch: pytest.MonkeyPatch) -> None:
    # point_at() sets both process-wide: put them back after the test.
    monkeypatch.setattr(discord.http.Route, "BASE", discord.http.Route.BASE)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY",
                        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


def test_telegram_unreachable(clean_env: pytest.MonkeyPatch, tmp_path: Path, rummyclub: Run) -> None:
    port = closed_port()
    clean_env.setenv("TELEGRAM_TOKEN", TG_TOKEN)
    clean_env.setenv("TELEGRAM_API_URL", f"http://127.0.0.1:{port}/bot")
    clean_env.setenv("DATABASE_URL", str(tmp_path / "rummy.db"))
    got = rummyclub("run")
    assert (got.code, got.lines) == (1, [f"rummyclub: TELEGRAM_API_URL: cannot reach the Telegram Bot API at "
                                         f"127.0.0.1:{port} (httpx.ConnectError: All connection attempts failed) — "
                                         "check the network and TELEGRAM_API_URL"])


def test_discord_unreachable(clean_env: pytest.MonkeyPatch, tmp_path: Path, discord_globals: None,
                             rummyclub: Run) -> None:
    port = closed_port()
    clean_env.setenv("DISCORD_TOKEN", DC_TOKEN)
    clean_env.setenv("DISCORD_API_URL", f"http://127.0.0.1:{port}/api/v10")
    clean_env.setenv("DATABASE_URL", str(tmp_path / "rummy.db"))
    clean_env.setenv("LOG_LEVEL", "WARNING")
    got = rummyclub("run")
    mine = [line for line in got.lines if line.startswith("rummyclub:")]
    assert (got.code, mine) == (1, [f"rummyclub: DISCORD_API_URL: cannot reach Discord at 127.0.0.1:{port} "
                                    "(ClientConnectorError) — check the network and DISCORD_API_URL"])
    assert "Traceback" not in got.err


def test_discord_gateway_unreachable(clean_env: pytest.MonkeyPatch, tmp_path: Path, discord_globals: None,
                                     rummyclub: Run) -> None:
    port = closed_port()
    clean_env.setenv("DISCORD_TOKEN", DC_TOKEN)
    clean_env.setenv("DISCORD_API_URL", f"http://127.0.0.1:{closed_port()}/api/v10")
    clean_env.setenv("DISCORD_GATEWAY_URL", f"ws://127.0.0.1:{port}/")
    clean_env.setenv("DATABASE_URL", str(tmp_path / "rummy.db"))
    got = rummyclub("run")
    assert (got.code, got.lines) == (1, [f"rummyclub: DISCORD_GATEWAY_URL: cannot reach the Discord gateway at "
                                         f"127.0.0.1:{port} (Connect call failed ('127.0.0.1', {port})) — check the "
                                         "network and DISCORD_GATEWAY_URL"])


async def run_cli(tmp_path: Path, **env: str) -> tuple[int, str]:
    proc = await asyncio.create_subprocess_exec(PYTHON, "-m", "bot.cli", "run", cwd=str(tmp_path),
                                                env=subprocess_env(tmp_path, **env),
                                                stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
                                                stderr=asyncio.subprocess.PIPE)
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    except TimeoutError:  # it should have exited at once: fail, and leave no process behind
        proc.kill()
        await proc.wait()
        raise
    assert out == b""
    return proc.returncode or 0, err.decode()


async def test_telegram_rejects_the_token(tmp_path: Path) -> None:
    fake = await FakeTelegramBotAPI("123456:the-one-it-knows").start()
    try:
        code, err = await run_cli(tmp_path, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_URL=fake.base_url)
    finally:
        await fake.stop()
    # At the default LOG_LEVEL=INFO this line is all there is: httpx's request log is quiet.
    assert (code, err) == (1, "rummyclub: TELEGRAM_TOKEN: Telegram rejected the token — copy it again from "
                              "@BotFather (/mybots → API Token)\n")


async def test_discord_rejects_the_token(tmp_path: Path) -> None:
    fake = await FakeDiscord("the.one.it-knows").start()
    try:
        code, err = await run_cli(tmp_path, DISCORD_TOKEN=DC_TOKEN, DISCORD_API_URL=fake.api_base,
                                  DISCORD_GATEWAY_URL=fake.gateway_url)
    finally:
        await fake.stop()
    mine = [line for line in err.splitlines() if line.startswith("rummyclub:")]
    assert code == 1 and mine == ["rummyclub: DISCORD_TOKEN: Discord rejected the token — copy it again from the "
                                  "developer portal (Bot → Reset Token)"]
    assert "Traceback" not in err and "Rejected-Secret" not in err


async def test_both_platforms_and_telegram_rejects_the_token(tmp_path: Path) -> None:
    # With both tokens one process runs both; a Telegram refusal must still end it (no thread left
    # holding the database open) with the one line.
    tg = await FakeTelegramBotAPI("123456:the-one-it-knows").start()
    dc = await FakeDiscord("the.one.it-knows").start()
    try:
        code, err = await run_cli(tmp_path, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_URL=tg.base_url,
                                  DISCORD_TOKEN="the.one.it-knows", DISCORD_API_URL=dc.api_base,
                                  DISCORD_GATEWAY_URL=dc.gateway_url, LOG_LEVEL="WARNING")
    finally:
        await dc.stop()
        await tg.stop()
    mine = [line for line in err.splitlines() if line.startswith("rummyclub:")]
    assert code == 1 and mine == ["rummyclub: TELEGRAM_TOKEN: Telegram rejected the token — copy it again from "
                                  "@BotFather (/mybots → API Token)"]
    assert "Traceback" not in err


def webhook_env(env: pytest.MonkeyPatch, tmp_path: Path, listen: str, port: int) -> None:
    env.setenv("TELEGRAM_TOKEN", TG_TOKEN)
    env.setenv("TELEGRAM_API_URL", f"http://127.0.0.1:{closed_port()}/bot")  # never reached: the port comes first
    env.setenv("TELEGRAM_MODE", "webhook")
    env.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example/tg/hook")
    env.setenv("TELEGRAM_WEBHOOK_LISTEN", listen)
    env.setenv("TELEGRAM_WEBHOOK_PORT", str(port))
    env.setenv("DATABASE_URL", str(tmp_path / "rummy.db"))


def test_webhook_port_in_use(clean_env: pytest.MonkeyPatch, tmp_path: Path, rummyclub: Run) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        webhook_env(clean_env, tmp_path, "127.0.0.1", port)
        got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: TELEGRAM_WEBHOOK_PORT: 127.0.0.1:{port} is already in use — "
                                         "stop what listens there, or pick another TELEGRAM_WEBHOOK_PORT"])


def test_webhook_listen_address_not_of_this_machine(clean_env: pytest.MonkeyPatch, tmp_path: Path,
                                                    rummyclub: Run) -> None:
    webhook_env(clean_env, tmp_path, "192.0.2.1", 8443)  # TEST-NET-1: never a local address
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, ["rummyclub: TELEGRAM_WEBHOOK_PORT: cannot listen on 192.0.2.1:8443 (Cannot "
                                         "assign requested address) — check TELEGRAM_WEBHOOK_LISTEN, an address of "
                                         "this machine"])


async def test_telegram_refuses_the_webhook(tmp_path: Path) -> None:
    fake = await FakeTelegramBotAPI(TG_TOKEN).start()
    fake.fail_next("setWebhook", 400, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
    port = closed_port()
    try:
        code, err = await run_cli(tmp_path, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_URL=fake.base_url,
                                  TELEGRAM_MODE="webhook", TELEGRAM_WEBHOOK_URL=f"http://127.0.0.1:{port}/hook",
                                  TELEGRAM_WEBHOOK_PORT=str(port))
    finally:
        await fake.stop()
    # Nothing else: neither PTB's own ERROR record with its traceback, nor a scheduler task left pending.
    assert (code, err) == (1, "rummyclub: TELEGRAM_WEBHOOK_URL: Telegram refused the webhook (Bad webhook: an https "
                              "url must be provided for webhook) — set it to a public https:// URL (ports 443, 80, "
                              "88 or 8443)\n")
