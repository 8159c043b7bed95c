"""The Discord adapter is composed, not inherited: no class of bot/discord has a base class from
another module of bot/discord, none declares what a host class provides (`if TYPE_CHECKING:` in its
body), and no module of bot/discord imports bot/discord/bot.py but the package's own `__init__`.
Read from the source (the AST), through tests/test_import_cycles.py's readers."""

from __future__ import annotations

from pathlib import Path

from tests.test_import_cycles import ROOT, imported_names, modules, parts_by_inheritance

PACKAGE = "bot.discord"


def _discord(known: dict[str, Path]) -> list[str]:
    return [name for name in known if name == PACKAGE or name.startswith(PACKAGE + ".")]


def test_no_discord_class_is_split_across_files() -> None:
    split = parts_by_inheritance(modules(ROOT, "bot"), PACKAGE)
    assert not split, split


def test_no_part_imports_the_adapter() -> None:
    known = modules(ROOT, "bot")
    importers = {name for name in _discord(known) if name not in (PACKAGE, f"{PACKAGE}.bot", f"{PACKAGE}.app")
                 and f"{PACKAGE}.bot" in imported_names(name, known[name], known).values()}
    assert not importers, importers
