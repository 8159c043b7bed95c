"""The numbered migration files of a schema (NNN_name.sql in one folder), shared by the SQLite and
PostgreSQL stores, each with its own folder and its own way of running them."""

from __future__ import annotations

from pathlib import Path


def numbered_sql(folder: Path) -> list[tuple[int, str, str]]:
    """(number, file name, SQL) of every file NNN_name.sql in `folder`, in order."""
    found = sorted((int(p.name.split("_", 1)[0]), p.name, p.read_text("utf-8")) for p in folder.glob("*.sql"))
    numbers = [n for n, _, _ in found]
    if len(set(numbers)) != len(numbers):
        raise RuntimeError(f"two migrations share a number in {folder}")
    return found
