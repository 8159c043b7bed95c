"""The last committed TableRecord of each busy table, so a read after our own commit decodes nothing.

An entry is only ever served while the stored version still equals the entry's version (the store
asks SQLite for `version` by primary key, one indexed lookup, before serving): another process
writing the same table moves the version on and the next read goes to the row. A per-table version
check rather than PRAGMA data_version: data_version changes on every commit by any *other*
connection, our own writer's included, so with a separate writer connection it would invalidate
the whole cache on each of our own batches.

Entries are private: what goes in is a fresh copy and what comes out is another, so a caller
mutating a record (the service does: seats, status, state) never changes what the next caller gets.
"""

from __future__ import annotations

import marshal
from collections import OrderedDict
from typing import Any

from storage.models import ACTIVE_STATUSES, TableRecord

MAX_ENTRIES = 20_000  # tables in play at once per process, with room to spare
_NESTED = ("options", "deck", "state", "meta")  # the JSON parts a caller may mutate in place


def detached(rec: TableRecord) -> TableRecord:
    """A copy of `rec` sharing nothing mutable with it. `rec` must hold JSON data only (it does once
    stored): marshal copies plain dicts, lists and scalars several times faster than a deep copy
    and without the text step of a JSON round trip."""
    nested: dict[str, Any] = marshal.loads(marshal.dumps({k: getattr(rec, k) for k in _NESTED}))
    nested["seats"] = [s.model_copy() for s in rec.seats]  # seat fields are immutable scalars
    return rec.model_copy(update=nested)


class RecordCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, TableRecord] = OrderedDict()
        self.hits = 0
        self.misses = 0

    def version(self, table_id: str) -> int | None:
        entry = self._entries.get(table_id)
        return None if entry is None else entry.version

    def get(self, table_id: str, stored_version: int) -> TableRecord | None:
        """A copy of the entry if it is the stored version, else None (and the entry is dropped)."""
        entry = self._entries.get(table_id)
        if entry is None or entry.version != stored_version:
            self.misses += 1
            self._entries.pop(table_id, None)
            return None
        self.hits += 1
        self._entries.move_to_end(table_id)
        return detached(entry)

    def put(self, rec: TableRecord) -> None:
        """Keep `rec` (which the cache now owns: pass a copy) unless a newer version is kept already.
        Tables out of play are dropped: nobody reads them often."""
        current = self._entries.get(rec.id)
        if current is not None and current.version > rec.version:
            return
        if rec.status not in ACTIVE_STATUSES:
            self._entries.pop(rec.id, None)
            return
        self._entries[rec.id] = rec
        self._entries.move_to_end(rec.id)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)

    def drop(self, table_id: str) -> None:
        self._entries.pop(table_id, None)
