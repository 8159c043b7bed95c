"""What happened at a table lately, for the page to tell: the newest log entries played again with
their events (the same events the chats narrate), kept per table and carried forward entry by entry
from the stored log — so moves made by another process, the AI's and a timeout's are told too.

A table met for the first time is played from its deal once; after that each new version costs the
entries since the last one. The newest KEEP entries of up to TABLES tables are kept (least recently
asked first out): a page's every pick reads its table again, and must not replay the match each time."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from dataclasses import dataclass, field

from bot.core.presenter.games import State, Told, first_state, told
from storage import Store, TableRecord

KEEP = 12  # entries kept per table: a whole round of AI turns at a six-seat table, and the deal
TABLES = 512
# Entries played between two turns of the event loop: a long match met for the first time is played
# from its deal (hundreds of moves, ~3 ms each at worst) and must not hold every other request.
CHUNK = 8
log = logging.getLogger(__name__)


@dataclass
class _Tale:
    state: State
    seq: int
    entries: deque[Told]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    broken: bool = False  # its log does not play back: the page goes without the story, not without the table


class Story:
    def __init__(self, store: Store, keep: int = KEEP, tables: int = TABLES) -> None:
        self.store, self.keep, self.tables = store, keep, tables
        self._tales: OrderedDict[str, _Tale] = OrderedDict()
        self.played = 0  # log entries played again (what the tests count)

    async def recent(self, rec: TableRecord) -> list[Told]:
        """The newest entries up to the one `rec` was stored after (`rec.log_seq`), oldest first."""
        if rec.state is None or rec.log_seq == 0:
            return []
        tale = self._tales.get(rec.id)
        if tale is None:
            tale = self._tales[rec.id] = _Tale(first_state(rec), 0, deque(maxlen=self.keep))
            while len(self._tales) > self.tables:
                self._tales.popitem(last=False)
        self._tales.move_to_end(rec.id)
        async with tale.lock:
            if tale.seq < rec.log_seq and not tale.broken:
                entries = [e for e in await self.store.log(rec.id, tale.seq) if e.seq <= rec.log_seq]
                for start in range(0, len(entries), CHUNK):
                    chunk = entries[start:start + CHUNK]
                    try:
                        tale.state, more = told(rec.game, tale.state, chunk)
                    except Exception:  # a damaged log, or a state stored without its entries
                        log.warning("table %s: its log does not play back; its page shows no story", rec.id,
                                    exc_info=True)
                        tale.broken = True
                        tale.entries.clear()
                        return []
                    self.played += len(chunk)
                    tale.entries.extend(more)
                    tale.seq = max([tale.seq, *(e.seq for e in chunk)])
                    await asyncio.sleep(0)  # let the loop serve others between chunks
        return [e for e in tale.entries if e.seq <= rec.log_seq]

    def forget(self, table_id: str) -> None:
        self._tales.pop(table_id, None)

