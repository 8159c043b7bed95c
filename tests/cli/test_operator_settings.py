"""The operator's kit (issue 27, item 8): secrets and the database URL from files (`<NAME>_FILE`, as
Docker and compose secrets give them), and LOG_FORMAT=json lines naming the table and the chat, still
without any secret."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bot.core.log_context import CHAT, about_chat
from bot.core.table_gate import TableGate
from bot.logs import Redactor, secrets_of, setup_logging
from bot.settings import Settings
from tests.cli.conftest import Run

TOKEN = "918273:Tg-Secret_HALF-9f8e7d6c5b4a3210zyxwvut"


def test_a_secret_and_the_database_url_are_read_from_their_files(clean_env: pytest.MonkeyPatch,
                                                                 tmp_path: Path) -> None:
    (tmp_path / "token").write_text(f"  {TOKEN}\n")
    (tmp_path / "db").write_text("postgresql://rummy:Pg-Secret@db/rummy\n")
    clean_env.setenv("TELEGRAM_TOKEN_FILE", str(tmp_path / "token"))
    clean_env.setenv("DATABASE_URL_FILE", str(tmp_path / "db"))
    settings = Settings()
    assert settings.telegram_token is not None and settings.telegram_token.get_secret_value() == TOKEN
    assert settings.database_url == "postgresql://rummy:Pg-Secret@db/rummy"
    assert TOKEN in secrets_of(settings) and "Pg-Secret" in secrets_of(settings)  # blanked in logs as ever


def test_a_file_wins_over_the_variable_itself(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # The image sets DATABASE_URL (its SQLite file in /data); compose names DATABASE_URL_FILE.
    (tmp_path / "db").write_text("postgresql://rummy:Pg-Secret@db/rummy")
    clean_env.setenv("DATABASE_URL", "sqlite:////data/rummyclub.db")
    clean_env.setenv("DATABASE_URL_FILE", str(tmp_path / "db"))
    assert Settings().database_url == "postgresql://rummy:Pg-Secret@db/rummy"


def test_an_unreadable_secret_file_is_one_line(clean_env: pytest.MonkeyPatch, tmp_path: Path, rummyclub: Run) -> None:
    missing = tmp_path / "no-such-file"
    clean_env.setenv("DISCORD_TOKEN_FILE", str(missing))
    got = rummyclub("run")
    assert (got.code, got.lines) == (2, [f"rummyclub: DISCORD_TOKEN: DISCORD_TOKEN_FILE: cannot read {missing} "
                                         "(No such file or directory) — fix it in .env or the environment"])


async def test_json_lines_name_the_table_and_the_chat_and_keep_secrets_out(
        clean_env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("INFO", Redactor([TOKEN]), "json")
    log = logging.getLogger("rummy.test")
    token = about_chat("telegram", -100500)
    try:
        async with TableGate("tb0001"):
            log.info("moved with %s", TOKEN)
            try:
                raise RuntimeError(f"refused {TOKEN}")
            except RuntimeError:
                log.exception("it failed")
        log.warning("after the table")
    finally:
        CHAT.reset(token)
    log.info("about nothing")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [(x["message"], x.get("table"), x.get("chat")) for x in lines] == [
        ("moved with ***", "tb0001", "telegram:-100500"),
        ("it failed", "tb0001", "telegram:-100500"),
        ("after the table", None, "telegram:-100500"),
        ("about nothing", None, None),
    ]
    assert lines[0]["level"] == "INFO" and lines[0]["logger"] == "rummy.test" and "T" in lines[0]["time"]
    assert "RuntimeError: refused ***" in lines[1]["exception"]
    assert TOKEN not in json.dumps(lines)


def test_log_format_is_checked(clean_env: pytest.MonkeyPatch, rummyclub: Run) -> None:
    clean_env.setenv("LOG_FORMAT", "xml")
    got = rummyclub("run")
    assert got.code == 2 and got.lines == ["rummyclub: LOG_FORMAT: expected one of text, json, got 'xml' "
                                           "— fix it in .env or the environment"]


def test_the_example_env_file_loads_as_it_is(clean_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Copied to .env unchanged, .env.example is valid: its blank settings mean "not set"."""
    (tmp_path / ".env").write_text((Path(__file__).resolve().parents[2] / ".env.example").read_text())
    settings = Settings()
    assert (settings.web_port, settings.discord_shard_count, settings.discord_shard_ids) == (None, None, None)
    assert (settings.pg_pool_min, settings.pg_pool_max, settings.log_format) == (1, 10, "text")
