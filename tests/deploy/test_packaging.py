"""What an installed rummyclub needs besides its modules (the image installs the package, not the
source tree): every data file under the packages is named by pyproject.toml's package-data, and the
runtime dependencies declare what the bot imports at run time."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())


def test_every_data_file_is_package_data() -> None:
    globs = PROJECT["tool"]["setuptools"]["package-data"]
    missing = []
    for top in ("bot", "rules", "storage"):
        for path in (ROOT / top).rglob("*"):
            if not path.is_file() or path.suffix in (".py", ".pyc") or "__pycache__" in path.parts:
                continue
            rel = path.relative_to(ROOT)
            owners = [pkg for pkg in globs if rel.as_posix().startswith(pkg.replace(".", "/") + "/")]
            if not any(fnmatch.fnmatch(rel.relative_to(Path(*pkg.split("."))).as_posix(), g)
                       for pkg in owners for g in globs[pkg]):
                missing.append(rel.as_posix())
    assert not missing, f"not installed with the package: {missing}"


def test_run_time_imports_are_runtime_dependencies() -> None:
    runtime = " ".join(PROJECT["project"]["dependencies"])
    for name in ("aiohttp", "prometheus-client", "pydantic-settings", "python-telegram-bot", "discord.py"):
        assert name in runtime
    lock = (ROOT / "requirements.lock").read_text()
    for pinned in ("aiohttp==", "prometheus-client==", "python-telegram-bot==", "discord-py=="):
        assert pinned in lock
    assert "pytest" not in lock and "mypy" not in lock  # the lock is the runtime's alone
    assert "tornado" not in lock  # the webhook is served by aiohttp, not PTB's tornado server
