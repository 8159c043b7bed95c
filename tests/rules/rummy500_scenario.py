"""Build Rummy 500 scenario states directly, keeping all 54 cards accounted for.

`scenario()` starts from a real `new_game` and overwrites the zones a test cares about: hands,
table structures (with owners), market, bank, turn and phase. Cards the test does not place keep
their seeded deal order: first to the hands it left unspecified (`hand_size` each), then to the bank;
when the bank is given too, the leftovers go to the unspecified hands, so
`sorted(all_items(state))` is always the full deck (R500-01).
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from rules import Action, Event, IllegalAction, get_engine
from rules.core.cards import card_deck, parse_card
from rules.rummy500 import melds

ENG = get_engine("rummy500")


def cards(text: str | Sequence[str]) -> list[str]:
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(t) for t in tokens]


def run(sid: int, text: str, owners: int | Sequence[int] = 0) -> dict[str, Any]:
    """A run structure as the engine stores it; `text` in ascending order, jokers at their place."""
    cs = cards(text)
    seq = melds.run_sequence(cs)
    assert seq is not None, text
    suit, low, ordered = seq
    own = [owners] * len(cs) if isinstance(owners, int) else list(owners)
    return {"id": sid, "kind": "run", "suit": suit, "low": low, "cards": ordered, "owners": own, "shared": None,
            "branch_of": None}


def set_(sid: int, text: str, owners: int | Sequence[int] = 0, base: int | None = None) -> dict[str, Any]:
    cs = cards(text)
    rank = melds.set_rank(cs)
    assert rank is not None, text
    own = [owners] * len(cs) if isinstance(owners, int) else list(owners)
    return {"id": sid, "kind": "set", "rank": rank, "cards": cs, "owners": own, "base": base or len(cs), "branch": None}


def full_deck(state: dict[str, Any]) -> list[str]:
    return sorted(card_deck(jokers=state["options"]["jokers"]))


def snapshot(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True)


def act(state: dict[str, Any], seat: int, command: str | Action) -> tuple[dict[str, Any], list[Event]]:
    """Apply a command and check that all cards are conserved."""
    action = ENG.parse(command) if isinstance(command, str) else command
    new, events = ENG.apply(state, seat, action)
    assert sorted(ENG.all_items(new)) == full_deck(new)
    return new, events


def rejected(state: dict[str, Any], seat: int, command: str | Action, code: str) -> IllegalAction:
    """Assert the command is refused with `code` and the state is exactly as it was (R500-26)."""
    before, text = copy.deepcopy(state), snapshot(state)
    action = ENG.parse(command) if isinstance(command, str) else command
    with pytest.raises(IllegalAction) as info:
        ENG.apply(state, seat, action)
    assert info.value.code == code, f"expected {code}, got {info.value.code} {info.value.params}"
    assert state == before and snapshot(state) == text
    return info.value


def scenario(
    players: int = 3,
    hands: Mapping[int, str] | None = None,
    table: Sequence[dict[str, Any]] = (),
    market: str = "",
    bank: str | None = None,
    turn: int = 0,
    phase: str = "take",
    dealer: int = 0,
    options: Mapping[str, Any] | None = None,
    seed: int = 1,
    drawn: str | None = None,
    first: bool = False,
) -> dict[str, Any]:
    state = ENG.new_game(players, options=dict(options or {}), seed=seed)
    given = {seat: cards(h) for seat, h in (hands or {}).items()}
    structs = [copy.deepcopy(s) for s in table]
    mk = cards(market)
    bk = None if bank is None else cards(bank)
    used: Counter[str] = Counter(mk)
    for h in given.values():
        used.update(h)
    used.update(melds.table_cards(structs))
    if bk is not None:
        used.update(bk)
    full = Counter(card_deck(jokers=state["options"]["jokers"]))
    over = used - full
    if over:
        raise ValueError(f"scenario names cards twice or not in the deck: {sorted(over)}")
    left = full - used
    rest = []
    for c in ENG.all_items(state):
        if left[c] > 0:
            left[c] -= 1
            rest.append(c)
    size = state["options"]["hand_size"]
    free = [s for s in range(players) if s not in given]
    new_hands: list[list[str]] = []
    for seat in range(players):
        if seat in given:
            new_hands.append(given[seat])
        else:
            new_hands.append(rest[:size])
            rest = rest[size:]
    if bk is None:
        bk = rest
    elif rest:
        if not free:
            raise ValueError(f"no unspecified hand to hold the leftover cards {rest}")
        for i, c in enumerate(rest):
            new_hands[free[i % len(free)]].append(c)
    state.update(hands=new_hands, bank=bk, market=mk, table=structs, turn=turn, phase=phase, dealer=dealer,
                 first=first, drawn=drawn, round_over=None,
                 next_id=max([s["id"] for s in structs], default=0) + 1)
    assert sorted(ENG.all_items(state)) == full_deck(state)
    return state
