"""The take hint (R101-17): a ready `take …` command that the engine accepts, or None.

The hand view offered "take y7 if you use it at once" whenever the discard was takable, even when
nothing in hand or on the table could use it. Here every plausible use of the top discard is tried
against the engine itself (on a copy), so the hint appears only when a take is legal, and names one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from rules.core.engine import Action, State
from rules.core.errors import IllegalAction
from rules.core.tiles import JOKER
from rules.rummy101.actions import Add, Meld, MeldSpec, Open, Swap, Take
from rules.rummy101.search import best_melds, pairs_in, physical

Apply = Callable[[State, int, Action], Any]


def _candidates(state: State, seat: int, top: str) -> Iterator[Take]:
    hand = list(state["hands"][seat])
    with_top = [*hand, top]
    _, melds = best_melds(with_top)
    if state["status"][seat] == "unopened":
        if melds and any(top in physical(m) for m in melds):
            yield Take(use=Open(melds=tuple(MeldSpec(tiles=tuple(m)) for m in melds)))
        pairs = pairs_in(with_top)
        if any(p[0] == top and p[1] == top for p in pairs):
            yield Take(use=Open(melds=tuple(MeldSpec(tiles=tuple(p)) for p in pairs)))
        return
    for n, meld in enumerate(state["table"], start=1):
        if top != JOKER and JOKER in meld["tiles"]:
            yield Take(use=Swap(meld=n, tile=top))
        yield Take(use=Add(meld=n, tiles=(top,)))
    for meld in melds:
        if top in physical(meld):
            yield Take(use=Meld(melds=(MeldSpec(tiles=tuple(meld)),)))
    if top != JOKER and top in hand:
        yield Take(use=Meld(melds=(MeldSpec(tiles=(top, top)),)))


def take_hint(state: State, seat: int, apply: Apply) -> Take | None:
    """The first use of the top discard that `apply` (the engine's) accepts."""
    if not state["takable"] or not state["discard"] or state["phase"] != "draw":
        return None
    for take in _candidates(state, seat, state["discard"][-1]):
        try:
            apply(state, seat, take)
        except IllegalAction:
            continue
        return take
    return None
