"""One table's way in for this process: its lock, and the automatic moves still being played.

A player's move is answered once it is stored; the AI moves that answer it are computed and
stored after that, by a task that runs without the lock (the caller has long let go of it). Every
other piece of work on the table enters through the gate, which waits for that task first: the
table's work stays one piece at a time, in the order it came, without handing a lock between tasks.
"""

from __future__ import annotations

import asyncio
from contextvars import Token
from types import TracebackType
from typing import Any

from bot.core import log_context


class TableGate:
    def __init__(self, table_id: str | None = None) -> None:
        self.table_id = table_id
        self._lock = asyncio.Lock()
        # Inside the gate, a task's log lines name the table (bot/core/log_context.py).
        self._logging: dict[asyncio.Task[Any] | None, Token[str | None]] = {}
        self.settling: asyncio.Future[Any] | None = None  # set under the lock, by `settle_with`
        self._users = 0  # tasks inside the gate or waiting at it

    def idle(self) -> bool:
        """Nobody is in, at, or settling through the gate: a new gate would do the same, so this one
        can be dropped (the service does, so that a process keeps no gate per table ever played)."""
        return self._users == 0 and self.settling is None

    @property
    def busy(self) -> bool:
        """Automatic moves of the table are being played (and stored) right now."""
        return self.settling is not None and not self.settling.done()

    def settle_with(self, task: asyncio.Future[Any]) -> None:
        """The table's next work waits for `task`. Let go of once done: a finished task holds its
        outcome (the record, every seat's views), and a gate per table kept them all alive, for the
        full garbage collections to walk (a tenth of a second with 1 000 tables in play)."""
        self.settling = task
        task.add_done_callback(self._settled)

    def _settled(self, task: asyncio.Future[Any]) -> None:
        if self.settling is task:
            self.settling = None

    async def __aenter__(self) -> TableGate:
        self._users += 1
        try:
            while True:
                await self._lock.acquire()
                pending = self.settling
                if pending is None or pending.done():
                    self._logging[asyncio.current_task()] = log_context.TABLE.set(self.table_id)
                    return self
                self._lock.release()
                await asyncio.wait([pending])  # its failure belongs to whoever awaits its outcome
        except BaseException:
            self._users -= 1
            raise

    async def __aexit__(self, kind: type[BaseException] | None, err: BaseException | None,
                        tb: TracebackType | None) -> None:
        token = self._logging.pop(asyncio.current_task(), None)
        if token is not None:
            log_context.TABLE.reset(token)
        self._lock.release()
        self._users -= 1


GATES_SWEEP_MIN = 256  # table gates kept before the first sweep of idle ones


class TableGates:
    """This process's gate for each table, made on first use and dropped once idle."""

    def __init__(self) -> None:
        self._gates: dict[str, TableGate] = {}
        self._swept_at = GATES_SWEEP_MIN

    def __len__(self) -> int:
        return len(self._gates)

    def of(self, table_id: str) -> TableGate:
        gate = self._gates.get(table_id)
        if gate is None:
            if len(self._gates) >= self._swept_at:
                # Idle gates go (a new one is the same), a sweep each time the count doubles: the
                # gates stay about the tables in play, not every table ever played, at O(1) a call.
                self._gates = {t: g for t, g in self._gates.items() if not g.idle()}
                self._swept_at = max(GATES_SWEEP_MIN, 2 * len(self._gates))
            gate = self._gates[table_id] = TableGate(table_id)
        return gate
