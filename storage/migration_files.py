"""The numbered migration files of a schema (NNN_name.sql in one folder), shared by the SQLite and
PostgreSQL stores, each with its own folder and its own way of running them."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path


def numbered_sql(folder: Path) -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql in `folder`, in order."""
    found = sorted((int(p.name.split("_", 1)[0]), p.name, p.read_text("utf-8")) for p in folder.glob("*.sql"))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number in {folder}")
    return found


def applied_mismatch(applied: Iterable[tuple[int, str]], ours: list[tuple[int, str, str]]) -> tuple[str, str] | None:
    """Why a database's applied migrations (version, name) are not ours to continue: ("newer", …)
    for a number we do not know (a newer release migrated it), ("foreign", …) for one of our numbers
    under another name; None when every one is ours."""
    names = {number: name for number, name, _ in ours}
    for version, name in applied:
        if version not in names:
            return "newer", f"migration {name}"
        if names[version] != name:
            return "foreign", f"migration {version} is {name!r}, not {names[version]!r}"
    return None
