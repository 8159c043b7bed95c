"""Rummy 101 (shared/rules/rummy101.md)."""

from rules.rummy101.engine import ENGINE, Rummy101Engine

__all__ = ["ENGINE", "Rummy101Engine"]
