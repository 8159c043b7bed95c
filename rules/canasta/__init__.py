"""Tile Canasta for two teams (shared/rules/canasta.md)."""

from rules.canasta.engine import ENGINE, CanastaEngine

__all__ = ["ENGINE", "CanastaEngine"]
