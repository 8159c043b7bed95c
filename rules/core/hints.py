"""What a game's hint is (issue 16): a suggested action and why, from one seat's view only.

Each game's `rules/<game>/hints.py` has `hint(view, options) -> Hint` and, where the game has compound
moves, `suggestions(view) -> list[Hint]` (issue 25): pure, like the AI, so they can never see what
that seat may not. The action goes to the player as the game's own command
(`engine.format`, which `engine.parse` reads back); the reason is a code with numbers that the
catalogs word per language (`hint.<game>.<reason>`), never a sentence built here.
"""

from __future__ import annotations

from rules.core.engine import Hint

__all__ = ["Hint"]
