"""Why `rummyclub` could not start, in one line per cause that names the setting or file and what
to do. Every known startup failure becomes a `StartupError`; `bot.cli.main` prints its lines
(`rummyclub: <line>`) and exits with its code, the traceback only with LOG_LEVEL=DEBUG.

Exit codes: 2 (`CONFIG`) when a setting, the .env file or the database file needs fixing, before
any platform was contacted; 1 (`PLATFORM`) when Telegram or Discord refused the token or could
not be reached.
"""

from __future__ import annotations

import re
import sys
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError

from bot.settings import SECRET_FIELDS, Settings
from storage import DatabaseUnusable, PostgresUnusable, StoreURLError

CONFIG = 2
PLATFORM = 1
FIX = "fix it in .env or the environment"
# What @BotFather hands out: the bot's numeric id, a colon, then ~35 URL-safe characters.
TELEGRAM_TOKEN_RE = re.compile(r"\d+:[A-Za-z0-9_-]+")
# A Discord bot token: three base64url parts joined by dots.
DISCORD_TOKEN_RE = re.compile(r"[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+")


class StartupError(Exception):
    """A startup failure already put into words; `lines` never hold a secret."""

    def __init__(self, lines: str | list[str], exit_code: int = CONFIG) -> None:
        self.lines = [lines] if isinstance(lines, str) else list(lines)
        super().__init__("; ".join(self.lines))
        self.exit_code = exit_code


@dataclass(frozen=True)
class Context:
    """What a line may name: where the database URL came from and which API URLs are set."""

    db_setting: str = "DATABASE_URL"
    telegram_api_url: str | None = None
    discord_api_url: str | None = None


def load_settings(env_file: Path = Path(".env")) -> Settings:
    """Settings, or a StartupError with one line per bad setting (by its variable name)."""
    try:
        return Settings()
    except ValidationError as err:
        raise StartupError([_setting_line(e) for e in err.errors()]) from err
    except UnicodeDecodeError as err:
        line = err.object[:err.start].count(b"\n") + 1
        raise StartupError(f"{env_file.resolve()}: not UTF-8 text (line {line}: byte 0x{err.object[err.start]:02x}) "
                           "— save the file as UTF-8") from err


def _expected(name: str) -> str | None:
    """What a setting takes, read off its declaration (type and bounds)."""
    field = Settings.model_fields[name]
    kind = field.annotation
    if isinstance(kind, types.UnionType) or typing.get_origin(kind) is typing.Union:  # X | None
        kind = next(a for a in typing.get_args(kind) if a is not type(None))
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(str(v) for v in typing.get_args(kind))
    if kind is bool:
        return "true or false"
    if kind not in (int, float):
        return None
    bounds: dict[str, Any] = {}
    for meta in field.metadata:
        for key in ("ge", "gt", "le", "lt"):
            if getattr(meta, key, None) is not None:
                bounds[key] = getattr(meta, key)
    noun = "a whole number" if kind is int else "a number"
    low = bounds.get("ge", bounds.get("gt"))
    high = bounds.get("le", bounds.get("lt"))
    if "ge" in bounds and high is not None:
        return f"{noun} from {low:g} to {high:g}"
    if "gt" in bounds and high is not None:
        return f"{noun} above {low:g}, at most {high:g}"
    if low is not None:
        return f"{noun} {'from' if 'ge' in bounds else 'above'} {low:g}"
    return noun


def _setting_line(error: Any) -> str:
    name = str(error["loc"][0]) if error.get("loc") else "?"
    var = name.upper()
    if name not in Settings.model_fields:
        return f"{var}: {error['msg']} — {FIX}"
    expected = _expected(name)
    if expected is None or error["type"] == "value_error":
        expected = str(error["msg"]).removeprefix("Value error, ")
    else:
        expected = f"expected {expected}"
    got = "" if name in SECRET_FIELDS else f", got {error.get('input')!r}"
    return f"{var}: {expected}{got} — {FIX}"


def check_tokens(settings: Settings) -> None:
    """A token that cannot be one, refused before it is sent anywhere (never quoted back)."""
    if settings.telegram_token is not None and not TELEGRAM_TOKEN_RE.fullmatch(
            settings.telegram_token.get_secret_value()):
        raise StartupError("TELEGRAM_TOKEN: not a Telegram bot token (expected digits, a colon and about 35 "
                           "letters, digits, '-' or '_') — copy it again from @BotFather")
    if settings.discord_token is not None:
        token = settings.discord_token.get_secret_value()
        if token.lower().startswith("bot "):
            raise StartupError("DISCORD_TOKEN: remove the 'Bot ' in front of the token — the token alone goes here")
        if not DISCORD_TOKEN_RE.fullmatch(token):
            raise StartupError("DISCORD_TOKEN: not a Discord bot token (expected three parts joined by dots) — "
                               "copy it again from the developer portal (Bot → Reset Token)")


def _host(url: str | None, default: str) -> str:
    if not url:
        return default
    try:
        parts = urlsplit(url)
        return parts.hostname + (f":{parts.port}" if parts.port else "") if parts.hostname else url
    except ValueError:
        return url


def _postgres(err: PostgresUnusable, setting: str) -> str:
    # err.path is the URL without its password; asyncpg's messages name the user, never the password.
    where, detail, db = err.where, err.detail, err.database
    lines = {
        "unreachable": f"cannot reach PostgreSQL at {where} ({detail}) — check that the server runs and the host "
                       f"and port in {setting}",
        "auth": f"PostgreSQL at {where} refused user {err.user!r} ({detail}) — check the user and password in "
                f"{setting}",
        "no_database": f"PostgreSQL at {where} has no database {db!r} — create it (createdb {db}) or fix the name "
                       f"in {setting}",
        "foreign": f"the database {db!r} at {where} holds another program's tables ({detail}); it was left untouched "
                   f"— point {setting} at another database (or schema)",
        "newer": f"the database {db!r} at {where} was written by a newer Rummy Club ({detail}); it was left "
                 f"untouched — upgrade rummyclub, or point {setting} at another database",
    }
    return f"{setting}: {lines.get(err.reason, f'{err.path}: {err.reason} {detail}')}"


def _database(err: DatabaseUnusable, setting: str) -> str:
    if isinstance(err, PostgresUnusable):
        return _postgres(err, setting)
    path, detail = err.path, err.detail
    lines = {
        "directory": f"{path} is a folder, not a database file — name a file, e.g. {Path(path) / 'rummyclub.db'}",
        "missing": f"there is no database at {path} — check {setting}",
        "read_only": (f"the folder {Path(path).parent} is read-only — make it writable for this user (SQLite keeps "
                      "-wal and -shm files next to the database)") if detail == "folder" else
                     f"the file {path} is read-only — make it writable for this user",
        "not_sqlite": f"{path} is not an SQLite database, or it is damaged; it was left untouched — point {setting} "
                      "at another file, or restore a backup",
        "foreign": f"{path} holds another program's tables ({detail}); it was left untouched — point {setting} "
                   "at another file",
        "newer": f"{path} was written by a newer Rummy Club ({detail}); it was left untouched — upgrade "
                 f"rummyclub, or point {setting} at another file",
        "cannot_open": f"cannot open {path} ({detail}) — check {setting} and that its folder exists",
        "no_folder": f"cannot create the folder {Path(path).parent} ({detail}) — create it, or point {setting} "
                     "at another place",
    }
    return f"{setting}: {lines.get(err.reason, f'{path}: {err.reason} {detail}')}"


def explain(err: BaseException, ctx: Context) -> StartupError | None:
    """The StartupError for a known failure, None for anything else (a bug: it keeps its traceback)."""
    if isinstance(err, StartupError):
        return err
    if isinstance(err, StoreURLError):
        return StartupError(f"{ctx.db_setting}: {err}")
    if isinstance(err, DatabaseUnusable):
        return StartupError(_database(err, ctx.db_setting))
    tg = sys.modules.get("telegram.error")  # loaded only when Telegram runs
    if tg is not None:
        if isinstance(err, tg.InvalidToken):
            return StartupError("TELEGRAM_TOKEN: Telegram rejected the token — copy it again from @BotFather "
                                "(/mybots → API Token)", PLATFORM)
        if isinstance(err, tg.TelegramError) and "webhook" in err.message.lower():
            return StartupError(f"TELEGRAM_WEBHOOK_URL: Telegram refused the webhook ({err.message}) — set it to a "
                                "public https:// URL (ports 443, 80, 88 or 8443)", PLATFORM)
        if isinstance(err, tg.NetworkError) and not isinstance(err, tg.BadRequest):  # TimedOut included
            where = _host(ctx.telegram_api_url, "api.telegram.org")
            return StartupError(f"TELEGRAM_API_URL: cannot reach the Telegram Bot API at {where} ({err.message}) — "
                                "check the network and TELEGRAM_API_URL", PLATFORM)
        if isinstance(err, tg.TelegramError):  # BadRequest, Forbidden, Conflict … from a start-up call
            return StartupError(f"TELEGRAM_TOKEN: Telegram refused a start-up call ({err.message}) — check the bot "
                                "with @BotFather, and TELEGRAM_API_URL if set", PLATFORM)
    dc = sys.modules.get("discord")
    if dc is not None:
        if isinstance(err, dc.LoginFailure):
            return StartupError("DISCORD_TOKEN: Discord rejected the token — copy it again from the developer "
                                "portal (Bot → Reset Token)", PLATFORM)
        if isinstance(err, dc.PrivilegedIntentsRequired):
            return StartupError("DISCORD_TOKEN: this bot asks for privileged intents its application does not "
                                "have — enable them in the developer portal (Bot → Privileged Gateway Intents)",
                                PLATFORM)
        http = sys.modules.get("aiohttp")  # discord.py's HTTP client; PTB's is httpx
        if isinstance(err, dc.GatewayNotFound) or (http is not None and isinstance(err, http.ClientConnectionError)):
            where = _host(ctx.discord_api_url, "discord.com")
            return StartupError(f"DISCORD_API_URL: cannot reach Discord at {where} ({type(err).__name__}) — check "
                                "the network and DISCORD_API_URL", PLATFORM)
    return None
