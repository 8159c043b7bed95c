"""The moves one Rummy 101 seat can make now (spec §13), from that seat's view only.

Adding and swapping are checked tile by tile against the table melds the view shows (R101-40/41),
so those buttons name only melds something fits; a take's uses end with the top discard itself,
as the grammar wants (R101-17). Melds and openings depend on the tiles picked: `available` None.
"""

from __future__ import annotations

from typing import Any

from rules.core.moves import MoveTemplate, Slot, items, melds, pick, word
from rules.core.tiles import JOKER
from rules.rummy101 import melds as M

KEY = "move.rummy101."
UNOPENED = "unopened"


def _tpl(verb: str, name: str, slots: list[Slot], ok: bool | None) -> MoveTemplate:
    return MoveTemplate(verb=verb, slots=tuple(slots), label_key=KEY + name, available=ok)


def _fits(meld: dict[str, Any], tiles: list[str]) -> bool:
    try:
        M.add_to(meld, tiles)
    except M.DoesNotFit:
        return False
    return True


def _swaps(meld: dict[str, Any], tile: str) -> bool:
    try:
        M.swap_in(meld, tile)
    except M.DoesNotFit:
        return False
    return True


def moves(view: dict[str, Any]) -> list[MoveTemplate]:
    seat = view.get("you")
    on_turn = seat is not None and view.get("turn") == seat
    phase = view.get("phase") if on_turn else None
    hand: list[str] = list(view.get("hand") or [])
    table: list[dict[str, Any]] = list(view.get("table") or [])
    opened = seat is not None and view["status"][seat] != UNOPENED
    top = view.get("discard_top")
    drawing, playing = phase == "draw", phase == "play"
    take = drawing and bool(view.get("can_take")) and top is not None
    refs = [str(n) for n in range(1, len(table) + 1)]
    # R101-15: a play always leaves one tile for the discard, so a lone tile is never added.
    spare = len(hand) >= 2
    add_to = [str(n) for n, m in enumerate(table, start=1) if any(_fits(m, [t]) for t in set(hand))] if spare else []
    swap_to = [str(n) for n, m in enumerate(table, start=1) if any(_swaps(m, t) for t in set(hand) if t != JOKER)]
    take_add = [str(n) for n, m in enumerate(table, start=1) if top and _fits(m, [top])]
    take_swap = [str(n) for n, m in enumerate(table, start=1) if top and top != JOKER and _swaps(m, top)]
    top_word = [word(top)] if top else []
    return [
        _tpl("draw", "draw", [], drawing and (view.get("stock") or 0) > 0),
        _tpl("joker", "joker", [], drawing and view.get("joker_button") == "on" and not view["joker_used"][seat]),
        # The top discard joins the last meld of the opening (R101-17), as it ends `take meld`.
        _tpl("take", "take_open", [word("open"), melds(hand, [top] if top else [])],
             None if take and not opened else False),
        _tpl("take", "take_meld", [word("meld"), items(1, max(1, len(hand)), hand), *top_word],
             None if take and opened else False),
        _tpl("take", "take_add", [word("add"), pick("meld", take_add or refs), items(0 if top else 1, max(1, len(hand)), hand), *top_word],
             take and opened and bool(take_add)),
        _tpl("take", "take_swap", [word("swap"), pick("meld", take_swap or (refs if top else [])), *top_word],
             take and opened and bool(take_swap)),
        _tpl("open", "open", [melds(hand)], None if playing and not opened else False),
        _tpl("meld", "meld", [melds(hand)], None if playing and opened else False),
        _tpl("add", "add", [pick("meld", add_to or refs), items(1, max(1, len(hand) - 1), hand)],
             playing and opened and bool(add_to)),
        _tpl("swap", "swap", [pick("meld", swap_to or refs), items(1, 1, [t for t in hand if t != JOKER] or hand)],
             playing and opened and bool(swap_to)),
        _tpl("discard", "discard", [items(1, 1, hand)], playing and bool(hand)),
    ]

