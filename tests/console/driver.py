"""Typing for the terminal's human seat in tests: scripted lines, and `AUTO`, which answers every
game prompt with the move the game's own AI would make for seat 1 until the match ends."""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules import get_engine
from storage import Store

AUTO = object()  # "play my seat with the AI's move until this match is over"
ONE = object()  # "one move of the AI's choosing for my seat"


def ai_move(game: str, state: Any, log_seq: int) -> str:
    engine = get_engine(game)
    return engine.format(engine.ai_action(state, 0, random.Random(log_seq)))


class Script:
    """A reader for ConsoleTable: each call returns the next line (None once the script is done)."""

    def __init__(self, store: Store, lines: Sequence[object]) -> None:
        self.store = store
        self.lines = list(lines)
        self.typed: list[str] = []

    async def __call__(self) -> str | None:
        while self.lines:
            item = self.lines[0]
            if item is AUTO or item is ONE:
                rec = await self.store.active_table_for_chat("console", "terminal")
                if item is ONE or rec is None or rec.status != "playing":
                    self.lines.pop(0)  # AUTO: the match is over, on to the next scripted line
                if rec is not None and rec.status == "playing":
                    return self._type(ai_move(rec.game, rec.state, rec.log_seq))
                continue
            self.lines.pop(0)
            return self._type(str(item))
        return None

    def _type(self, line: str) -> str:
        self.typed.append(line)
        return line + "\n"


def move_from_db(db: Path) -> str | None:
    """The AI's move for seat 1 at the terminal's table in play, read from the SQLite file a real
    `rummyclub` process writes (None when no match is in play)."""
    with contextlib.closing(sqlite3.connect(db)) as conn:  # closed: the writer's exit may then drop its WAL
        row = conn.execute("SELECT game, state, log_seq FROM game_tables WHERE platform = 'console' "
                           "AND chat_id = 'terminal' AND status = 'playing'").fetchone()
    if row is None:
        return None
    game, state, log_seq = row
    return ai_move(game, json.loads(state), log_seq)
