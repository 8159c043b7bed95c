"""Pictures of the table and of a seat's hand (PNG, Pillow), from the same views the text renders.

`picture(rec, view, viewer, lang)` is the entry point: `viewer=None` draws the public table from
the public view, `viewer=p` draws seat p's rack or hand from p's own view (and refuses any other
view: a seat's picture can only hold what that seat may see). Each game contributes
`bot.core.pictures.<game>` with `table(view, names, lang, sheet)` and `hand(view, lang, by_number)`
returning a `Sheet` (the layout model, which tests read). Pictures are cached per table version.
"""

from __future__ import annotations

from collections import OrderedDict
from importlib import import_module
from typing import Any

from bot.core.pictures.common import ended_line
from bot.core.pictures.sheet import Sheet
from bot.core.render.common import names
from storage import TableRecord

CACHE_SIZE = 256  # a few pictures per active table (the table, each seat's hand, each language)

Key = tuple[str, int, str, int | None, str, bool]


def layout(rec: TableRecord, view: dict[str, Any], viewer: int | None, lang: str = "en",
           by_number: bool = False) -> Sheet:
    """The picture's layout model (what `picture` paints), for tests and previews."""
    mod = import_module(f"bot.core.pictures.{rec.game}")
    if view.get("you") != viewer:
        # The privacy rule made structural: the table comes from the public view, a hand from its
        # own seat's view, so no picture can show what its viewer may not see.
        raise ValueError(f"a picture for viewer {viewer} needs that viewer's view, not seat {view.get('you')}'s")
    if viewer is None:
        sheet, seated = Sheet(), names(rec, None, lang)
        if rec.status != "playing":
            # Drawn from the version shown: an ended table shows how it ended, not whose turn it was.
            ended_line(sheet, rec, seated, lang)
            view = {**view, "turn": None}
        return mod.table(view, seated, lang, sheet)
    return mod.hand(view, lang, by_number)


class PictureCache:
    """PNG bytes by (table, version, status, viewer, language, rack order), least recently used dropped first.

    The version changes with every accepted action, so a cached picture is never stale; a table's
    message and every seat's hand edited after one move each draw once, however often they are sent."""

    def __init__(self, size: int = CACHE_SIZE) -> None:
        self.size = size
        self._items: OrderedDict[Key, bytes] = OrderedDict()
        self.drawn = 0  # how many pictures were actually painted (the cache test reads it)

    def picture(self, rec: TableRecord, view: dict[str, Any], viewer: int | None, lang: str = "en",
                by_number: bool = False) -> bytes:
        key: Key = (rec.id, rec.version, rec.status, viewer, lang, by_number)  # status: an ended table draws its result
        hit = self._items.get(key)
        if hit is not None:
            self._items.move_to_end(key)
            return hit
        data = layout(rec, view, viewer, lang, by_number).png()
        self.drawn += 1
        self._items[key] = data
        if len(self._items) > self.size:
            self._items.popitem(last=False)
        return data

    def __len__(self) -> int:
        return len(self._items)


# One cache for the process, as functools.lru_cache would keep: callers that want their own
# (a test, a service with a different budget) pass `cache=`.
_SHARED = PictureCache()


def picture(rec: TableRecord, view: dict[str, Any], viewer: int | None, lang: str = "en",
            by_number: bool = False, cache: PictureCache | None = None) -> bytes:
    """The table (`viewer=None`, from the public view) or seat `viewer`'s hand (from its view), as PNG."""
    return (cache if cache is not None else _SHARED).picture(rec, view, viewer, lang, by_number)


__all__ = ["PictureCache", "Sheet", "layout", "picture"]
