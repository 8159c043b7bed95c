"""Fuzz: random commands (legal or not) against states of a seeded game never crash, rejections
never change the state, and accepted moves keep every card (T13-28, ARCHITECTURE)."""

from __future__ import annotations

from random import Random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalAction
from rules.core.cards import RANKS, SUITS
from tests.rules.three_thirteen_scenario import ENG, full_set, snapshot

WORDS = ["draw", "take", "discard", "stock", "discard", "timeout", "JK", "10H", "QS", "3C", "KD", "AH", "x", ""]
CARDS = [r + s for r in RANKS for s in SUITS] + ["JK"]


@st.composite
def commands(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return "discard " + draw(st.sampled_from(CARDS))
    if kind == 1:
        return draw(st.sampled_from(["draw", "take", "draw stock", "draw discard", "timeout"]))
    if kind == 2:
        return " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4)))
    return draw(st.text(max_size=12))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10_000), st.integers(2, 6), st.lists(st.tuples(st.integers(0, 5), commands()), max_size=40),
       st.sampled_from([0, 2, 4]), st.booleans())
def test_random_commands(seed: int, players: int, script: list[tuple[int, str]], jokers: int, ace_high: bool) -> None:
    state = ENG.new_game(players, options={"jokers": jokers, "ace_high": ace_high}, seed=seed)
    rng = Random(seed)
    for seat, text in script:
        seat %= players
        if rng.random() < 0.5 and ENG.current_seat(state) is not None:
            seat = ENG.current_seat(state)
        before = snapshot(state)
        try:
            action = ENG.parse(text)
            new, _ = ENG.apply(state, seat, action)
        except IllegalAction as err:
            assert err.code.startswith("E_")
            assert snapshot(state) == before
            continue
        assert snapshot(state) == before
        assert sorted(ENG.all_items(new)) == full_set(new)
        state = new
        if ENG.current_seat(state) is None:
            if state["match_over"]:
                break
            state = ENG.next_round(state)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 6))
def test_ai_and_timeouts_mixed(seed: int, players: int) -> None:
    """AI moves and timeouts interleaved for two rounds stay legal and keep the cards."""
    state = ENG.new_game(players, options={"rounds": 2, "jokers": 2}, seed=seed)
    rng = Random(seed)
    for step in range(600):
        seat = ENG.current_seat(state)
        if seat is None:
            if state["match_over"]:
                return
            state = ENG.next_round(state)
            continue
        action = ENG.timeout_action(state) if rng.random() < 0.2 else ENG.ai_action(state, seat, Random(step))
        state, _ = ENG.apply(state, seat, action)
        assert sorted(ENG.all_items(state)) == full_set(state)
    raise AssertionError("two rounds did not end")
