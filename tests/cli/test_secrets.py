"""Issue 12, item 1: no token, webhook secret or database password in any log line or on screen,
at any level. Unit tests of the redacting handler, then real `rummyclub run` processes at
LOG_LEVEL=DEBUG against the fake Telegram and Discord servers: a turn, an error, webhook mode,
a rejected token; nothing they write (stdout, stderr, any file in their folder) holds a secret."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sqlite3
import warnings
from collections.abc import AsyncIterator
from contextlib import closing
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest

from bot.core.codec import decode
from bot.logs import Redactor, secrets_of, setup_logging
from bot.settings import Settings
from tests.cli.conftest import PYTHON, Run, subprocess_env
from tests.discord.fake_discord import FakeDiscord
from tests.discord.test_cli_run import _open_a_table
from tests.telegram.fake_bot_api import JSON, FakeTelegramBotAPI
from tests.telegram.test_cli_run import free_port

TG_TOKEN = "918273:Tg-Secret_HALF-9f8e7d6c5b4a3210zyxwvut"
DC_TOKEN = "ZGlzY29yZC1ib3Q.Dc-Secret-Middle.Dc_Secret_Tail-0123456789"
HOOK_SECRET = "Hook-Secret-0123456789"
DB_PASSWORD = "Pg-Secret-pass"
# Every secret above, and the parts of the tokens that are secret on their own: none may show.
FRAGMENTS = [TG_TOKEN, DC_TOKEN, HOOK_SECRET, DB_PASSWORD, "Tg-Secret_HALF", "Dc-Secret-Middle", "Dc_Secret_Tail",
             "Hook-Secret"]
GROUP = FakeTelegramBotAPI.group(-100500, "Friends")


def assert_no_secret(*texts: str) -> None:
    for text in texts:
        for fragment in FRAGMENTS:
            assert fragment not in text, f"{fragment!r} leaked: …{text[max(text.find(fragment) - 200, 0):][:400]}…"


def assert_no_secret_in_files(folder: Path) -> None:
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert files
    for path in files:
        data = path.read_bytes()
        for fragment in FRAGMENTS:
            assert fragment.encode() not in data, f"{fragment!r} in {path}"


# ---- the filter --------------------------------------------------------------------------------

@pytest.fixture
def settings(clean_env: pytest.MonkeyPatch) -> Settings:
    clean_env.setenv("TELEGRAM_TOKEN", TG_TOKEN)
    clean_env.setenv("DISCORD_TOKEN", DC_TOKEN)
    clean_env.setenv("TELEGRAM_WEBHOOK_SECRET", HOOK_SECRET)
    clean_env.setenv("DATABASE_URL", f"postgresql://rummy:{DB_PASSWORD}@db.example:5432/rummy")
    return Settings()


def test_every_configured_secret_is_known(settings: Settings) -> None:
    found = secrets_of(settings)
    for secret in (TG_TOKEN, "Tg-Secret_HALF-9f8e7d6c5b4a3210zyxwvut", DC_TOKEN, HOOK_SECRET, DB_PASSWORD,
                   quote(TG_TOKEN, safe="")):
        assert secret in found
    assert "918273" not in found  # the bot id is public (it is in every update): not blanked alone


def test_the_root_handler_blanks_secrets_from_every_logger(settings: Settings,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("DEBUG", Redactor(secrets_of(settings)))
    library = logging.getLogger("some.new.library")  # no handler of its own: propagates to root
    library.debug("POST https://api.telegram.org/bot%s/getMe", TG_TOKEN)
    library.info("encoded: %s", quote(TG_TOKEN, safe=""))
    library.info("half: %s, hook: %s", TG_TOKEN.partition(":")[2], HOOK_SECRET)
    library.warning({"authorization": f"Bot {DC_TOKEN}"})
    try:
        raise RuntimeError(f"The token `{TG_TOKEN}` was rejected by the server.")
    except RuntimeError:
        library.exception("failed to connect to postgresql://rummy:%s@db", DB_PASSWORD)
    library.info("with a stack", stack_info=True)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        warnings.warn(f"deprecated call with {DC_TOKEN}", UserWarning, stacklevel=1)
    err = capsys.readouterr().err
    assert_no_secret(err)
    assert err.count("***") >= 8 and "https://api.telegram.org/bot***/getMe" in err
    assert "RuntimeError: The token `***` was rejected" in err and "Stack (most recent call last)" in err
    assert logging.getLogger("httpx").getEffectiveLevel() == logging.WARNING


def test_an_unexpected_error_keeps_its_traceback_but_not_the_token(settings: Settings, clean_env: pytest.MonkeyPatch,
                                                                   rummyclub: Run) -> None:
    def bug(*args: object) -> int:
        raise RuntimeError(f"boom with {TG_TOKEN} and {HOOK_SECRET}")

    clean_env.setattr("bot.cli._dispatch", bug)
    got = rummyclub("run")
    assert got.code == 1 and "Traceback (most recent call last)" in got.err
    assert "RuntimeError: boom with *** and ***" in got.err
    assert got.lines[-1] == "rummyclub: unexpected error (a bug) — please report it with the traceback above"
    assert_no_secret(got.err, got.out)


def test_short_values_are_not_blanked() -> None:
    # A one-letter "secret" would turn every "a" of the log into ***.
    assert Redactor(["a", "xyz12345"])("a cat xyz12345") == "a cat ***"


def test_the_web_secret_and_any_seat_link_are_blanked(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("WEB_SECRET", "web-signing-key-42")
    redact = Redactor(secrets_of(Settings()))
    token = "t1a2b3.0.1800003600.0123456789abcdef0123456789abcdef"  # signed by any key: not a setting
    line = (f"key web-signing-key-42; b'GET /api/table/t1a2b3?lang=ru&k={token}&x=1'; "
            f"X-Rummy-Link: {token}; tma=query_id%3DAAH%26hash%3Dab12; cut b'{token[:-20]}...'")
    out = redact(line)
    assert "web-signing-key-42" not in out and token not in out and token[:-20] not in out and "AAH" not in out
    assert "lang=ru&k=***&x=1" in out, "the rest of the line stays readable"
    assert redact("version 3.14.5 at 1.2.3.4") == "version 3.14.5 at 1.2.3.4"


# ---- real processes ----------------------------------------------------------------------------

@contextlib.asynccontextmanager
async def rummyclub_run(tmp_path: Path, **env: str) -> AsyncIterator[asyncio.subprocess.Process]:
    """`rummyclub run` at DEBUG, stdout and stderr into files in its own folder."""
    full = subprocess_env(tmp_path, LOG_LEVEL="DEBUG", DATABASE_URL=f"sqlite:///{tmp_path / 'run.db'}", **env)
    with open(tmp_path / "stdout.log", "wb") as out, open(tmp_path / "stderr.log", "wb") as err:
        proc = await asyncio.create_subprocess_exec(PYTHON, "-m", "bot.cli", "run", cwd=str(tmp_path), env=full,
                                                    stdin=asyncio.subprocess.DEVNULL, stdout=out, stderr=err)
        try:
            yield proc
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGINT)
            try:
                await asyncio.wait_for(proc.wait(), 20)
            except TimeoutError:
                proc.kill()
                await proc.wait()


def written(tmp_path: Path) -> str:
    return (tmp_path / "stdout.log").read_text("utf-8") + (tmp_path / "stderr.log").read_text("utf-8")


def button(fake: FakeTelegramBotAPI, chat_id: int, verb: str) -> tuple[JSON, str]:
    """The newest bot message in a chat with a `verb` button, and that button's payload."""
    for msg in reversed(fake.chat_messages(chat_id)):
        for b in fake.buttons(msg):
            if "callback_data" in b and decode(b["callback_data"]).verb == verb:
                return msg, b["callback_data"]
    raise AssertionError(f"no {verb} button in chat {chat_id}")


async def press(fake: FakeTelegramBotAPI, chat_id: int, verb: str, user: JSON) -> None:
    msg, data = button(fake, chat_id, verb)
    cbq = fake.push_callback(data, message=msg, user=user)["callback_query"]["id"]
    await fake.wait_for_call("answerCallbackQuery", lambda c: c.params["callback_query_id"] == cbq, timeout=10)


async def dm(fake: FakeTelegramBotAPI, text: str, user: JSON) -> None:
    after = len(fake.calls)
    fake.push_text(text, user=user)
    await fake.wait_for_call("sendMessage", lambda c: c.chat_id == user["id"], timeout=10, after=after)


async def test_polling_both_platforms_at_debug(tmp_path: Path) -> None:
    tg = await FakeTelegramBotAPI(TG_TOKEN, bot_id=918273).start()
    dc = await FakeDiscord(DC_TOKEN).start()
    alice = tg.user(101, "Alice")
    try:
        # The Telegram token comes with the spaces a paste leaves: it is stripped, then accepted.
        async with rummyclub_run(tmp_path, TELEGRAM_TOKEN=f"  {TG_TOKEN} \n", TELEGRAM_API_URL=tg.base_url,
                                 DISCORD_TOKEN=DC_TOKEN, DISCORD_API_URL=dc.api_base,
                                 DISCORD_GATEWAY_URL=dc.gateway_url):
            await tg.wait_for_call("setMyCommands", timeout=30)
            await dm(tg, "/start", alice)
            after = len(tg.calls)
            tg.push_text("/new rummikub", user=alice, chat=GROUP)
            await tg.wait_for_call("sendMessage", lambda c: c.chat_id == GROUP["id"], timeout=10, after=after)
            await press(tg, GROUP["id"], "addai", alice)
            await press(tg, GROUP["id"], "start", alice)
            await dm(tg, "draw", alice)      # a turn (or, if it is not Alice's, a refusal)
            await dm(tg, "xyzzy 42", alice)  # an error: a command of no game's grammar
            await _open_a_table(dc)          # and a Discord table through the gateway
    finally:
        await dc.stop()
        await tg.stop()
    with closing(sqlite3.connect(tmp_path / "run.db")) as conn:
        assert ("draw",) in conn.execute("SELECT text FROM table_log WHERE seat = 0").fetchall()
    out = written(tmp_path)
    assert " DEBUG telegram" in out and " DEBUG discord" in out  # it really logged at DEBUG
    assert "bot***/getUpdates" in out or "***" in out
    assert_no_secret(out)
    assert_no_secret_in_files(tmp_path)


async def test_webhook_mode_at_debug(tmp_path: Path) -> None:
    tg = await FakeTelegramBotAPI(TG_TOKEN, bot_id=918273).start()
    port = free_port()
    url = f"http://127.0.0.1:{port}/tg/hook"
    user = tg.user(7, "Zoe")
    tg.dm_open.add(7)
    update = {"update_id": 900, "message": {"message_id": 1, "date": 0, "chat": tg.private_chat(user), "from": user,
                                            "text": "/start",
                                            "entities": [{"type": "bot_command", "offset": 0, "length": 6}]}}
    try:
        async with rummyclub_run(tmp_path, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_URL=tg.base_url,
                                 TELEGRAM_MODE="webhook", TELEGRAM_WEBHOOK_URL=url, TELEGRAM_WEBHOOK_PORT=str(port),
                                 TELEGRAM_WEBHOOK_SECRET=f"{HOOK_SECRET} "):
            hook = await tg.wait_for_call("setWebhook", timeout=30)
            assert hook.params["secret_token"] == HOOK_SECRET  # in use, and stripped
            async with aiohttp.ClientSession() as http:
                for _ in range(100):  # the server may bind a moment after setWebhook
                    try:
                        async with http.post(url, json=update,
                                             headers={"X-Telegram-Bot-Api-Secret-Token": HOOK_SECRET}) as r:
                            assert r.status == 200
                            break
                    except aiohttp.ClientConnectorError:
                        await asyncio.sleep(0.05)
                else:
                    raise AssertionError("the webhook server never listened")
            await tg.wait_for_call("sendMessage", lambda c: c.chat_id == 7, timeout=10)
    finally:
        await tg.stop()
    out = written(tmp_path)
    assert "setWebhook" in out and "***" in out  # PTB logged the call; the filter blanked its secret
    assert_no_secret(out)
    assert_no_secret_in_files(tmp_path)


async def test_a_rejected_token_at_debug(tmp_path: Path) -> None:
    tg = await FakeTelegramBotAPI("918273:the-token-it-knows").start()
    try:
        async with rummyclub_run(tmp_path, TELEGRAM_TOKEN=TG_TOKEN, TELEGRAM_API_URL=tg.base_url) as proc:
            await asyncio.wait_for(proc.wait(), 30)
    finally:
        await tg.stop()
    out = written(tmp_path)
    assert proc.returncode == 1
    # PTB's own message quotes the token; the traceback DEBUG adds shows it blanked.
    assert "The token `***` was rejected by the server." in out
    mine = [line for line in out.splitlines() if line.startswith("rummyclub:")]
    assert mine == ["rummyclub: TELEGRAM_TOKEN: Telegram rejected the token — copy it again from @BotFather "
                    "(/mybots → API Token)"]
    assert_no_secret(out)
    assert_no_secret_in_files(tmp_path)
