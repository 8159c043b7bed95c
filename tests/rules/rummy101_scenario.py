"""Build Rummy 101 scenario states directly, keeping every tile of the set accounted for.

`scenario()` starts from a real `eng.new_game(...)` and overwrites what a test cares about (hands,
table melds with owners, statuses, discard pile, stock, turn and phase). Tiles the test does not
place fill the other hands (21 each) from the game's own seeded deal, then the stock; whatever is
left over lies at the bottom of the discard pile as dead discards (R101-16), so
`sorted(eng.all_items(state))` is always exactly the 106-tile set.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from rules import Action, Event, IllegalAction, get_engine
from rules.core.tiles import parse_tile, sorted_tiles, tile_set
from rules.rummy101 import melds as M
from rules.rummy101.actions import JokerButton, parse_melds

ENG = get_engine("rummy101")
HAND = 21

TileList = str | Sequence[str]


def tiles(text: TileList) -> list[str]:
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_tile(t) for t in tokens]


def meld(text: str, owner: int = 0) -> dict[str, Any]:
    """One stored table meld: `"[r10 j=r11 r12]"`, `"r8 b8 j=8"`, `"(r5 j)"`."""
    (spec,) = parse_melds(text)
    return {**M.analyse(spec.tiles), "owner": owner}


def full_set() -> list[str]:
    return sorted(tile_set(jokers=2))


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def act(state: dict[str, Any], seat: int, command: str | Action) -> tuple[dict[str, Any], list[Event]]:
    """Apply a command (text goes through the grammar) and check that no tile appears or vanishes
    (the Joker button, R101-19, is the one action that creates a tile)."""
    action = ENG.parse(command) if isinstance(command, str) else command
    before = Counter(ENG.all_items(state))
    new, events = ENG.apply(state, seat, action)
    after = Counter(ENG.all_items(new))
    if isinstance(action, JokerButton):
        before["j"] += 1
    assert after == before
    return new, events


def rejected(state: dict[str, Any], seat: int, command: str | Action, code: str) -> IllegalAction:
    """Assert the command is refused with `code` and the state is left exactly as it was (R101-10)."""
    before, text = copy.deepcopy(state), snapshot(state)
    action = ENG.parse(command) if isinstance(command, str) else command
    with pytest.raises(IllegalAction) as info:
        ENG.apply(state, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code} {info.value.params}"
    assert state == before
    assert snapshot(state) == text
    return info.value


def scenario(
    players: int = 4,
    hands: Mapping[int, TileList] | None = None,
    table: Iterable[str | tuple[str, int]] = (),
    status: Mapping[int, str] | None = None,
    discard: TileList | None = None,
    takable: bool = True,
    stock: TileList | None = None,
    stock_size: int | None = None,
    turn: int = 0,
    phase: str = "play",
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
    hand_size: int = HAND,
    first_turn: bool = False,
    opened_before_turn: bool | None = None,
) -> dict[str, Any]:
    """A fresh game (`new_game`) restaged; see `restage`."""
    state = ENG.new_game(players, options=dict(options or {}), seed=seed)
    state["starter"] = turn  # the next round's starter is the seat after this one (R101-06)
    return restage(
        state, hands=hands, table=table, status=status, discard=discard, takable=takable, stock=stock,
        stock_size=stock_size, turn=turn, phase=phase, hand_size=hand_size, first_turn=first_turn,
        opened_before_turn=opened_before_turn,
    )


def restage(
    state: dict[str, Any],
    hands: Mapping[int, TileList] | None = None,
    table: Iterable[str | tuple[str, int]] = (),
    status: Mapping[int, str] | None = None,
    discard: TileList | None = None,
    takable: bool = True,
    stock: TileList | None = None,
    stock_size: int | None = None,
    turn: int = 0,
    phase: str = "play",
    hand_size: int = HAND,
    first_turn: bool = False,
    opened_before_turn: bool | None = None,
) -> dict[str, Any]:
    """A copy of a state in play (any round) with its zones rearranged; scores and options kept.

    `table` items are meld text or (meld text, owner seat); `discard`
    lists the pile bottom to top (the last tile is the top); `stock` fixes the stock exactly (front
    first), `stock_size` keeps that many tiles of the seeded order in it."""
    state = json.loads(json.dumps(state))
    players = state["seats"]
    full = Counter(tile_set(jokers=2))
    melds = [meld(m) if isinstance(m, str) else meld(m[0], m[1]) for m in table]
    given = {seat: tiles(h) for seat, h in (hands or {}).items()}
    pile = tiles(discard) if discard is not None else []
    fixed_stock = None if stock is None else tiles(stock)
    used: Counter[str] = Counter()
    for m in melds:
        used.update(m["tiles"])
    for h in given.values():
        used.update(h)
    used.update(pile)
    used.update(fixed_stock or [])
    over = used - full
    if over:
        raise ValueError(f"scenario names more copies than the set holds: {sorted_tiles(over.elements())}")
    left = full - used
    rest: list[str] = []
    for t in ENG.all_items(state):
        if left[t] > 0:
            left[t] -= 1
            rest.append(t)
    new_hands = []
    for seat in range(players):
        if seat in given:
            new_hands.append(given[seat])
        else:
            new_hands.append(rest[:hand_size])
            rest = rest[hand_size:]
    if fixed_stock is not None:
        new_stock, dead = fixed_stock, rest
    elif stock_size is not None:
        new_stock, dead = rest[:stock_size], rest[stock_size:]
    else:
        new_stock, dead = rest, []
    statuses = ["unopened"] * players
    for seat, s in (status or {}).items():
        statuses[seat] = s
    state.update(
        hands=new_hands,
        stock=new_stock,
        discard=dead + pile,
        takable=bool(pile) and takable,
        table=melds,
        status=statuses,
        turn=turn,
        phase=phase,
        first_turn=first_turn,
        opened_before_turn=any(s != "unopened" for s in statuses) if opened_before_turn is None else opened_before_turn,
        last_stock=False,
    )
    assert sorted(ENG.all_items(state)) == full_set()
    return state
