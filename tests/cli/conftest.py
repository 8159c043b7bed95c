"""`rummyclub` run in this process (bot.cli.main) or as a real subprocess, with nothing of the
machine's own settings leaking in: every setting unset, the working directory an empty tmp_path."""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.cli import main
from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Outcome:
    code: int
    out: str
    err: str

    @property
    def lines(self) -> list[str]:
        return self.err.splitlines()


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[pytest.MonkeyPatch]:
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
        monkeypatch.delenv(f"{name.upper()}_FILE", raising=False)
    monkeypatch.chdir(tmp_path)
    # main() installs its own root handler; put back pytest's afterwards.
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield monkeypatch
    for h in root.handlers[:]:
        root.removeHandler(h)
    for h in handlers:
        root.addHandler(h)
    root.setLevel(level)
    logging.captureWarnings(False)


Run = Callable[..., Outcome]


@pytest.fixture
def rummyclub(capsys: pytest.CaptureFixture[str]) -> Run:
    """Call main() with these arguments; what it returned and wrote."""
    def call(*argv: str) -> Outcome:
        code = main(list(argv))
        got = capsys.readouterr()
        return Outcome(code, got.out, got.err)
    return call


def subprocess_env(tmp_path: Path, **env: str) -> dict[str, str]:
    """The environment for `python -m bot.cli` in a subprocess: no inherited setting at all."""
    full = {k: v for k, v in os.environ.items() if k.lower() not in Settings.model_fields}
    return {**full, "PYTHONPATH": str(ROOT), "DATABASE_URL": str(tmp_path / "run.db"), **env}


PYTHON = sys.executable
