"""The engine's suggested moves for the hand pane (the AI's own play, one key away), searched off the
redraw: the screen after a move is drawn at once without them, the search runs in a thread, and the
hand is drawn again when they are known. The search is the engine's (a solver within a turn's
budget, up to a few hundred milliseconds on a crowded Rummikub table); the redraw never waits for it.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.core.presenter import HandPanel, Suggestion
from bot.core.presenter.controls import suggestions_of

Key = tuple[str, int, int, str]


def _key(hand: HandPanel) -> Key:
    return hand.table.id, hand.table.version, hand.seat, hand.lang


def _offers(hand: HandPanel) -> bool:
    """The screen where the chats show suggestions: your turn, picking items (not a table-item move)."""
    c = hand.controls
    return c.playing and c.my_turn and not c.choosing and c.moving is None and hand.view is not None


class Suggestions:
    """The suggestions of the last hand searched (one table version at a time)."""

    def __init__(self) -> None:
        self._key: Key | None = None
        self._found: tuple[Suggestion, ...] = ()

    def added(self, hand: HandPanel | None) -> HandPanel | None:
        """`hand` with its suggestions when they are known for its table version."""
        if hand is None or not _offers(hand) or self._key != _key(hand) or not self._found:
            return hand
        return replace(hand, controls=replace(hand.controls, suggestions=self._found))

    def wanted(self, hand: HandPanel | None) -> bool:
        """The hand would show suggestions that are not searched yet."""
        return hand is not None and _offers(hand) and self._key != _key(hand)

    async def search(self, hand: HandPanel) -> bool:
        """The engine's suggestions for `hand`, searched in a thread; True when they are new."""
        if not self.wanted(hand) or hand.view is None:
            return False
        found = await asyncio.to_thread(suggestions_of, hand.table.game, hand.view, hand.lang)
        self._key, self._found = _key(hand), found
        return bool(found)
