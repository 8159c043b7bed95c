"""Which picture each hand message shows, so an edit that keeps it uploads nothing.

A pick, a sort or Refresh edits the hand's embed and buttons, while the picture (drawn per table
version, viewer, language and rack order) is the same bytes as before: re-uploading it costs 38-105
kB a press. An edit that leaves out `attachments` keeps the message's files as they are (Discord:
"to remove or replace files you will have to supply the attachments field"), and the embed's
`attachment://hand.png` goes on pointing at the one already there.

Kept per message id, newest used last, a bounded number (a message forgotten here costs one upload
at its next edit, nothing else). Recorded only after a call succeeded, so a failed edit never makes
the next one skip a picture the message does not have.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any

import discord

from bot.discord import views as ui

KEPT = 4096  # messages: the hands of a few hundred live tables


class HandPictures:
    def __init__(self, size: int = KEPT) -> None:
        self.size = size
        self._shown: OrderedDict[int, str | None] = OrderedDict()  # message id -> digest, None: no picture

    @staticmethod
    def digest(data: bytes | None) -> str | None:
        return hashlib.sha256(data).hexdigest() if data is not None else None

    def edit_kwargs(self, message_id: int | None, data: bytes | None) -> dict[str, Any]:
        """The edit's `attachments=`: left out when the message shows these very bytes (kept as they
        are), else the new picture, or none (which drops an earlier one)."""
        if message_id is not None and message_id in self._shown and self._shown[message_id] == self.digest(data):
            return {}
        files: list[discord.File] = [ui.png(ui.HAND_PNG, data)] if data is not None else []
        return {"attachments": files}

    def shown(self, message_id: int | None, data: bytes | None) -> None:
        """The message now shows `data` (an edit or a send went through)."""
        if message_id is None:
            return
        self._shown[message_id] = self.digest(data)
        self._shown.move_to_end(message_id)
        while len(self._shown) > self.size:
            self._shown.popitem(last=False)

    def __len__(self) -> int:
        return len(self._shown)


__all__ = ["HandPictures"]
