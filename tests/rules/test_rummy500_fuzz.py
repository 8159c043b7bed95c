"""Hypothesis fuzz of parse/apply: garbage never crashes, a rejection never changes the state, an
accepted action keeps all cards and a consistent table (R500-26, R500-51)."""

from __future__ import annotations

import json
import os
from random import Random
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rules import Action, IllegalAction
from rules.core.cards import card_deck
from rules.rummy500 import melds
from rules.rummy500.actions import Discard, End, Lay, Stop, TakeBank, TakeMarket, Timeout
from rules.rummy500.search import candidates
from tests.rules.rummy500_scenario import ENG

# R500_FUZZ=500 for a longer local run; CI keeps the default small.
SETTINGS = settings(max_examples=int(os.environ.get("R500_FUZZ", "60")), deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARDS = card_deck(jokers=2)


def random_state(seed: int, players: int, steps: int, options: dict[str, Any]) -> dict[str, Any]:
    """A position reached by AI play (with a random action now and then, so odd states occur)."""
    rng = Random(seed)
    state = ENG.new_game(players, seed=seed, options=options)
    for _ in range(steps):
        seat = ENG.current_seat(state)
        if seat is None:
            break
        state, _ = ENG.apply(state, seat, ENG.ai_action(state, seat, rng))
    return state


def fuzz_action(rng: Random, state: dict[str, Any], seat: int) -> Action:
    hand = state["hands"][seat] or ["2S"]
    market = state["market"] or ["3C"]

    def some(pool: list[str], k: int) -> tuple[str, ...]:
        return tuple(rng.choice(pool) for _ in range(k))

    def lay() -> Lay:
        pool = rng.choice([hand, hand, CARDS, [*hand, *market]])
        on = rng.choice([None, None, rng.randint(1, len(state["table"]) + 2)])
        return Lay(cards=some(pool, rng.randint(1, 5)), on=on)

    kind = rng.randrange(12)
    if kind == 10 and ENG.current_seat(state) == seat:
        return ENG.ai_action(state, seat, rng)
    if kind == 11:
        found = candidates(hand, state["table"], set())  # legal-looking placements, burned cards included
        if found:
            cards, on, _ = rng.choice(found)
            return Lay(cards=cards, on=on)
    if kind <= 2:
        return lay()
    if kind <= 4:
        after = market[rng.randrange(len(market)):]
        take = {"leave": rng.choice([None, rng.choice(after), rng.choice(CARDS)]),
                "lays": tuple(lay() for _ in range(rng.randint(0, 3)))}
        if rng.random() < 0.5:
            return TakeMarket(target=rng.choice(market + ["JK"]), **take)
        return TakeMarket(pos=rng.randint(1, len(market) + 1), **take)
    if kind == 5:
        return Discard(card=rng.choice([*hand, *CARDS[:5], "JK"]))
    if kind == 6:
        return rng.choice([TakeBank(), End(), Stop(), Timeout()])
    text = "".join(rng.choice("take market bank lay on S1 #2 leave discard ; 5H JK 10C end stop draw ") for _ in
                   range(rng.randint(1, 30)))
    try:
        return ENG.parse(text)
    except IllegalAction:
        return End()


def check_invariants(state: dict[str, Any]) -> None:
    assert sorted(ENG.all_items(state)) == sorted(card_deck(jokers=state["options"]["jokers"]))
    assert json.loads(json.dumps(state)) == state
    assert melds.joker_info(state["table"])[0]  # the table is always consistent (R500-51)
    assert "JK" not in state["market"]  # R500-34
    for seat in (None, *range(state["seats"])):
        view = ENG.view(state, seat)
        assert isinstance(view["bank"], int) and "seed" not in view
        json.dumps(view)


@SETTINGS
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(2, 4),
    steps=st.integers(0, 60),
    options=st.fixed_dictionaries({}, optional={"jokers": st.integers(0, 2), "market_leave_one": st.booleans(),
                                                "hand_size": st.integers(7, 10)}),
    action_seed=st.integers(0, 2**32),
)
def test_random_actions_are_refused_cleanly_or_conserve_cards(
    seed: int, players: int, steps: int, options: dict[str, Any], action_seed: int
) -> None:
    state = random_state(seed, players, steps, options)
    check_invariants(state)
    rng = Random(action_seed)
    for _ in range(12):
        current = ENG.current_seat(state)
        if current is None:
            break
        seat = rng.choice([current] * 6 + list(range(players)))
        action = fuzz_action(rng, state, seat)
        before = json.dumps(state, sort_keys=True)
        try:
            new, events = ENG.apply(state, seat, action)
        except IllegalAction as err:
            event(f"refused {err.code}")
            assert err.code.startswith("E_")
            assert json.dumps(state, sort_keys=True) == before
            continue
        event(f"accepted {type(action).__name__}")
        assert json.dumps(state, sort_keys=True) == before
        check_invariants(new)
        for ev in events:
            json.dumps(ev.to_json())
            assert ev.seat is None or ev.seat == seat
        state = new
