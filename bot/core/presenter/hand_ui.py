"""A player's hand screen between presses: the items picked (in pick order), the melds staged for a
compound move (issue 25), the sort order and a table-item move in progress. Kept in the store (one table ref per seat, `ui:<seat>`), so a restart
shows the same picks and sort and a press made before it still means what it meant."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from storage import Store


@dataclass(frozen=True)
class HandUI:
    picks: tuple[int, ...] = ()  # indices into the seat's hand items, in the order picked
    by_number: bool = False  # the hand sorted by number instead of by colour/suit
    choosing: bool = False  # picking which table item to move (the first step of `move`)
    moving: int | None = None  # the table item (an option of the move's first slot) picked to move
    page: int = 0  # which page of controls a platform with a bounded layout shows (Discord's 5 rows)
    # Melds staged for a move with a `melds` slot (an opening, a pile take with melds): each a group
    # of hand-item indices, in the order staged. Presentation only: the engine judges them
    # (`stage_report`) and the move that sends them.
    staged: tuple[tuple[int, ...], ...] = ()

    @property
    def staged_items(self) -> frozenset[int]:
        return frozenset(i for group in self.staged for i in group)

    def to_json(self) -> dict[str, Any] | None:
        if self == HandUI():
            return None  # nothing stored for the default screen
        return {"picks": list(self.picks), "by_number": self.by_number, "choosing": self.choosing,
                "moving": self.moving, "page": self.page, "staged": [list(g) for g in self.staged]}

    @classmethod
    def from_json(cls, raw: Any) -> HandUI:
        if not isinstance(raw, dict):
            return cls()
        picks = tuple(i for i in raw.get("picks", ()) if isinstance(i, int) and i >= 0)
        moving, page = raw.get("moving"), raw.get("page")
        return cls(picks, bool(raw.get("by_number")), bool(raw.get("choosing")),
                   moving if isinstance(moving, int) and moving >= 0 else None,
                   page if isinstance(page, int) and page >= 0 else 0, staged_of(raw.get("staged")))

    def after_move(self) -> HandUI:
        """What stays once a move was applied: the sort order (a preference), not the picks or the
        staged melds (they pointed at items the move used)."""
        return HandUI(by_number=self.by_number)


def staged_of(raw: Any) -> tuple[tuple[int, ...], ...]:
    """Stored staged melds, each a non-empty group of distinct indices no other group holds; what
    does not read so is dropped (a screen is presentation, never worth refusing a restart for)."""
    if not isinstance(raw, list):
        return ()
    seen: set[int] = set()
    out: list[tuple[int, ...]] = []
    for group in raw:
        if not isinstance(group, list) or not group:
            continue
        indices = [i for i in group if isinstance(i, int) and not isinstance(i, bool) and i >= 0]
        if len(indices) != len(group) or len(set(indices)) != len(indices) or seen & set(indices):
            continue
        seen.update(indices)
        out.append(tuple(indices))
    return tuple(out)


def _key(seat: int) -> str:
    return f"ui:{seat}"


@dataclass
class HandUIs:
    """The stored hand screens, read once per table and written only when one changes."""

    store: Store
    _cache: dict[tuple[str, int], HandUI] = field(default_factory=dict)
    _loaded: set[str] = field(default_factory=set)

    async def get(self, table_id: str, seat: int) -> HandUI:
        if table_id not in self._loaded:
            refs = await self.store.table_refs(table_id)
            for key, value in refs.items():
                if key.startswith("ui:") and key[3:].isdigit():
                    self._cache[(table_id, int(key[3:]))] = HandUI.from_json(value)
            self._loaded.add(table_id)
        return self._cache.get((table_id, seat), HandUI())

    async def put(self, table_id: str, seat: int, ui: HandUI) -> None:
        if await self.get(table_id, seat) == ui:
            return
        self._cache[(table_id, seat)] = ui
        await self.store.set_table_ref(table_id, _key(seat), ui.to_json())

    async def update(self, table_id: str, seat: int, **changes: Any) -> HandUI:
        ui = replace(await self.get(table_id, seat), **changes)
        await self.put(table_id, seat, ui)
        return ui

    def tables_kept(self) -> int:
        return len(self._loaded | {k[0] for k in self._cache})

    async def moved(self, table_id: str, seat: int) -> None:
        """The seat's move was applied: its picks no longer point at the same items."""
        await self.put(table_id, seat, (await self.get(table_id, seat)).after_move())

    def forget(self, table_id: str) -> None:
        """Drop a table from the cache (another process may change it; read it again when needed)."""
        self._loaded.discard(table_id)
        for key in [k for k in self._cache if k[0] == table_id]:
            del self._cache[key]
