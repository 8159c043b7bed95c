"""Rummy 500 with the market (shared/rules/rummy500.md)."""

from rules.rummy500.engine import ENGINE, Rummy500Engine

__all__ = ["ENGINE", "Rummy500Engine"]
