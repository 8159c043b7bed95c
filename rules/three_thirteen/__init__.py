"""Three-Thirteen (shared/rules/three_thirteen.md)."""

from rules.three_thirteen.engine import ENGINE, ThreeThirteenEngine

__all__ = ["ENGINE", "ThreeThirteenEngine"]
