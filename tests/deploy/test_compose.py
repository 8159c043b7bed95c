"""compose.yaml (issue 27, item 8): the bot processes and PostgreSQL, Telegram in webhook mode, two
Discord shard processes; secrets only as files (*_FILE), each one a declared compose secret; each
service's environment is settings the bot accepts (read here as the bot reads them)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.settings import FILE_FIELDS, Settings

ROOT = Path(__file__).resolve().parents[2]
COMPOSE: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
BOTS = ("telegram", "discord-0", "discord-1")
SECRET_VARS = {name.upper() for name in FILE_FIELDS}


def test_the_services() -> None:
    assert set(COMPOSE["services"]) == {"db", *BOTS}
    assert COMPOSE["services"]["db"]["image"].startswith("postgres:")
    assert COMPOSE["services"]["telegram"]["environment"]["TELEGRAM_MODE"] == "webhook"
    shards = sorted(COMPOSE["services"][s]["environment"]["DISCORD_SHARD_IDS"] for s in ("discord-0", "discord-1"))
    assert shards == ["0", "1"]


@pytest.mark.parametrize("service", BOTS)
def test_secrets_are_files_and_declared(service: str) -> None:
    spec = COMPOSE["services"][service]
    env = spec["environment"]
    assert not SECRET_VARS & set(env), "a secret in the environment itself"
    for var, path in env.items():
        if var.endswith("_FILE"):
            name = path.removeprefix("/run/secrets/")
            assert name in spec["secrets"] and name in COMPOSE["secrets"], var
    assert "/readyz" in " ".join(spec["healthcheck"]["test"])
    assert spec["depends_on"]["db"]["condition"] == "service_healthy" and "data:/data" in spec["volumes"]


@pytest.mark.parametrize("service", BOTS)
def test_each_services_settings_are_accepted(service: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    values = {"database_url": "postgresql://rummy:pw@db:5432/rummy", "telegram_token": "123456:" + "a" * 35,
              "discord_token": "a.b.c", "telegram_webhook_secret": "hook-secret", "web_secret": "web-secret"}
    for var, value in COMPOSE["services"][service]["environment"].items():
        if var.endswith("_FILE"):
            field = var.removesuffix("_FILE").lower()
            (tmp_path / field).write_text(values[field])
            value = str(tmp_path / field)
        monkeypatch.setenv(var, str(value))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.database_url.startswith("postgresql://") and settings.log_format == "json"
    assert settings.web_port == 8080 and settings.pg_pool_max == 8
