"""Rummy 101's four uses of tiles from the hand (D-25 checks (3)..(11)): open, meld, add and swap,
each on its own or inside a take of the top discard. They change the engine's working copy of the
state in place and append their events; an illegal use raises `IllegalAction` before any change.
"""

from __future__ import annotations

from collections import Counter

from rules.core.engine import Action, Event, State
from rules.core.errors import IllegalAction, not_held
from rules.core.tiles import JOKER, sorted_tiles
from rules.rummy101 import melds as M
from rules.rummy101.actions import Add, Meld, Open, Swap

UNOPENED, SERIES, PAIRS = "unopened", "series", "pairs"


def canonical(tokens: tuple[str, ...] | list[str]) -> None:
    """Actions built in code (not parsed) may hold any string: refuse what the grammar would."""
    for tok in tokens:
        if not isinstance(tok, str) or M.parse_token(tok) != tok:
            raise IllegalAction("E_PARSE", token=str(tok), expected="tile")



def apply_use(state: State, seat: int, use: Action, taken: str | None, events: list[Event]) -> None:
    """Checks (3)..(11) of D-25 for one use; `taken` is the top discard inside a take."""
    status = state["status"][seat]
    if isinstance(use, Open):
        if status != UNOPENED:
            raise IllegalAction("E_ALREADY_OPENED")
    elif status == UNOPENED:
        raise IllegalAction("E_NOT_OPENED", threshold=state["thresholds"]["series"])
    if isinstance(use, Add | Swap) and not 1 <= use.meld <= len(state["table"]):
        raise IllegalAction("E_NO_SUCH_MELD", meld=use.meld, number=use.meld)
    match use:
        case Open(melds=specs) | Meld(melds=specs):
            tokens = [t for spec in specs for t in spec.tiles]
        case Add(tiles=tiles):
            tokens = list(tiles)
        case Swap(tile=tile):
            tokens = [tile]
        case _:
            raise IllegalAction("E_PARSE", token=type(use).__name__, expected="open, meld, add or swap")
    canonical(tokens)
    from_hand = [M.physical(t) for t in tokens]
    if taken is not None:
        if taken not in from_hand:
            raise IllegalAction("E_TAKE_UNUSED", tile=taken)  # R101-17: the use names the top discard
        from_hand.remove(taken)
    hand = state["hands"][seat]
    missing = Counter(from_hand) - Counter(hand)
    if missing:
        raise not_held("E_NOT_IN_HAND", hand, from_hand, sorted_tiles(missing.elements()))
    match use:
        case Open(melds=specs):
            _open(state, seat, specs, len(from_hand), events)
        case Meld(melds=specs):
            _lay(state, seat, specs, len(from_hand), events)
        case Add(meld=n, tiles=tiles):
            _add(state, seat, n, tiles, len(from_hand), events)
        case Swap(meld=n, tile=tile):
            _swap(state, seat, n, tile, events)
    for t in from_hand:
        hand.remove(t)
    if taken is not None:
        events.insert(0, Event("DiscardTaken", {"seat": seat, "tile": taken}))

def _analyse_batch(state: State, seat: int, specs: tuple) -> list[M.Meld]:
    """(7): every meld valid; one player's pairs never repeat a tile (R101-33)."""
    records = []
    for i, spec in enumerate(specs, start=1):
        try:
            records.append(M.analyse(spec.tiles))
        except M.InvalidMeld as err:
            raise IllegalAction(
                "E_INVALID_MELD", index=i, meld=list(spec.tiles), reason=f"rummy101_{err.reason}"
            ) from err
    return records

def _check_pairs(state: State, seat: int, records: list[M.Meld]) -> None:
    check_pairs(state["table"], seat, records)


def check_pairs(table: list[dict], seat: int, records: list[M.Meld]) -> None:
    """R101-33 over the table as a seat's view shows it too (melds carry their owner)."""
    own = [m["tile"] for m in table if m["owner"] == seat and m["kind"] == "pair"]
    new = [m["tile"] for m in records if m["kind"] == "pair"]
    repeated = [t for t, c in Counter(own + new).items() if c > 1]
    if repeated:
        raise IllegalAction("E_DUPLICATE_PAIR", tile=sorted_tiles(repeated)[0])

def _open(state: State, seat: int, specs: tuple, used: int, events: list[Event]) -> None:
    records = _analyse_batch(state, seat, specs)
    opening_kind(records)
    _check_pairs(state, seat, records)
    thresholds = state["thresholds"]
    kind, score = opening_score(records, thresholds)
    _floor(state, seat, used)
    numbers = _put(state, seat, records)
    state["status"][seat] = kind
    if state["options"]["threshold_mode"] == "increasing":
        thresholds[kind] = score + 1  # R101-38: the two tracks are independent
    events.append(
        Event(
            "Opened",
            {
                "seat": seat, "kind": kind, "score": score, "melds": numbers,
                "shown": _shown(state, numbers), "thresholds": dict(thresholds),
            },
        )
    )

def _lay(state: State, seat: int, specs: tuple, used: int, events: list[Event]) -> None:
    records = _analyse_batch(state, seat, specs)
    _check_pairs(state, seat, records)
    check_meld_types(records, [list(spec.tiles) for spec in specs], state["status"][seat], PAIRS in state["status"])
    _floor(state, seat, used)
    numbers = _put(state, seat, records)
    events.append(Event("MeldsLaid", {"seat": seat, "melds": numbers, "shown": _shown(state, numbers)}))

def opening_kind(records: list[M.Meld]) -> str:
    """R101-30: an opening is runs and sets only (SERIES) or pairs only (PAIRS)."""
    series = [M.is_series(m) for m in records]
    if any(series) and not all(series):
        raise IllegalAction("E_MIXED_OPENING")
    return SERIES if all(series) else PAIRS


def opening_score(records: list[M.Meld], thresholds: dict[str, int]) -> tuple[str, int]:
    """The opening's kind and what it counts (points, or pairs), `E_THRESHOLD` below the kind's
    threshold (R101-31/32)."""
    kind = opening_kind(records)
    if kind == SERIES:
        value = sum(M.meld_value(m) for m in records)
        if value < thresholds["series"]:
            raise IllegalAction("E_THRESHOLD", value=value, required=thresholds["series"])
        return SERIES, value
    if len(records) < thresholds["pairs"]:
        raise IllegalAction("E_THRESHOLD", value=len(records), required=thresholds["pairs"], pairs=True)
    return PAIRS, len(records)


def check_meld_types(records: list[M.Meld], typed: list[list[str]], status: str, pairs_seen: bool) -> None:
    """R101-36/37: which kinds of meld an opened player may lay. `index` counts the melds as typed
    (not table numbers): `meld` shows which one."""
    for i, m in enumerate(records, start=1):
        if status == PAIRS and M.is_series(m):
            raise IllegalAction("E_MELD_TYPE", index=i, status=status, meld=typed[i - 1], why="pairs")  # R101-36
        if status == SERIES and not M.is_series(m) and not pairs_seen:
            raise IllegalAction("E_MELD_TYPE", index=i, status=status, meld=typed[i - 1], why="series")  # R101-37


def _add(state: State, seat: int, n: int, tiles: tuple, used: int, events: list[Event]) -> None:
    target = state["table"][n - 1]
    try:
        grown = M.add_to(target, tiles)
    except M.DoesNotFit as err:
        raise IllegalAction("E_DOES_NOT_FIT", meld=n, tiles=list(tiles)) from err
    _floor(state, seat, used)
    state["table"][n - 1] = grown
    events.append(Event("TilesAdded", {"seat": seat, "meld": n, "tiles": list(tiles)}))

def _swap(state: State, seat: int, n: int, tile: str, events: list[Event]) -> None:
    try:
        state["table"][n - 1] = M.swap_in(state["table"][n - 1], tile)
    except M.DoesNotFit as err:
        raise IllegalAction("E_DOES_NOT_FIT", meld=n, tiles=[tile]) from err
    state["hands"][seat].append(JOKER)  # R101-41: the joker stays wild in the swapper's hand
    events.append(Event("JokerSwapped", {"seat": seat, "meld": n, "tile": tile}))

def _floor(state: State, seat: int, used: int) -> None:
    """R101-15: a play never empties the hand; one tile is always left for the discard."""
    if len(state["hands"][seat]) - used < 1:
        raise IllegalAction("E_HAND_FLOOR", left=len(state["hands"][seat]) - used)

def _shown(state: State, numbers: list[int]) -> list[list[str]]:
    return [M.shown(state["table"][n - 1]) for n in numbers]

def _put(state: State, seat: int, records: list[M.Meld]) -> list[int]:
    """R101-28: melds are numbered in laying order, in the order written."""
    numbers = []
    for record in records:
        state["table"].append({**record, "owner": seat})
        numbers.append(len(state["table"]))
    return numbers
