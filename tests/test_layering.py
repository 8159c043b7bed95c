"""ARCHITECTURE.md, "Layers": dependencies point one way and rules/ does no I/O."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Modules a pure engine may not import: I/O, time, the global RNG, or the upper layers.
RULES_FORBIDDEN = {
    "asyncio", "socket", "sqlite3", "aiosqlite", "time", "datetime", "os", "sys", "subprocess", "pathlib",
    "logging", "telegram", "discord", "requests", "aiohttp", "threading", "secrets", "bot", "storage", "io",
}


def imports_of(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module == "random":
                names.update(f"random.{alias.name}" for alias in node.names)
            else:
                names.add(node.module)
    return names


def files(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", files("rules"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rules_are_pure(path: Path) -> None:
    for name in imports_of(path):
        top = name.split(".")[0]
        assert top not in RULES_FORBIDDEN, f"{path} imports {name}"
        # Only seeded generators: `from random import Random`, never the module-level functions.
        if name == "random" or (name.startswith("random.") and name != "random.Random"):
            raise AssertionError(f"{path} uses the global random ({name})")


@pytest.mark.parametrize("path", files("storage"), ids=lambda p: str(p.relative_to(ROOT)))
def test_storage_knows_no_rules_or_bot(path: Path) -> None:
    assert not {n.split(".")[0] for n in imports_of(path)} & {"rules", "bot"}, path


@pytest.mark.parametrize("path", files("bot/core"), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_knows_no_platform(path: Path) -> None:
    tops = {n.split(".")[0] for n in imports_of(path)}
    assert not tops & {"telegram", "discord"}, path
    assert not any(n.startswith("bot.console") for n in imports_of(path)), path


# The chat, terminal and web adapters (issues 13, 18): each package is listed here as it stops importing rules/
ADAPTERS = ("bot/discord", "bot/console", "bot/telegram", "bot/web")


@pytest.mark.parametrize("path", [p for a in ADAPTERS for p in files(a)], ids=lambda p: str(p.relative_to(ROOT)))
def test_the_adapters_know_no_rules(path: Path) -> None:
    """Issue 13: an adapter renders the presenter's updates; what it needs of the games comes
    through bot.core.presenter.games (and bot.core.ai_seats for the AI levels), never from rules/ itself."""
    assert "rules" not in {n.split(".")[0] for n in imports_of(path)}, path


def imported_pairs(path: Path) -> set[tuple[str, str]]:
    """(module, name) for every `from module import name`, and (module, "") for `import module`."""
    pairs: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            pairs.update((alias.name, "") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            pairs.update((node.module, alias.name) for alias in node.names)
    return pairs


# What turns a press into a move: the presenter's `press`, the grammar's composers and the codec's mask
# reading. Issue 25: only the service runs them (bot/core/presses.py), against the table it reads once.
PRESS_DECODING = {("bot.core.presenter", "press"), ("bot.core.presenter.press", "")} | {
    ("bot.core.grammar", name) for name in ("command", "move_command", "ordered_pick", "melds_filling",
                                            "move_template", "staging_template")} | {("bot.core.codec", "indices_of")}
# The modules that take presses in: they hand them to the service and build no legal moves of their own.
PRESS_HANDLERS = ("bot/telegram/buttons.py", "bot/discord/components.py", "bot/web/app.py")


@pytest.mark.parametrize("path", [p for a in ADAPTERS for p in files(a)], ids=lambda p: str(p.relative_to(ROOT)))
def test_no_adapter_decodes_a_press(path: Path) -> None:
    pairs = imported_pairs(path)
    assert not {(m, n) for m, n in pairs if (m, n) in PRESS_DECODING or m.startswith("bot.core.presenter.press")}, path


@pytest.mark.parametrize("name", PRESS_HANDLERS)
def test_the_press_handlers_build_no_moves(name: str) -> None:
    assert ("bot.core.presenter.games", "moves_of") not in imported_pairs(ROOT / name), name


def test_the_decode_sequence_exists_once() -> None:
    """A seat's view and moves, then `press`, then the command parsed: only bot/core/presses.py runs `press`."""
    users = sorted(str(p.relative_to(ROOT)) for p in files("bot")
                   if ("bot.core.presenter", "press") in imported_pairs(p)
                   or any(m == "bot.core.presenter.press" for m, _ in imported_pairs(p)))
    assert users == ["bot/core/presses.py"], users
