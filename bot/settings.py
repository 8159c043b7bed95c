"""Settings from the environment or `.env` (see `.env.example`). Tokens are secrets: never logged."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    telegram_token: SecretStr | None = Field(None, description="Telegram bot token from @BotFather")
    discord_token: SecretStr | None = Field(None, description="Discord bot token")
    database_url: str = Field("sqlite:///data/rummyclub.db", description="where tables and results live")
    default_lang: str = Field("en", description="language of the bot's messages")
    lobby_ttl_s: float = Field(3600.0, gt=0, description="an unstarted lobby expires after this many seconds")
    tick_interval_s: float = Field(1.0, gt=0, description="how often turn deadlines are checked")
    log_level: str = Field("INFO", description="logging level")

    @property
    def has_chat_token(self) -> bool:
        return bool(self.telegram_token or self.discord_token)
