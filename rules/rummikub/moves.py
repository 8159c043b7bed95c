"""The moves one Rummikub seat can make now (spec §13), from that seat's view only.

The draft commands always act on the draft's melds once a draft exists (RK-26), else on the table.
`new`, `add` and `move` are accepted whenever their references exist (nothing is checked before
`done`); `done` is offered only when the draft would be accepted as a play.
"""

from __future__ import annotations

from typing import Any

from rules.core.errors import IllegalAction
from rules.core.moves import MoveTemplate, Slot, items, pick
from rules.rummikub.validate import validate_play

KEY = "move.rummikub."


def _tpl(verb: str, name: str, slots: list[Slot], ok: bool | None) -> MoveTemplate:
    return MoveTemplate(verb=verb, slots=tuple(slots), label_key=KEY + name, available=ok)


def moves(view: dict[str, Any]) -> list[MoveTemplate]:
    seat = view.get("you")
    on_turn = seat is not None and view.get("turn") == seat
    draft = view.get("draft") if on_turn else None
    rack: list[str] = list(draft["rack"] if draft else view.get("rack") or [])
    current = [list(m["tiles"]) for m in (draft["melds"] if draft else view.get("table") or [])]
    refs = [str(n) for n in range(1, len(current) + 1)]
    pieces = [(f"{tile} {n}", f"{n}:{tile}") for n, meld in enumerate(current, start=1) for tile in meld]
    cuts = [(f"{n} {pos}", f"{n}:{' '.join(meld[:pos])}|{' '.join(meld[pos:])}")
            for n, meld in enumerate(current, start=1) for pos in range(1, len(meld))]
    pool = view.get("pool") or 0
    return [
        _tpl("draw", "draw", [], on_turn and pool > 0),
        _tpl("pass", "pass", [], on_turn and pool == 0),
        # A whole layout is typed; only the whole-table check can say whether it is accepted.
        # Rack tiles alone never make the layout (it holds the table too): `fits` is empty.
        _tpl("play", "play", [Slot(kind="melds", max=99, fits=())], None if on_turn else False),
        _tpl("new", "new", [items(1, max(1, len(rack)), rack)], on_turn and bool(rack)),
        _tpl("add", "add", [pick("meld", refs), items(1, max(1, len(rack)), rack)], on_turn and bool(rack and refs)),
        _tpl("move", "move", [pick("piece", *_split(pieces)), pick("meld", ["new", *refs])], on_turn and bool(pieces)),
        _tpl("split", "split", [pick("piece", *_split(cuts))], on_turn and bool(cuts)),
        # Reset with no draft is accepted but changes nothing, so it is not offered.
        _tpl("reset", "reset", [], draft is not None),
        _tpl("done", "done", [], draft is not None and _draft_accepted(view)),
    ]


def _split(pairs: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    return [p[0] for p in pairs], [p[1] for p in pairs]


def _draft_accepted(view: dict[str, Any]) -> bool:
    """`done` is `play` of the draft (RK-26): the same whole-table check, on what the view holds
    (the turn-start table and rack are the seat's own to see)."""
    layout = [{"tiles": list(m["tiles"]), "prefix": m.get("prefix")} for m in view["draft"]["melds"]]
    table = [{"tiles": list(m["tiles"]), "prefix": m.get("prefix")} for m in view.get("table") or []]
    try:
        validate_play(table, view["rack"], layout, view["opened"][view["you"]], view["initial_meld_min"])
    except IllegalAction:
        return False
    return True

