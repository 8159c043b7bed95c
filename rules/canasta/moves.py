"""The moves one Canasta seat can make now (spec §13), from that seat's view only.

A team's melds are named by their number (`8`, `13`, `2` for the twos meld), never by a position in
a list, and only the acting team's own melds can be added to (CAN-26). `add` names the melds one
picked tile fits (CAN-26, with the hand floor of CAN-17); the pile take is offered as the ready
command the view already holds (`take_hint`), and by picks when the team has opened.
"""

from __future__ import annotations

from typing import Any

from rules.canasta import melds as m
from rules.core.moves import MoveTemplate, Slot, items, melds, pick, word

KEY = "move.canasta."


def _tpl(verb: str, name: str, slots: list[Slot], ok: bool | None) -> MoveTemplate:
    return MoveTemplate(verb=verb, slots=tuple(slots), label_key=KEY + name, available=ok)


def _adds(own: list[dict[str, Any]], meld: dict[str, Any], tile: str, hand_size: int) -> bool:
    """Whether one tile added to this meld is accepted: a valid meld (CAN-26), and the hand floor of
    CAN-17 (one tile left, two unless the team then holds a meld of canasta size)."""
    if m.meld_problem(meld["number"], [*meld["tiles"], tile], new=False) is not None:
        return False
    after = hand_size - 1
    canasta = meld["size"] + 1 >= m.CANASTA_SIZE or any(o["size"] >= m.CANASTA_SIZE for o in own)
    return after >= 2 or (after == 1 and canasta)


def moves(view: dict[str, Any]) -> list[MoveTemplate]:
    seat = view.get("you")
    on_turn = seat is not None and view.get("turn") == seat
    phase = view.get("phase") if on_turn else None
    hand: list[str] = list(view.get("hand") or [])
    team = view.get("team")
    own = view["melds"][team] if team is not None else []
    opened = team is not None and view["opened"][team]
    drawing, playing = phase == "draw", phase == "play"
    canasta = any(meld["canasta"] for meld in own)
    numbers = [str(meld["number"]) for meld in own]
    fits = [str(meld["number"]) for meld in own if any(_adds(own, meld, t, len(hand)) for t in set(hand))]
    hint = view.get("take_hint") if drawing else None
    top = view.get("top")
    pair = top is not None and m.is_natural(top) and sum(
        1 for t in hand if m.is_natural(t) and m.num(t) == m.num(top)) >= 2
    return [
        _tpl("draw", "draw", [], drawing),
        _tpl("joker", "joker", [], drawing and bool(view.get("joker_button")) and not view["joker_used"][seat]),
        _tpl("take", "take_hint", [pick("choice", [hint.removeprefix("take ")] if hint else [],
                                        [hint.removeprefix("take with ")] if hint else [])], hint is not None),
        # `take with <tiles> | <melds>`: the first meld joins the top, the rest are laid with it (CAN-42).
        _tpl("take", "take", [word("with"), melds(hand)], None if drawing and pair else False),
        _tpl("open", "open", [melds(hand)], None if playing and not opened else False),
        _tpl("meld", "meld", [melds(hand)], None if playing and opened else False),
        _tpl("add", "add", [pick("meld", fits or numbers or ["1"]), items(1, max(1, len(hand) - 1), hand)],
             playing and opened and bool(fits)),
        # CAN-50: the last tile goes out only with a canasta.
        _tpl("discard", "discard", [items(1, 1, hand)], playing and bool(hand) and (len(hand) > 1 or canasta)),
    ]
