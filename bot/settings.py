"""Settings from the environment or `.env` (see `.env.example`). Tokens are secrets: never logged."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic.fields import FieldInfo
from pydantic_settings import BaseSettings, NoDecode, PydanticBaseSettingsSource, SettingsConfigDict

from bot.core.i18n import available_languages, resolve_language

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
SECRET_FIELDS = ("telegram_token", "discord_token", "telegram_webhook_secret", "web_secret")
URL_SCHEMES = {"telegram_api_url": ("http", "https"), "telegram_webhook_url": ("http", "https"),
               "discord_api_url": ("http", "https"), "discord_gateway_url": ("ws", "wss"),
               "web_url": ("http", "https")}


# Settings that may come from a file named by `<NAME>_FILE` (Docker and compose secrets, Kubernetes):
# the secrets, and the database URL, which may hold a password.
FILE_FIELDS = (*SECRET_FIELDS, "database_url")


@dataclass(frozen=True)
class Unreadable:
    """A `<NAME>_FILE` that could not be read: refused by the field's validator, in one sentence."""

    var: str
    path: str
    reason: str

    def __repr__(self) -> str:
        return repr(self.path)


class SecretFiles(PydanticBaseSettingsSource):
    """`TELEGRAM_TOKEN_FILE=/run/secrets/telegram_token` and the like: the setting is the file's text
    (surrounding whitespace dropped). The file wins over the variable itself: naming a file is the
    deployment's choice, the variable may be an image's default (the Dockerfile's DATABASE_URL)."""

    def get_field_value(self, field: FieldInfo, field_name: str) -> tuple[Any, str, bool]:
        return None, field_name, False  # everything is read in __call__

    def __call__(self) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for name in FILE_FIELDS:
            var = f"{name.upper()}_FILE"
            path = os.environ.get(var, "").strip()
            if not path:
                continue
            try:
                found[name] = Path(path).read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError) as err:
                reason = err.strerror if isinstance(err, OSError) and err.strerror else type(err).__name__
                found[name] = Unreadable(var, path, reason)
        return found


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    @classmethod
    def settings_customise_sources(cls, settings_cls: type[BaseSettings], init_settings: PydanticBaseSettingsSource,
                                   env_settings: PydanticBaseSettingsSource,
                                   dotenv_settings: PydanticBaseSettingsSource,
                                   file_secret_settings: PydanticBaseSettingsSource,
                                   ) -> tuple[PydanticBaseSettingsSource, ...]:
        return init_settings, SecretFiles(settings_cls), env_settings, dotenv_settings, file_secret_settings

    telegram_token: SecretStr | None = Field(None, description="Telegram bot token from @BotFather")
    discord_token: SecretStr | None = Field(None, description="Discord bot token")
    database_url: str = Field("sqlite:///data/rummyclub.db", description="where tables and results live")
    default_lang: str = Field("en", description="language of the bot's messages")
    # allow_inf_nan=False: "nan" or "inf" parse as floats, and would then pass or break every comparison.
    lobby_ttl_s: float = Field(3600.0, gt=0, allow_inf_nan=False,
                               description="an unstarted lobby expires after this many seconds")
    tick_interval_s: float = Field(1.0, gt=0, allow_inf_nan=False, description="how often turn deadlines are checked")
    claim_lease_s: float = Field(30.0, gt=0, allow_inf_nan=False,
                                 description="a table's clock work is this process's for this many seconds at a "
                                             "time; a process that dies holding it is replaced after this")
    pg_pool_min: int = Field(1, ge=1, le=1000, description="PostgreSQL connections each process keeps open")
    pg_pool_max: int = Field(10, ge=2, le=1000, description="PostgreSQL connections each process may open at once "
                                                           "(plus 2 of its own: plan max_connections for all processes)")
    ai_workers: int = Field(1, ge=0, le=64, description="processes that compute the AI's moves; 0: on the event loop")
    shutdown_grace_s: float = Field(5.0, ge=0, le=60, allow_inf_nan=False,
                                    description="on SIGTERM, SIGINT or SIGHUP: how long the work in flight may finish")
    log_level: str = Field("INFO", description="logging level: " + ", ".join(LOG_LEVELS))
    log_format: Literal["text", "json"] = Field("text", description="log lines as text, or one JSON object each "
                                                                    "(with the table and chat ids)")
    telegram_mode: Literal["polling", "webhook"] = Field("polling", description="how Telegram updates arrive")
    telegram_webhook_url: str | None = Field(None, description="public HTTPS URL Telegram posts updates to")
    telegram_webhook_listen: str = Field("127.0.0.1", description="address the webhook server binds")
    telegram_webhook_port: int = Field(8443, ge=1, le=65535, description="port the webhook server binds")
    telegram_webhook_secret: SecretStr | None = Field(None, description="secret token Telegram sends back")
    telegram_api_url: str | None = Field(None, description="another Bot API server, e.g. a local one")
    telegram_rate_limit: bool = Field(True, description="throttle Bot API calls to Telegram's flood limits")
    telegram_overall_max_per_s: float = Field(30, gt=0, allow_inf_nan=False,
                                              description="messages per second over all chats")
    telegram_group_max_per_min: float = Field(20, gt=0, allow_inf_nan=False,
                                              description="messages per minute to one group")
    discord_sharded: bool = Field(False, description="run Discord as an AutoShardedClient (large deployments)")
    discord_shard_count: int | None = Field(None, ge=1, le=100_000,
                                            description="Discord gateway shards in all, the same in every process")
    discord_shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None, description="the shards this process runs, e.g. 0,1 (of DISCORD_SHARD_COUNT); unset: all of them")
    discord_sync_commands: bool = Field(True, description="register the /rummy commands with Discord at start")
    discord_ack_after_s: float = Field(2.0, ge=0, le=2.5,
                                       description="defer a Discord interaction whose work takes longer than this")
    discord_api_url: str | None = Field(None, description="another Discord REST base, e.g. a proxy (…/api/v10)")
    discord_gateway_url: str | None = Field(None, description="another Discord gateway URL (ws://…)")
    web_url: str | None = Field(None, description="public address of the table in a browser (the Mini App URL)")
    web_listen: str = Field("127.0.0.1", description="address the web table server binds")
    web_port: int | None = Field(None, ge=1, le=65535, description="port of the web table server; unset: no server")
    web_secret: SecretStr | None = Field(None, description="key that signs the per-seat web links")
    web_link_ttl_s: float = Field(24 * 3600.0, gt=0, allow_inf_nan=False,
                                  description="a per-seat web link stops working after this many seconds")
    web_init_max_age_s: float = Field(24 * 3600.0, gt=0, allow_inf_nan=False,
                                      description="Telegram Mini App sign-ins older than this are refused")
    # The web server's limits against hostile clients (bot/web/limits.py); 0 turns a per-address or
    # per-seat cap off (behind a reverse proxy every client has the proxy's address).
    web_header_timeout_s: float = Field(10.0, gt=0, le=3600, allow_inf_nan=False,
                                        description="a connection that sends no complete request head in this time is closed")
    web_body_timeout_s: float = Field(10.0, gt=0, le=3600, allow_inf_nan=False,
                                      description="a request body that has not arrived in this time is refused (408)")
    web_max_connections: int = Field(1000, ge=1, le=99_999,
                                     description="open connections in all (kept below the open-file limit); more get 503")
    web_max_connections_per_address: int = Field(64, ge=0, le=99_999,
                                                 description="open connections from one address; more get 429; 0: no cap")
    web_max_streams: int = Field(1000, ge=1, le=99_999, description="open table event streams in all; more get 503")
    web_max_streams_per_address: int = Field(32, ge=0, le=99_999,
                                             description="open event streams from one address; more get 429; 0: no cap")
    web_max_streams_per_link: int = Field(8, ge=0, le=99_999,
                                          description="open event streams of one link or Mini App seat; more get 429; 0: no cap")
    web_moves_per_s: float = Field(5.0, gt=0, allow_inf_nan=False,
                                   description="move posts per second one seat may send (a burst of web_move_burst)")
    web_move_burst: int = Field(20, ge=1, le=10_000, description="move posts one seat may send at once")
    web_backlog: int = Field(1024, ge=1, le=65_535,
                             description="connections the kernel holds for the web server until it accepts them "
                                         "(capped at net.core.somaxconn); beyond it new connections wait a second")
    telegram_webapp_name: str | None = Field(None, pattern=r"^[A-Za-z0-9_]{3,30}$",
                                             description="the Mini App's short name at @BotFather (t.me/<bot>/<name>)")

    @field_validator("pg_pool_max")
    @classmethod
    def _pool_order(cls, value: int, info: ValidationInfo) -> int:
        least = info.data.get("pg_pool_min", 1)
        if value < least:
            raise ValueError(f"expected at least PG_POOL_MIN ({least})")
        return value

    @field_validator(*FILE_FIELDS, mode="before")
    @classmethod
    def _file_read(cls, value: Any) -> Any:
        if isinstance(value, Unreadable):
            raise ValueError(f"{value.var}: cannot read {value.path} ({value.reason})")
        return value

    @field_validator(*SECRET_FIELDS, mode="before")
    @classmethod
    def _strip_secret(cls, value: Any) -> Any:
        # A token pasted with a trailing space or newline is rejected by the platform (and was then
        # printed in the error); an empty one after stripping means "not set".
        if isinstance(value, str):
            value = value.strip()
            return value or None
        return value

    @field_validator("telegram_webapp_name", "web_port", "discord_shard_count", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: Any) -> Any:
        if isinstance(value, str):
            return value.strip() or None  # `WEB_PORT=` as .env.example has it
        return value

    @field_validator("log_level", mode="before")
    @classmethod
    def _known_level(cls, value: Any) -> Any:
        if isinstance(value, str):
            level = value.strip().upper()
            if level not in LOG_LEVELS:
                raise ValueError(f"expected one of {', '.join(LOG_LEVELS)}")
            return level
        return value

    @field_validator("default_lang", mode="before")
    @classmethod
    def _spoken(cls, value: Any) -> Any:
        # A locale tag as platforms and systems write it (pt-BR, ru_RU.UTF-8) names its catalog (pt_BR, ru).
        if isinstance(value, str):
            lang = resolve_language(value)
            if lang is None:
                raise ValueError(f"expected a language the bot speaks: {', '.join(available_languages())}")
            return lang
        return value

    @field_validator("discord_shard_ids", mode="before")
    @classmethod
    def _shard_list(cls, value: Any) -> Any:
        if isinstance(value, str):
            text = value.strip()
            if not text:
                return None
            try:
                return tuple(int(part) for part in text.split(","))
            except ValueError:
                raise ValueError("expected shard numbers separated by commas, e.g. 0,1") from None
        return value

    @field_validator("discord_shard_ids")
    @classmethod
    def _shards_of_the_count(cls, value: tuple[int, ...] | None, info: ValidationInfo) -> tuple[int, ...] | None:
        if value is None:
            return None
        count = info.data.get("discord_shard_count")
        if count is None:
            raise ValueError("set DISCORD_SHARD_COUNT too (the shards of all processes together)")
        if len(set(value)) != len(value) or any(not 0 <= i < count for i in value):
            raise ValueError(f"expected different shard numbers from 0 to {count - 1} (DISCORD_SHARD_COUNT={count})")
        return value

    @field_validator(*URL_SCHEMES, mode="before")
    @classmethod
    def _url(cls, value: Any, info: ValidationInfo) -> Any:
        # Checked here, or a typo ("localhost:8081/bot") fails later inside the HTTP client.
        if not isinstance(value, str):
            return value
        value = value.strip()
        if not value:
            return None
        schemes = URL_SCHEMES[str(info.field_name)]
        try:
            parts = urlsplit(value)
            ok = parts.scheme in schemes and bool(parts.hostname)
            parts.port  # noqa: B018 - raises ValueError for a port that is not a number
        except ValueError:
            ok = False
        if not ok:
            raise ValueError(f"expected a {' or '.join(f'{s}://' for s in schemes)} URL with a host")
        return value
