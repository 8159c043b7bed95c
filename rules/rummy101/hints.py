"""Rummy 101 hints: the take hint of the hand view and the player's `hint` (issue 16).

The take hint (R101-17): a ready `take …` command that the engine accepts, or None.

The hand view offered "take y7 if you use it at once" whenever the discard was takable, even when
nothing in hand or on the table could use it. Here every plausible use of the top discard is tried
against the engine itself (on a copy), so the hint appears only when a take is legal, and names one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from random import Random
from typing import Any

from rules.core.engine import Action, State
from rules.core.errors import IllegalAction
from rules.core.hints import Hint
from rules.core.tiles import JOKER
from rules.rummy101 import melds as M
from rules.rummy101.actions import Add, Discard, JokerButton, Meld, MeldSpec, Open, Swap, Take
from rules.rummy101.actions import parse as parse_action
from rules.rummy101.ai import choose_action, pairs_with_floor, series_with_floor
from rules.rummy101.search import best_melds, meld_value, pairs_in, physical

Apply = Callable[[State, int, Action], Any]


def _fits(meld: M.Meld, tile: str) -> bool:
    try:
        M.add_to(meld, (tile,))
    except M.DoesNotFit:
        return False
    return True


def _swaps(meld: M.Meld, tile: str) -> bool:
    try:
        M.swap_in(meld, tile)
    except M.DoesNotFit:
        return False
    return True


def _candidates(state: State, seat: int, top: str) -> Iterator[Take]:
    """The uses of `top` worth trying, in the order tried. A swap or an addition the meld cannot
    take is left out (the engine would refuse it: it asks the same `swap_in`/`add_to`), and the meld
    search runs only once the table's melds are done with: both save the dearest tries."""
    hand = list(state["hands"][seat])
    with_top = [*hand, top]
    if state["status"][seat] == "unopened":
        _, melds = best_melds(with_top)
        if melds and any(top in physical(m) for m in melds):
            yield Take(use=Open(melds=tuple(MeldSpec(tiles=tuple(m)) for m in melds)))
        pairs = pairs_in(with_top)
        if any(p[0] == top and p[1] == top for p in pairs):
            yield Take(use=Open(melds=tuple(MeldSpec(tiles=tuple(p)) for p in pairs)))
        return
    for n, meld in enumerate(state["table"], start=1):
        if top != JOKER and JOKER in meld["tiles"] and _swaps(meld, top):
            yield Take(use=Swap(meld=n, tile=top))
        if _fits(meld, top):
            yield Take(use=Add(meld=n, tiles=(top,)))
    _, melds = best_melds(with_top)
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


# ---- the player's hint (issue 16) --------------------------------------------------------------------


def _laid_points(melds: Sequence[MeldSpec]) -> int:
    return sum(meld_value(list(m.tiles)) for m in melds)


def _is_pairs(melds: Sequence[MeldSpec]) -> bool:
    return all(len(m.tiles) == 2 for m in melds)


def _why(action: Action, view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    if isinstance(action, Take):
        return "take", {"tile": view["discard_top"]}
    if isinstance(action, (Open, Meld)):
        kind = "open" if isinstance(action, Open) else "meld"
        if _is_pairs(action.melds):
            return f"{kind}_pairs", {"pairs": len(action.melds)}
        return kind, {"points": _laid_points(action.melds), "tiles": sum(len(m.tiles) for m in action.melds)}
    if isinstance(action, Add):
        return "add", {"tiles": len(action.tiles), "meld": action.meld}
    if isinstance(action, Swap):
        return "swap", {"meld": action.meld}
    if isinstance(action, Discard):
        return "discard", {"left": len(view["hand"]) - 1}
    if isinstance(action, JokerButton):
        return "joker_button", {}
    return "draw", {}


def hint(view: dict[str, Any], options: Any = None) -> Hint:
    """The AI's move for the viewing seat, with its reason (`options` unused: the view holds the
    thresholds and the joker button)."""
    action = choose_action(view, Random(0))  # deterministic for a view: the same hint when asked again
    reason, params = _why(action, view)
    return Hint(action, reason, params)


# ---- suggestions (issue 25) ------------------------------------------------------------------------

MAX_SUGGESTIONS = 4


def _suggested(action: Action, view: dict[str, Any]) -> Hint:
    if isinstance(action, Take) and isinstance(action.use, Open):
        pairs = _is_pairs(action.use.melds)
        return Hint(action, "take_open_pairs" if pairs else "take_open",
                    {"tile": view["discard_top"], "pairs": len(action.use.melds),
                     "points": _laid_points(action.use.melds)})
    reason, params = _why(action, view)
    return Hint(action, reason, params)


def suggestions(view: dict[str, Any]) -> list[Hint]:
    """The seat's compound moves one press away: the AI's opening, take or lay (its own search), the
    series opening of most points and the pairs opening when they reach the thresholds, and the take
    the view offers. From the view only (the take hint in it was worked out for this seat)."""
    me = view.get("you")
    if me is None or view.get("turn") != me or view.get("round_over"):
        return []
    found: list[Action] = []
    ai = choose_action(view, Random(0))
    if isinstance(ai, (Take, Open, Meld)):
        found.append(ai)
    if view["phase"] == "draw" and view.get("take_hint"):
        found.append(parse_action(view["take_hint"]))
    if view["phase"] == "play" and view["status"][me] == "unopened":
        hand = list(view["hand"])
        thresholds = view["thresholds"]
        series = series_with_floor(hand)
        if series and sum(meld_value(m) for m in series) >= thresholds["series"]:
            found.append(Open(melds=tuple(MeldSpec(tiles=tuple(m)) for m in series)))
        pairs = pairs_with_floor(hand, ())
        if len(pairs) >= thresholds["pairs"]:
            found.append(Open(melds=tuple(MeldSpec(tiles=tuple(p)) for p in pairs)))
    unique = list(dict.fromkeys(found))
    return [_suggested(a, view) for a in unique[:MAX_SUGGESTIONS]]
