"""How updates are run: one chat's updates in the order Telegram sent them, different chats at once.

PTB's own `SimpleUpdateProcessor` runs every update concurrently, so two presses in one group could
race each other (and a button press overtake the `/new` that made its lobby); processing one update
at a time (PTB's default) makes a DM wait behind a busy or rate-limited group. PTB has no processor
keyed by chat, so this one is: a FIFO lock per chat, then a bound on how many updates run.

The bound is taken *after* the chat's lock, not by PTB's semaphore: `BaseUpdateProcessor.process_update`
(final) takes that semaphore before `do_process_update`, so updates waiting for their chat's lock
hold a slot, and a group flooding the bot with a slot per update would starve every other chat.
PTB's semaphore is therefore set to `max_held` (a memory bound on updates in flight, waiting or
running) and `max_running` limits the ones running.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

from telegram import Update
from telegram.ext import BaseUpdateProcessor

from bot.core import metrics
from bot.core.log_context import CHAT, about_chat


def chat_key(update: object) -> int | None:
    """What serialises an update: its chat (a button's message chat), else its sender; None for
    anything without either (run without ordering)."""
    if not isinstance(update, Update):
        return None
    if update.effective_chat is not None:
        return update.effective_chat.id
    if update.effective_user is not None:
        return update.effective_user.id
    return None


class PerChatUpdateProcessor(BaseUpdateProcessor):
    """Same chat in order, different chats concurrently."""

    def __init__(self, max_running: int = 64, max_held: int = 4096) -> None:
        super().__init__(max_held)
        self.max_running = max_running
        self._running = asyncio.BoundedSemaphore(max_running)
        # chat -> [lock, updates holding or waiting for it]: dropped when the count reaches 0, so the
        # table stays as small as the set of chats with updates in flight.
        self._chats: dict[int, list[Any]] = {}

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        metrics.UPDATES.labels("telegram").inc()
        key = chat_key(update)
        if key is None:
            async with self._running:
                await coroutine
            return
        about = about_chat("telegram", key)  # the update's log lines name its chat
        entry = self._chats.setdefault(key, [asyncio.Lock(), 0])
        entry[1] += 1
        try:
            # asyncio.Lock wakes waiters first come first served, and PTB starts each update's task
            # in arrival order, so a chat's updates run in the order they came.
            async with entry[0], self._running:
                await coroutine
        finally:
            CHAT.reset(about)
            entry[1] -= 1
            if entry[1] == 0:
                del self._chats[key]

    def waiting(self, key: int) -> int:
        """Updates of this chat in flight (the one running included); for tests."""
        entry = self._chats.get(key)
        return 0 if entry is None else entry[1]

    async def initialize(self) -> None:
        pass

    async def shutdown(self) -> None:
        pass


__all__ = ["PerChatUpdateProcessor", "chat_key"]
