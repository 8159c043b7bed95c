"""Rummikub, old-version rules (shared/rules/rummikub.md)."""

from rules.rummikub.engine import ENGINE, RummikubEngine

__all__ = ["ENGINE", "RummikubEngine"]
