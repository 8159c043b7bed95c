"""Tile Canasta's plays that lay tiles: taking the pile (CAN-40..43), opening, laying more melds
and adding to a team meld (CAN-17, CAN-24, D-24). They change the engine's working copy of the
state in place and append their events; an illegal play raises `IllegalAction` first.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from rules.canasta import melds as m
from rules.canasta.actions import Add, TakePile
from rules.canasta.scoring import team_of
from rules.core.engine import Event, State
from rules.core.errors import IllegalAction, not_held

TEAM_LETTERS = "AB"


def take_pile(state: State, seat: int, action: TakePile, events: list[Event]) -> None:
    if state["phase"] != "draw":
        raise IllegalAction("E_PHASE", phase=state["phase"], action="take")
    pile, hand, team = state["pile"], state["hands"][seat], team_of(seat)
    top = pile[-1] if pile else None
    if top is None or not m.is_natural(top):
        raise IllegalAction("E_PILE_BLOCKED", top=top)  # CAN-40(1,2), CAN-41
    number = m.num(top)
    check_take_pair(top, hand, action.tiles)
    used = list(action.tiles) + [t for meld in action.melds for t in meld]
    check_in_hand(hand, used)
    existing = state["melds"][team].get(str(number))
    numbers = check_numbers(state["melds"][team], team, action.melds, taken=number)
    take_meld = (existing or []) + [top, *action.tiles]
    problem = take_problem(top, action.tiles, existing)
    if problem:
        meld = [top, *action.tiles] if problem == "canasta_wrong_number" else take_meld
        raise IllegalAction("E_INVALID_MELD", meld=meld, reason=problem, index=meld_ref(team, number))
    check_valid(team, numbers, action.melds)
    opening = not state["opened"][team]
    if opening:
        count = m.count_value([top, *used])  # CAN-43: the rest of the pile never counts
        if count < state["thresholds"][team]:
            raise IllegalAction("E_THRESHOLD", value=count, required=state["thresholds"][team])
    after = len(hand) - len(used) + len(pile) - 1
    lengths = {**{n: len(t) for n, t in state["melds"][team].items()}, str(number): len(take_meld)}
    lengths.update({str(n): len(meld) for n, meld in zip(numbers, action.melds, strict=True)})
    _check_floor(after, lengths)
    _remove(hand, used)
    rest = pile[:-1]
    state["melds"][team][str(number)] = take_meld
    for n, meld in zip(numbers, action.melds, strict=True):
        state["melds"][team][str(n)] = list(meld)
    hand.extend(rest)
    state["pile"] = []
    state["opened"][team] = True
    state["phase"] = "play"
    state["first_turn"] = False
    events.append(
        Event(
            "PileTaken",
            {
                "seat": seat,
                "team": team,
                "number": number,
                "tiles": [top, *action.tiles],
                "melds": [list(meld) for meld in action.melds],
                "taken": len(rest),
                "opened_now": opening,
            },
        )
    )
    events.append(Event("TilesReceived", {"tiles": m.sorted_tiles(rest)}, seat=seat))


def check_take_pair(top: str, hand: Sequence[str], tiles: Sequence[str]) -> None:
    """CAN-40(3): two naturals of the top's number held, and named among the tiles joining it."""
    number = m.num(top)
    in_hand = sum(1 for t in hand if m.is_natural(t) and m.num(t) == number)
    named = sum(1 for t in tiles if m.is_natural(t) and m.num(t) == number)
    if in_hand < 2 or named < 2:
        raise IllegalAction("E_NO_NATURAL_PAIR", top=top, held=in_hand, named=named, number=number)


def take_problem(top: str, tiles: Sequence[str], existing: list[str] | None) -> str | None:
    """Why the top discard with these hand tiles is no meld of its number (CAN-40/42): each tile a
    natural of that number or a wild, and the meld they make (joining `existing`, the team's meld of
    that number, if any) valid. None when it is one."""
    number = m.num(top)
    if any(not (m.is_wild(t) or (m.is_natural(t) and m.num(t) == number)) for t in tiles):
        return "canasta_wrong_number"
    return m.meld_problem(number, (existing or []) + [top, *tiles], new=existing is None)


def require_play(state: State, what: str) -> None:
    if state["phase"] != "play":
        raise IllegalAction("E_PHASE", phase=state["phase"], action=what)


def check_in_hand(hand: list[str], tiles: list[str]) -> None:
    missing = m.multiset_missing(hand, tiles)
    if missing:
        raise not_held("E_NOT_IN_HAND", hand, tiles, missing)


def check_numbers(existing: Collection[str], team: int, melds: Sequence[Sequence[str]],
                  taken: int | None = None) -> list[int | None]:
    """CAN-24: one meld per number per team, the batch included (D-24 step 6); `existing` are the
    numbers of the team's melds (as their keys: "8")."""
    seen: set[int] = set() if taken is None else {taken}
    numbers = []
    for meld in melds:
        n = m.meld_number(meld)
        if n is not None and (n in seen or str(n) in existing):
            raise IllegalAction("E_DUPLICATE_NUMBER", number=n, team=TEAM_LETTERS[team])
        if n is not None:
            seen.add(n)
        numbers.append(n)
    return numbers


def new_meld_problem(n: int | None, meld: Sequence[str]) -> str | None:
    """Why tiles laid as a new meld of number `n` (`m.meld_number`) are no meld, None if they are one."""
    if n is not None:
        return m.meld_problem(n, meld)
    if any(m.num(t) == 3 for t in meld):
        return "canasta_threes"
    return "too_short" if len(meld) < 3 else "canasta_wrong_number"


def check_valid(team: int, numbers: list[int | None], melds: Sequence[Sequence[str]]) -> None:
    for i, (n, meld) in enumerate(zip(numbers, melds, strict=True), start=1):
        problem = new_meld_problem(n, meld)
        if problem:
            raise IllegalAction("E_INVALID_MELD", meld=list(meld), reason=problem,
                                index=str(i) if n is None else meld_ref(team, n))


def _check_floor(after: int, lengths: dict[str, int]) -> None:
    """CAN-17 / D-13: ≥1 tile, and ≥2 unless the team then has a canasta."""
    canasta = any(n >= m.CANASTA_SIZE for n in lengths.values())
    if after < 1 or (after < 2 and not canasta):
        raise IllegalAction("E_HAND_FLOOR", left=after, canasta=canasta)


def _lay(state: State, seat: int, melds: tuple[tuple[str, ...], ...], opening: bool,
         events: list[Event]) -> None:
    team, hand = team_of(seat), state["hands"][seat]
    used = [t for meld in melds for t in meld]
    check_in_hand(hand, used)
    numbers = check_numbers(state["melds"][team], team, melds)
    check_valid(team, numbers, melds)
    if opening:
        count = m.count_value(used)
        if count < state["thresholds"][team]:
            raise IllegalAction("E_THRESHOLD", value=count, required=state["thresholds"][team])
    lengths = {**{n: len(t) for n, t in state["melds"][team].items()}}
    lengths.update({str(n): len(meld) for n, meld in zip(numbers, melds, strict=True)})
    _check_floor(len(hand) - len(used), lengths)
    _remove(hand, used)
    for n, meld in zip(numbers, melds, strict=True):
        state["melds"][team][str(n)] = list(meld)
    state["opened"][team] = True
    events.append(
        Event(
            "MeldsLaid",
            {
                "seat": seat,
                "team": team,
                "melds": [list(meld) for meld in melds],
                "value": m.count_value(used),
                "opened_now": opening,
            },
        )
    )


def open_melds(state: State, seat: int, melds: tuple[tuple[str, ...], ...], events: list[Event]) -> None:
    require_play(state, "open")
    if state["opened"][team_of(seat)]:
        raise IllegalAction("E_ALREADY_OPENED")
    _lay(state, seat, melds, opening=True, events=events)


def lay_melds(state: State, seat: int, melds: tuple[tuple[str, ...], ...], events: list[Event]) -> None:
    require_play(state, "meld")
    if not state["opened"][team_of(seat)]:
        raise IllegalAction("E_NOT_OPENED", threshold=state["thresholds"][team_of(seat)])
    _lay(state, seat, melds, opening=False, events=events)


def add_tiles(state: State, seat: int, action: Add, events: list[Event]) -> None:
    require_play(state, "add")
    team, hand = team_of(seat), state["hands"][seat]
    if not state["opened"][team]:
        raise IllegalAction("E_NOT_OPENED", threshold=state["thresholds"][team])
    check_in_hand(hand, list(action.tiles))
    if action.team is not None and TEAM_LETTERS.index(action.team) != team:
        raise IllegalAction("E_NOT_OWN_MELD", number=action.number, team=action.team)
    key = str(action.number)
    if key not in state["melds"][team]:
        raise IllegalAction("E_NO_SUCH_MELD", number=action.number)
    grown = state["melds"][team][key] + list(action.tiles)
    problem = m.meld_problem(action.number, grown, new=False)
    if problem:
        raise IllegalAction("E_INVALID_MELD", meld=grown, reason=problem, index=meld_ref(team, action.number))
    lengths = {n: len(t) for n, t in state["melds"][team].items()}
    lengths[key] = len(grown)
    _check_floor(len(hand) - len(action.tiles), lengths)
    _remove(hand, action.tiles)
    state["melds"][team][key] = grown
    events.append(
        Event("TilesAdded", {"seat": seat, "team": team, "number": action.number, "tiles": list(action.tiles),
                             "size": len(grown), "canasta": m.canasta_kind(action.number, grown)})
    )


def _remove(hand: list[str], tiles: Any) -> None:
    for t in tiles:
        hand.remove(t)


def meld_ref(team: int, number: int) -> str:
    """How a team meld is named in messages (CAN-02): `A:8s`."""
    return f"{TEAM_LETTERS[team]}:{number}s"
