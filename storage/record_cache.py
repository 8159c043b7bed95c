"""The last committed TableRecord of each busy table, so a read after our own commit decodes nothing.

An entry is only ever served while the stored version still equals the entry's version (the store
asks SQLite for `version` by primary key, one indexed lookup, before serving): another process
writing the same table moves the version on and the next read goes to the row. A per-table version
check rather than PRAGMA data_version: data_version changes on every commit by any *other*
connection, our own writer's included, so with a separate writer connection it would invalidate
the whole cache on each of our own batches.

Entries are kept as the record's JSON text (pydantic's own encoder) and handed out by pydantic's
JSON parser: every record handed out is a fresh object, so a caller mutating it (the service does:
seats, status, state) never changes what the next caller gets. Measured against the alternatives
(bench notes in the issue): parsing that text (~33 µs for a 2 KB Canasta record) is cheaper than a
private deep copy of a live record (marshal of the JSON parts + model_copy, ~47 µs; deepcopy ~180 µs),
so the saving is the row read and its five json.loads, not a parse of some kind.
"""

from __future__ import annotations

from collections import OrderedDict

from storage.models import ACTIVE_STATUSES, TableRecord

MAX_ENTRIES = 20_000  # tables in play at once per process, with room to spare


class RecordCache:
    def __init__(self, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._entries: OrderedDict[str, tuple[int, str]] = OrderedDict()  # id -> (version, JSON)
        self.hits = 0
        self.misses = 0

    def version(self, table_id: str) -> int | None:
        entry = self._entries.get(table_id)
        return None if entry is None else entry[0]

    def get(self, table_id: str, stored_version: int) -> TableRecord | None:
        """A fresh record if the entry is the stored version, else None (and the entry is dropped)."""
        entry = self._entries.get(table_id)
        if entry is None or entry[0] != stored_version:
            self.misses += 1
            self._entries.pop(table_id, None)
            return None
        self.hits += 1
        self._entries.move_to_end(table_id)
        return TableRecord.model_validate_json(entry[1])

    def put(self, rec: TableRecord) -> str:
        """Keep `rec` as it is now (unless a newer version is kept already); returns its JSON text.
        Tables out of play are dropped: nobody reads them often."""
        text = rec.model_dump_json()
        current = self._entries.get(rec.id)
        if current is not None and current[0] > rec.version:
            return text
        if rec.status not in ACTIVE_STATUSES:
            self._entries.pop(rec.id, None)
            return text
        self._entries[rec.id] = (rec.version, text)
        self._entries.move_to_end(rec.id)
        while len(self._entries) > self.max_entries:
            self._entries.popitem(last=False)
        return text

    def drop(self, table_id: str) -> None:
        self._entries.pop(table_id, None)
