"""Build Tile Canasta scenario states directly (spec §11 defaults: both teams opened, P1 deals, P2
starts, `joker_button` off).

`scenario()` starts from a real `ENG.new_game(...)` and overwrites the zones a test names (hands,
team melds, bonus zones, pile, stock, opened flags, totals, turn and phase). Tiles the test does not
place are taken in the seeded deal's order: first to fill the hands it left unspecified (14 each,
never a bonus three), then to the stock, unless the test fixes the stock too; then the leftovers are
simply left out of the game. Every `act()` checks that an action neither creates nor loses a tile
(ARCHITECTURE "nothing appears or vanishes"), the Joker button's new joker aside.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import Action, Event, IllegalAction, get_engine
from rules.canasta import melds as m
from rules.canasta.scoring import threshold
from rules.canasta.stock import split_stock
from rules.core.tiles import parse_tile, tile_set

ENG = get_engine("canasta")
COLOUR_CYCLE = "rbkyrbky"

TileList = str | Sequence[str]


def tiles(text: TileList) -> list[str]:
    """`"r5 j K7"` -> `['r5', 'j', 'k7']`; `"8x5"` / `"8×5"` expands to five 8s in colour order
    (CAN-02's `N×k`); a list is canonicalised too."""
    tokens = text.replace("[", " ").replace("]", " ").split() if isinstance(text, str) else list(text)
    out: list[str] = []
    for token in tokens:
        token = token.replace("×", "x")
        if "x" in token and token[0].isdigit():
            n, k = token.split("x")
            out.extend(f"{COLOUR_CYCLE[i]}{int(n)}" for i in range(int(k)))
        else:
            out.append(parse_tile(token))
    return out


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def scenario(
    hands: Mapping[int, TileList] | None = None,
    melds: Mapping[int, Sequence[TileList]] | None = None,
    bonus: Mapping[int, TileList] | None = None,
    pile: TileList | None = None,
    stock: TileList | None = None,
    opened: Sequence[bool] = (True, True),
    totals: Sequence[int] = (0, 0),
    turn: int = 1,
    phase: str = "play",
    options: Mapping[str, Any] | None = None,
    hand_size: int = 14,
    seed: int = 1,
) -> dict[str, Any]:
    """A round in play restaged as the test describes (seats 0-3 = P1-P4; team 0 = A, 1 = B)."""
    state = ENG.new_game(4, options=dict(options or {}), seed=seed)
    given_hands = {seat: tiles(h) for seat, h in (hands or {}).items()}
    given_melds = {team: [tiles(x) for x in ms] for team, ms in (melds or {}).items()}
    given_bonus = {team: tiles(b) for team, b in (bonus or {}).items()}
    given_pile = [] if pile is None else tiles(pile)
    given_stock = None if stock is None else tiles(stock)

    used: Counter[str] = Counter(given_pile)
    for group in [*given_hands.values(), *given_bonus.values(), *(x for ms in given_melds.values() for x in ms)]:
        used.update(group)
    if given_stock is not None:
        used.update(given_stock)
    over = used - Counter(tile_set(jokers=2))
    if over:
        raise ValueError(f"scenario names more copies than the set holds: {sorted(over.elements())}")
    left = Counter(tile_set(jokers=2)) - used
    rest: list[str] = []
    for t in ENG.all_items(state):
        if left[t] > 0:
            left[t] -= 1
            rest.append(t)

    hand_list: list[list[str]] = []
    for seat in range(4):
        if seat in given_hands:
            hand_list.append(given_hands[seat])
            continue
        fill = [t for t in rest if not m.is_bonus_three(t)][:hand_size]
        for t in fill:
            rest.remove(t)
        hand_list.append(fill)
    stock_tiles = rest if given_stock is None else given_stock
    regular, threes = split_stock(stock_tiles)
    team_melds: list[dict[str, list[str]]] = [{}, {}]
    for team, ms in given_melds.items():
        for x in ms:
            number = m.meld_number(x)
            assert number is not None, x
            team_melds[team][str(number)] = list(x)
    state.update(
        hands=hand_list,
        stock=regular,
        stock_threes=threes,
        pile=given_pile,
        melds=team_melds,
        bonus=[given_bonus.get(0, []), given_bonus.get(1, [])],
        opened=list(opened),
        totals=list(totals),
        thresholds=[threshold(t) for t in totals],
        turn=turn,
        phase=phase,
        first_turn=False,
        joker_used=[False] * 4,
        extra_jokers=0,
        exhausted=False,
        round_over=None,
    )
    assert json.loads(json.dumps(state)) == state
    return state


def act(state: dict[str, Any], seat: int, command: str | Action) -> tuple[dict[str, Any], list[Event]]:
    """Apply a command (text goes through the grammar) and check that no tile appears or vanishes."""
    action = ENG.parse(command) if isinstance(command, str) else command
    assert ENG.parse(ENG.format(action)) == action
    before = Counter(ENG.all_items(state))
    new, events = ENG.apply(state, seat, action)
    after = Counter(ENG.all_items(new))
    created = Counter({"j": new["extra_jokers"] - state["extra_jokers"]})
    assert after == before + created
    return new, events


def rejected(state: dict[str, Any], seat: int, command: str | Action, code: str) -> IllegalAction:
    """Assert the command is refused with `code` and the state is left exactly as it was (CAN-11)."""
    before, text = copy.deepcopy(state), snapshot(state)
    action = ENG.parse(command) if isinstance(command, str) else command
    with pytest.raises(IllegalAction) as info:
        ENG.apply(state, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code} {info.value.params}"
    assert state == before and snapshot(state) == text
    return info.value


def meld_of(state: dict[str, Any], team: int, number: int) -> list[str]:
    return sorted(state["melds"][team].get(str(number), []))


def event(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.type == kind]
    assert found, f"no {kind} in {[e.type for e in events]}"
    return found[0]


def stacked_deck(blocks: Mapping[int, TileList] | None = None, stock_front: TileList = "") -> list[str]:
    """A stacked deck prefix for round 1 (P1 deals, P2 starts with 15): each seat's block holds the
    named tiles, filled up with naturals no test names; then the stock's first tiles."""
    named = {seat: tiles(b) for seat, b in (blocks or {}).items()}
    front = tiles(stock_front) if stock_front else []
    reserved = Counter(front)
    for b in named.values():
        reserved.update(b)
    spare = Counter(t for t in tile_set(jokers=2) if m.is_natural(t)) - reserved
    fillers = sorted(spare.elements(), key=m.sort_key)
    deck: list[str] = []
    for seat, size in enumerate((14, 15, 14, 14)):
        block = list(named.get(seat, []))
        while len(block) < size:
            block.append(fillers.pop())
        deck.extend(block)
    return deck + front
