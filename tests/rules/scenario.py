"""Build Rummikub scenario states directly, keeping every tile of the set accounted for.

`scenario()` starts from a real `eng.new_game(...)` and overwrites the fields a test cares about
(table, racks, opened flags, pool, turn). Tiles the test does not place are taken from the game's
own seeded deal, in deal order: first to fill the racks the test left unspecified (14 each), then to
the pool. When the test fixes the pool as well (e.g. an empty pool for an empty-pool ending), the
tiles left over are laid on the table as valid melds, so `sorted(eng.all_items(state))` is always
exactly the full set (RK-01, ARCHITECTURE "nothing appears or vanishes").
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import combinations
from typing import Any

import pytest

from rules import Action, Event, IllegalAction, get_engine
from rules.core.tiles import COLOURS, JOKER, MAX_NUMBER, parse_tile, sorted_tiles, tile_set
from rules.rummikub.actions import parse_melds
from rules.rummikub.melds import analyse
from rules.rummikub.validate import stored

ENG = get_engine("rummikub")
RACK_SIZE = 14

TileList = str | Sequence[str]


def tiles(text: TileList) -> list[str]:
    """`"r5 j K7"` -> `['r5', 'j', 'k7']` (canonical tiles); a list is canonicalised too."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_tile(t) for t in tokens]


def meld(text: str) -> dict[str, Any]:
    """One table meld as the engine stores it (normalised, RK-47): `"G:r5 j j"`, `"[r5 j r7]"`."""
    (spec,) = parse_melds(text)
    return stored(analyse(spec.tiles, spec.prefix))


def layout(text: str) -> list[dict[str, Any]]:
    """Several melds (`"[r3 r4 r5] [k7 b7 y7]"` or `"r3 r4 r5 | k7 b7 y7"`) as stored melds."""
    return [stored(analyse(spec.tiles, spec.prefix)) for spec in parse_melds(text)]


def full_set(jokers: int = 2) -> list[str]:
    return sorted(tile_set(jokers=jokers))


def snapshot(state: dict[str, Any]) -> str:
    """A deep, order-preserving copy for "state unchanged" checks."""
    return json.dumps(state, sort_keys=True)


def table_text(state: dict[str, Any]) -> str:
    """The current table in the grammar's bracket form, prefixes kept (RK-47)."""
    return " ".join(f"{m['prefix'] + ':' if m['prefix'] else ''}[{' '.join(m['tiles'])}]" for m in state["table"])


def play_adding(state: dict[str, Any], melds: str) -> str:
    """A `play` command that keeps the whole table as it is and adds `melds` (bracket form)."""
    return f"play {table_text(state)} {melds}".replace("play  ", "play ")


def act(state: dict[str, Any], seat: int, command: str | Action) -> tuple[dict[str, Any], list[Event]]:
    """Apply a command (text is parsed with the engine's grammar) and check tile conservation."""
    action = ENG.parse(command) if isinstance(command, str) else command
    new, events = ENG.apply(state, seat, action)
    assert sorted(ENG.all_items(new)) == full_set(new["options"]["jokers"])
    return new, events


def rejected(state: dict[str, Any], seat: int, command: str | Action, code: str) -> IllegalAction:
    """Assert the command is refused with `code` and the state is left exactly as it was (RK-22)."""
    before, text = copy.deepcopy(state), snapshot(state)
    action = ENG.parse(command) if isinstance(command, str) else command
    with pytest.raises(IllegalAction) as info:
        ENG.apply(state, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code} {info.value.params}"
    assert state == before
    assert snapshot(state) == text
    return info.value


def scenario(
    players: int = 3,
    table: Iterable[str] | None = None,
    racks: Mapping[int, TileList] | None = None,
    opened: Mapping[int, bool] | Sequence[bool] | None = None,
    pool: TileList | None = None,
    options: Mapping[str, Any] | None = None,
    turn: int = 0,
    seed: int = 1,
    rack_size: int = RACK_SIZE,
    pool_size: int | None = None,
) -> dict[str, Any]:
    """A fresh game (`new_game`) restaged with the given table, racks, opened flags, pool and turn.

    - `table`: melds as text, each one meld (`"r5 j r7"`, `"[k9 r9 b9]"`, `"G:r5 j j"`).
    - `racks`: {seat: tiles} for the racks that matter; other racks get `rack_size` tiles.
    - `pool`: None -> every tile not placed, in the seeded deal order (front = next draw);
      a tile list -> exactly that pool, and the tiles left over go to the table as valid melds.
    - `pool_size`: with `pool` None, keep only that many unplaced tiles in the pool; the rest go to
      the table as valid melds.
    """
    state = ENG.new_game(players, options=dict(options or {}), seed=seed)
    state = restage(
        state, table=table, racks=racks, opened=opened, pool=pool, turn=turn, rack_size=rack_size,
        pool_size=pool_size,
    )
    state["starter"] = turn
    return state


def restage(
    state: dict[str, Any],
    table: Iterable[str] | None = None,
    racks: Mapping[int, TileList] | None = None,
    opened: Mapping[int, bool] | Sequence[bool] | None = None,
    pool: TileList | None = None,
    turn: int | None = None,
    rack_size: int = RACK_SIZE,
    pool_size: int | None = None,
) -> dict[str, Any]:
    """A copy of a state in play (any round) with its zones rearranged; totals and history are kept."""
    state = json.loads(json.dumps(state))
    players = state["seats"]
    n_jokers = state["options"]["jokers"]
    full = Counter(tile_set(jokers=n_jokers))

    table_melds = [meld(t) for t in (table or [])]
    given_racks = {seat: tiles(r) for seat, r in (racks or {}).items()}
    given_pool = None if pool is None else tiles(pool)

    used: Counter[str] = Counter()
    for m in table_melds:
        used.update(m["tiles"])
    for r in given_racks.values():
        used.update(r)
    if given_pool is not None:
        used.update(given_pool)
    over = used - full
    if over:
        raise ValueError(f"scenario names more copies than the set holds: {sorted_tiles(over.elements())}")

    # The unplaced tiles, in the state's own (seeded) order: racks as dealt, then the pool.
    left = full - used
    rest: list[str] = []
    for t in ENG.all_items(state):
        if left[t] > 0:
            left[t] -= 1
            rest.append(t)
    assert not +left

    unspecified = [seat for seat in range(players) if seat not in given_racks]
    if given_pool is None and pool_size is None:
        spare, new_table = rest, []
    else:
        keep = rack_size * len(unspecified) + ((pool_size or 0) if given_pool is None else 0)
        new_table, spare = split_off(rest, keep)
    table_melds.extend(new_table)
    new_racks: list[list[str]] = []
    for seat in range(players):
        if seat in given_racks:
            new_racks.append(given_racks[seat])
        else:
            new_racks.append(spare[:rack_size])
            spare = spare[rack_size:]
    new_pool = spare if given_pool is None else given_pool

    flags = [False] * players
    if opened is not None:
        if isinstance(opened, Mapping):
            for seat, flag in opened.items():
                flags[seat] = bool(flag)
        else:
            flags = [bool(f) for f in opened]

    state.update(
        racks=new_racks,
        pool=new_pool,
        table=table_melds,
        opened=flags,
        turn=state["turn"] if turn is None else turn,
        draft=None,
        passes=0,
        turns_left=None,
        round_over=None,
    )
    assert sorted(ENG.all_items(state)) == sorted(tile_set(jokers=n_jokers))
    return state


# ---- laying leftover tiles on the table as valid melds -----------------------------------------

_ORDER = [f"{c}{n}" for c in COLOURS for n in range(1, MAX_NUMBER + 1)]
_INDEX = {t: i for i, t in enumerate(_ORDER)}


def split_off(items: Sequence[str], keep: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Lay `items` on the table as valid melds except exactly `keep` of them, returned in their
    original order (they fill racks and the pool). ValueError if that cannot be done."""
    if keep == 0:
        return fill_melds(items), []
    counts = Counter(items)
    kept: Counter[str] = Counter({JOKER: counts.pop(JOKER, 0)})
    melds: list[list[str]] = []
    # Runs from each colour's two "layers" (numbers held at least once / twice).
    for c in COLOURS:
        for layer in (1, 2):
            nums = [n for n in range(1, MAX_NUMBER + 1) if counts[f"{c}{n}"] >= layer]
            segments: list[list[int]] = []
            for n in nums:
                if segments and segments[-1][-1] == n - 1:
                    segments[-1].append(n)
                else:
                    segments.append([n])
            for seg in segments:
                if len(seg) >= 3:
                    melds.append([f"{c}{n}" for n in seg])
    for m in melds:
        counts.subtract(m)
    # Groups from what is left, then the rest is kept.
    for n in range(1, MAX_NUMBER + 1):
        present = [f"{c}{n}" for c in COLOURS if counts[f"{c}{n}"] > 0]
        if len(present) >= 3:
            melds.append(present)
            counts.subtract(present)
    kept.update(+counts)
    # Too few kept: peel tiles off long melds, then give up whole melds.
    while sum(kept.values()) < keep:
        need = keep - sum(kept.values())
        long = next((m for m in melds if len(m) > 3), None)
        if long is not None:
            kept[long.pop()] += 1
            continue
        if need >= 3 and melds:
            kept.update(melds.pop())
            continue
        raise ValueError(f"cannot keep exactly {keep} tiles off the table")
    if sum(kept.values()) > keep:
        raise ValueError(f"{sum(kept.values())} tiles do not fit in melds; only {keep} may stay off the table")
    ordered: list[str] = []
    for t in items:
        if kept[t] > 0:
            kept[t] -= 1
            ordered.append(t)
    return [stored(analyse(m)) for m in melds], ordered


def fill_melds(leftover: Iterable[str]) -> list[dict[str, Any]]:
    """Arrange tiles into valid melds (runs of 3..5 and groups); jokers extend runs. ValueError if impossible."""
    counts = Counter(leftover)
    jokers = counts.pop(JOKER, 0)
    key = tuple(counts.get(t, 0) for t in _ORDER)
    melds = _arrange(key)
    if melds is None:
        raise ValueError(f"cannot lay the leftover tiles as melds: {sorted_tiles(counts.elements())}")
    out = [list(m) for m in melds]
    for _ in range(jokers):
        for m in out:
            info = analyse(m)
            if info.type == "run" and len(m) < MAX_NUMBER and m.count(JOKER) < 2:
                end = int(m[-1][1:]) if m[-1] != JOKER else None
                if end is not None and end < MAX_NUMBER:
                    m.append(JOKER)
                    break
                if m[0] != JOKER and int(m[0][1:]) > 1:
                    m.insert(0, JOKER)
                    break
        else:
            raise ValueError("no run to hold a leftover joker")
    return [stored(analyse(m)) for m in out]


@cache
def _arrange(key: tuple[int, ...]) -> tuple[tuple[str, ...], ...] | None:
    first = next((i for i, c in enumerate(key) if c), None)
    if first is None:
        return ()
    tile = _ORDER[first]
    colour, num = tile[0], int(tile[1:])
    options: list[list[str]] = []
    for length in (3, 4, 5):
        run = [f"{colour}{n}" for n in range(num, num + length)]
        if num + length - 1 <= MAX_NUMBER and all(key[_INDEX[t]] for t in run):
            options.append(run)
    others = [f"{c}{num}" for c in COLOURS if c != colour and key[_INDEX[f"{c}{num}"]]]
    for size in (3, 2):
        if len(others) >= size:
            for combo in combinations(others, size):
                options.append([tile, *combo])
    for option in options:
        rest = list(key)
        for t in option:
            rest[_INDEX[t]] -= 1
        tail = _arrange(tuple(rest))
        if tail is not None:
            return (tuple(option), *tail)
    return None
