"""Logging for `rummyclub`: one stderr handler on the root logger whose filter blanks every
configured secret, so no library's log line (today's or a future one's) can leak a token."""

from __future__ import annotations

import json
import logging
import re
import sys
from collections.abc import Iterable
from urllib.parse import quote, urlsplit

from bot.core import log_context
from bot.settings import Settings

MASK = "***"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
# Shorter strings are not blanked: "***" in place of every "1" or "ab" would garble the logs,
# and a secret that short guards nothing anyway.
MIN_SECRET_LEN = 6
# Credentials the settings do not hold: a web page's seat link (`k=` in an address, the X-Rummy-Link
# header) and a Mini App's initData (`tma=`, X-Telegram-Init-Data) — aiohttp quotes the first bytes of
# a malformed request line or header in its error. A cut-off token is blanked as well as a whole one.
CREDENTIALS = re.compile(r"(?i)(\b(?:k|tma)=|x-rummy-link:\s*|x-telegram-init-data:\s*)[^\s&'\"\\]+")
SEAT_TOKEN = re.compile(r"\b[0-9A-Za-z_-]{1,40}\.(?:\d+|-)\.\d+\.[0-9a-f]{8,32}")  # bot/web/auth.py SeatLinks


def secrets_of(settings: Settings) -> list[str]:
    """Every secret the settings hold, in each spelling a log line may carry it."""
    found: list[str] = []
    for field in (settings.telegram_token, settings.discord_token, settings.telegram_webhook_secret,
                  settings.web_secret):
        if field is not None:
            found.append(field.get_secret_value())
    if settings.telegram_token is not None:
        # The part after the colon is the secret half of a Telegram token; the bot id before it
        # is public (it is in every update), so it alone is not blanked.
        found.append(settings.telegram_token.get_secret_value().partition(":")[2])
    found.append(database_password(settings.database_url) or "")
    spelled = set(found) | {quote(s, safe="") for s in found}  # also as it appears inside a URL
    return sorted(s for s in spelled if s)


def database_password(url: str) -> str | None:
    """The password of a `scheme://user:password@host/db` URL, if it has one."""
    if "://" not in url:
        return None
    try:
        return urlsplit(url).password
    except ValueError:  # a malformed port or netloc: the settings check reports it
        return None


class Redactor:
    """Replaces secrets in text; longest first, so a token wins over its own secret half. Web links'
    tokens and Mini App initData are blanked wherever they appear, whatever key signed them."""

    def __init__(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted({s for s in secrets if len(s) >= MIN_SECRET_LEN}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, MASK)
        text = CREDENTIALS.sub(lambda m: m.group(1) + MASK, text)
        return SEAT_TOKEN.sub(MASK, text)


class RedactingFilter(logging.Filter):
    """A handler filter: it sees every record the handler writes, those propagated from library
    loggers included (a logger's own filter would not). The message is formatted here, args and
    all, and the traceback rendered, so a secret inside an argument or an exception is caught."""

    def __init__(self, redact: Redactor) -> None:
        super().__init__()
        self.redact = redact

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = self.redact(record.exc_text)
        if record.stack_info:
            record.stack_info = self.redact(record.stack_info)
        return True


class JsonFormatter(logging.Formatter):
    """LOG_FORMAT=json: one JSON object per line — time, level, logger, message, and the table and
    chat the work was about (bot/core/log_context.py), the traceback when there is one. The record
    reaches it already redacted (the handler's filter runs first). A dict and json.dumps: too little
    for a library of its own."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": self.formatTime(record, "%Y-%m-%dT%H:%M:%S") + f".{int(record.msecs):03d}",
            "level": record.levelname, "logger": record.name, "message": record.getMessage(),
        }
        if (table := log_context.TABLE.get()) is not None:
            line["table"] = table
        if (chat := log_context.CHAT.get()) is not None:
            line["chat"] = chat
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False)


def setup_logging(level: str, redact: Redactor, fmt: str = "text") -> None:
    """The root handler on stderr, redacted, as text or JSON lines (`fmt`, LOG_FORMAT). Replaces any
    handler set up before (tests call main more than once in one process)."""
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(FORMAT))
    handler.addFilter(RedactingFilter(redact))
    root.addHandler(handler)
    root.setLevel(level)
    # httpx logs one INFO line per Bot API request, URL (and so the token) included: a line every
    # few seconds from long polling alone. PTB's examples quiet it to WARNING, and so do we at every
    # level: at DEBUG, PTB logs each Bot API call with its parameters itself, so httpx's lines (and
    # httpcore's per-connection chatter) add nothing. The filter above blanks the token either way.
    for name in ("httpx", "httpcore"):
        logging.getLogger(name).setLevel(logging.WARNING)
    # Warnings (PTB's PTBUserWarning, deprecations) go through the same handler, redacted.
    logging.captureWarnings(True)
