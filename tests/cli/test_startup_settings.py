"""Issue 12, item 4: a bad setting, LOG_LEVEL, .env or token is one line naming the variable and
what to do, exit code 2, no traceback (unless LOG_LEVEL=DEBUG), and never the token itself."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import Settings
from tests.cli.conftest import Run

FIX = "— fix it in .env or the environment"

# Every setting that takes a number or a flag, with a non-number and each side out of range.
BAD_VALUES = [
    ("TELEGRAM_WEBHOOK_PORT", "abc", "expected a whole number from 1 to 65535, got 'abc'"),
    ("TELEGRAM_WEBHOOK_PORT", "0", "expected a whole number from 1 to 65535, got '0'"),
    ("TELEGRAM_WEBHOOK_PORT", "65536", "expected a whole number from 1 to 65535, got '65536'"),
    ("TELEGRAM_WEBHOOK_PORT", "80.5", "expected a whole number from 1 to 65535, got '80.5'"),
    ("LOBBY_TTL_S", "an hour", "expected a number above 0, got 'an hour'"),
    ("LOBBY_TTL_S", "0", "expected a number above 0, got '0'"),
    ("LOBBY_TTL_S", "nan", "expected a number above 0, got 'nan'"),
    ("AI_WORKERS", "-1", "expected a whole number from 0 to 64, got '-1'"),
    ("AI_WORKERS", "two", "expected a whole number from 0 to 64, got 'two'"),
    ("TICK_INTERVAL_S", "-1", "expected a number above 0, got '-1'"),
    ("TICK_INTERVAL_S", "inf", "expected a number above 0, got 'inf'"),
    ("CLAIM_LEASE_S", "0", "expected a number above 0, got '0'"),
    ("PG_POOL_MIN", "0", "expected a whole number from 1 to 1000, got '0'"),
    ("PG_POOL_MAX", "1", "expected a whole number from 2 to 1000, got '1'"),
    ("PG_POOL_MAX", "lots", "expected a whole number from 2 to 1000, got 'lots'"),
    ("SHUTDOWN_GRACE_S", "-1", "expected a number from 0 to 60, got '-1'"),
    ("SHUTDOWN_GRACE_S", "a while", "expected a number from 0 to 60, got 'a while'"),
    ("TELEGRAM_OVERALL_MAX_PER_S", "lots", "expected a number above 0, got 'lots'"),
    ("TELEGRAM_OVERALL_MAX_PER_S", "0", "expected a number above 0, got '0'"),
    ("TELEGRAM_GROUP_MAX_PER_MIN", "x", "expected a number above 0, got 'x'"),
    ("TELEGRAM_GROUP_MAX_PER_MIN", "-20", "expected a number above 0, got '-20'"),
    ("DISCORD_ACK_AFTER_S", "soon", "expected a number from 0 to 2.5, got 'soon'"),
    ("DISCORD_ACK_AFTER_S", "3", "expected a number from 0 to 2.5, got '3'"),
    ("DISCORD_ACK_AFTER_S", "-0.5", "expected a number from 0 to 2.5, got '-0.5'"),
    ("WEB_LINK_TTL_S", "0", "expected a number above 0, got '0'"),
    ("WEB_INIT_MAX_AGE_S", "a day", "expected a number above 0, got 'a day'"),
    ("WEB_HEADER_TIMEOUT_S", "0", "expected a number above 0, at most 3600, got '0'"),
    ("WEB_BODY_TIMEOUT_S", "forever", "expected a number above 0, at most 3600, got 'forever'"),
    ("WEB_MAX_CONNECTIONS", "0", "expected a whole number from 1 to 99999, got '0'"),
    ("WEB_MAX_CONNECTIONS_PER_ADDRESS", "-1", "expected a whole number from 0 to 99999, got '-1'"),
    ("WEB_MAX_STREAMS", "many", "expected a whole number from 1 to 99999, got 'many'"),
    ("WEB_MAX_STREAMS_PER_ADDRESS", "1.5", "expected a whole number from 0 to 99999, got '1.5'"),
    ("WEB_MAX_STREAMS_PER_LINK", "-2", "expected a whole number from 0 to 99999, got '-2'"),
    ("WEB_MOVES_PER_S", "0", "expected a number above 0, got '0'"),
    ("WEB_MOVE_BURST", "0", "expected a whole number from 1 to 10000, got '0'"),
    ("WEB_BACKLOG", "0", "expected a whole number from 1 to 65535, got '0'"),
    ("WEB_URL", "table.example", "expected a http:// or https:// URL with a host, got 'table.example'"),
    ("TELEGRAM_RATE_LIMIT", "maybe", "expected true or false, got 'maybe'"),
    ("DISCORD_SHARDED", "2", "expected true or false, got '2'"),
    ("DISCORD_SHARD_COUNT", "0", "expected a whole number from 1 to 100000, got '0'"),
    ("DISCORD_SYNC_COMMANDS", "yes please", "expected true or false, got 'yes please'"),
    ("TELEGRAM_MODE", "push", "expected one of polling, webhook, got 'push'"),
    ("LOG_LEVEL", "LOUD", "expected one of DEBUG, INFO, WARNING, ERROR, CRITICAL, got 'LOUD'"),
    ("TELEGRAM_API_URL", "localhost:8081/bot", "expected a http:// or https:// URL with a host, got "
     "'localhost:8081/bot'"),
    ("TELEGRAM_WEBHOOK_URL", "https://:8443/hook", "expected a http:// or https:// URL with a host, got "
     "'https://:8443/hook'"),
    ("DISCORD_API_URL", "ftp://proxy/api/v10", "expected a http:// or https:// URL with a host, got "
     "'ftp://proxy/api/v10'"),
    ("DISCORD_GATEWAY_URL", "https://gateway.example:x", "expected a ws:// or wss:// URL with a host, got "
     "'https://gateway.example:x'"),
]


def test_every_numeric_and_flag_setting_is_covered() -> None:
    # A new number or flag setting must get its bad values above.
    typed = {name.upper() for name, f in Settings.model_fields.items() if f.annotation in (int, float, bool)}
    assert typed <= {var for var, _, _ in BAD_VALUES}


@pytest.mark.parametrize(("var", "value", "says"), BAD_VALUES, ids=[f"{v}={x}" for v, x, _ in BAD_VALUES])
def test_a_bad_value_is_one_line(var: str, value: str, says: str, clean_env: pytest.MonkeyPatch,
                                 rummyclub: Run) -> None:
    clean_env.setenv(var, value)
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: {var}: {says} {FIX}"])


def test_a_bad_value_in_dotenv_is_one_line_too(tmp_path: Path, rummyclub: Run) -> None:
    (tmp_path / ".env").write_text("TELEGRAM_WEBHOOK_PORT=abc\nLOG_LEVEL=info\n", encoding="utf-8")
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: TELEGRAM_WEBHOOK_PORT: expected a whole number from 1 to "
                                         f"65535, got 'abc' {FIX}"])


def test_two_bad_settings_are_two_lines(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("LOBBY_TTL_S", "0")
    clean_env.setenv("TELEGRAM_MODE", "push")
    got = rummyclub("run")
    assert got.code == 2 and [line.split(":")[1].strip() for line in got.lines] == ["LOBBY_TTL_S", "TELEGRAM_MODE"]


def test_a_pool_smaller_than_its_minimum_is_refused(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("PG_POOL_MIN", "8")
    clean_env.setenv("PG_POOL_MAX", "4")
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: PG_POOL_MAX: expected at least PG_POOL_MIN (8), got '4' {FIX}"])


def test_log_level_is_case_insensitive(clean_env: pytest.MonkeyPatch) -> None:
    clean_env.setenv("LOG_LEVEL", " debug ")
    assert Settings().log_level == "DEBUG"


def test_dotenv_not_utf8(tmp_path: Path, rummyclub: Run) -> None:
    (tmp_path / ".env").write_bytes(b"DEFAULT_LANG=en\nTELEGRAM_TOKEN=caf\xe9\n")
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: {tmp_path / '.env'}: not UTF-8 text (line 2: byte 0xe9) "
                                         "— save the file as UTF-8"])


MALFORMED = [
    ("TELEGRAM_TOKEN", "not-a-token-at-all", "rummyclub: TELEGRAM_TOKEN: not a Telegram bot token (expected digits, "
     "a colon and about 35 letters, digits, '-' or '_') — copy it again from @BotFather"),
    ("TELEGRAM_TOKEN", "123456:two words", None),
    ("TELEGRAM_TOKEN", "123456:", None),
    ("DISCORD_TOKEN", "Bot MTIz.NDU2.Nzg5secret", "rummyclub: DISCORD_TOKEN: remove the 'Bot ' in front of the token "
     "— the token alone goes here"),
    ("DISCORD_TOKEN", "only-one-part-secret", "rummyclub: DISCORD_TOKEN: not a Discord bot token (expected three "
     "parts joined by dots) — copy it again from the developer portal (Bot → Reset Token)"),
]


@pytest.mark.parametrize(("var", "token", "line"), MALFORMED, ids=[t for _, t, _ in MALFORMED])
def test_a_malformed_token_is_refused_before_any_request(var: str, token: str, line: str | None,
                                                         clean_env: pytest.MonkeyPatch,
                                                         rummyclub: Run) -> None:
    clean_env.setenv(var, token)
    # Nothing listens here: a request would end in "cannot reach", not in the format line.
    clean_env.setenv("TELEGRAM_API_URL", "http://127.0.0.1:9/bot")
    clean_env.setenv("DISCORD_API_URL", "http://127.0.0.1:9/api/v10")
    got = rummyclub("run")
    assert got.code == 2 and len(got.lines) == 1 and got.lines[0].startswith(f"rummyclub: {var}: ")
    if line:
        assert got.lines[0] == line
    secret = token.split(":")[-1].removeprefix("Bot ")
    assert not secret or secret not in got.err + got.out


@pytest.mark.parametrize("raw", ["123456:ABC-def_ghi ", "\t123456:ABC-def_ghi\n", " 123456:ABC-def_ghi"])
def test_tokens_are_stripped(raw: str, clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    clean_env.setenv("TELEGRAM_TOKEN", raw)
    clean_env.setenv("DISCORD_TOKEN", raw)
    clean_env.setenv("TELEGRAM_WEBHOOK_SECRET", raw)
    s = Settings()
    assert s.telegram_token and s.telegram_token.get_secret_value() == "123456:ABC-def_ghi"
    assert s.discord_token and s.discord_token.get_secret_value() == "123456:ABC-def_ghi"
    assert s.telegram_webhook_secret and s.telegram_webhook_secret.get_secret_value() == "123456:ABC-def_ghi"


def test_tokens_from_dotenv_are_stripped_and_blank_is_unset(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text('TELEGRAM_TOKEN="123456:ABC-def_ghi  "\nDISCORD_TOKEN=   \n', encoding="utf-8")
    s = Settings()
    assert s.telegram_token and s.telegram_token.get_secret_value() == "123456:ABC-def_ghi"
    assert s.discord_token is None


def test_webhook_mode_without_url(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("TELEGRAM_TOKEN", "123456:ABC-def_ghi")
    clean_env.setenv("TELEGRAM_MODE", "webhook")
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, ["rummyclub: TELEGRAM_WEBHOOK_URL: TELEGRAM_MODE=webhook needs the public "
                                         "HTTPS URL Telegram posts updates to — set it, or TELEGRAM_MODE=polling"])


def test_debug_adds_the_traceback(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("LOG_LEVEL", "DEBUG")
    clean_env.setenv("TELEGRAM_TOKEN", "123456:has a space")
    got = rummyclub("run")
    assert got.code == 2 and "Traceback (most recent call last)" in got.err
    assert got.lines[-1].startswith("rummyclub: TELEGRAM_TOKEN: not a Telegram bot token")
    assert "has a space" not in got.err
