"""The determinized search of the strong level (rules/core/search_pimc.py) and each game's deal of
the hidden zones: every item exactly once, the sizes the view shows, known cards where the record
puts them; the strong action legal, the same for the same seed, and blind to the hidden state."""

from __future__ import annotations

import json
import math
from collections import Counter
from random import Random
from typing import Any

import pytest

from rules import get_engine
from rules.core.engine import Action, Engine, State
from rules.core.errors import IllegalAction
from rules.core.search_pimc import Budget, SearchGame, choose, deal_hidden, gain, scores, unseen
from rules.rummy101 import ai_search as rummy101_strong
from rules.rummy101.determinize import determinize as rummy101_determinize
from rules.rummy500 import ai_search as rummy500_strong
from rules.rummy500.determinize import determinize as rummy500_determinize
from rules.three_thirteen import ai_search as three_thirteen_strong
from rules.three_thirteen.determinize import determinize as three_thirteen_determinize
from rules.three_thirteen.pile_record import known_held, pile_cards

STRONG = {"rummy101": rummy101_strong.choose_strong_action, "rummy500": rummy500_strong.choose_strong_action,
          "three_thirteen": three_thirteen_strong.choose_strong_action}
DETERMINIZE = {"rummy101": rummy101_determinize, "rummy500": rummy500_determinize, "three_thirteen": three_thirteen_determinize}


def test_unseen_is_the_set_less_what_is_seen_copies_counted() -> None:
    assert unseen(["a", "a", "b", "c"], ["a", "c"]) == ["a", "b"]
    with pytest.raises(ValueError):
        unseen(["a", "b"], ["a", "a"])  # a view showing more copies than the set holds


def test_deal_hidden_keeps_every_item_once_and_known_items_in_their_zone() -> None:
    pool = list("aabbcdefgh")
    zones = deal_hidden(pool, [3, 2, 5], [Counter("bb"), Counter(), Counter()], Random(4))
    assert [len(z) for z in zones] == [3, 2, 5]
    assert Counter(c for z in zones for c in z) == Counter(pool)
    assert Counter(zones[0])["b"] == 2
    with pytest.raises(ValueError):
        deal_hidden(pool, [3, 3], None, Random(0))  # sizes that do not add up to the pool


def test_the_budget_shares_rollouts_among_candidates_within_its_bounds() -> None:
    budget = Budget(rollouts=48, horizon=0, min_samples=4, max_samples=12)
    assert budget.samples(2) == 12 and budget.samples(6) == 8 and budget.samples(30) == 4


class _Counter:
    """A one-seat game for the search: the state is a number, an action adds to it, the round ends
    at once; `evaluate` reads the number plus the deal's noise."""

    def current_seat(self, state: State) -> int | None:
        return None

    def apply(self, state: State, seat: int, action: Any) -> tuple[State, list[Any]]:
        if action.step < 0:
            raise IllegalAction("E_PARSE")
        return {**state, "n": state["n"] + action.step}, []


class _Step(Action):
    step: int


def _toy_game(deals: list[int]) -> SearchGame:
    def determinize(view: dict[str, Any], rng: Random) -> State:
        deals.append(1)
        return {"n": 0, "noise": rng.random()}

    return SearchGame(engine=_Counter(), determinize=determinize, view=lambda s, p: {}, rollout=lambda v, r: _Step(step=0),
                      evaluate=lambda s, p: s["n"] + s["noise"])


def test_the_search_picks_the_best_mean_and_keeps_the_normal_choice_on_a_near_tie() -> None:
    deals: list[int] = []
    game = _toy_game(deals)
    view = {"you": 0}
    best = choose(game, view, Random(1), _Step(step=1), [_Step(step=s) for s in (-1, 0, 3, 2)], Budget(20, 0))
    assert best == _Step(step=3)  # the refused step (-1) is never chosen
    assert deals and len(deals) == Budget(20, 0).samples(5)  # one deal per sample, shared by the candidates
    margin = Budget(20, 0, margin=5.0)
    assert choose(game, view, Random(1), _Step(step=1), [_Step(step=3)], margin) == _Step(step=1)
    kept = Budget(rollouts=12, horizon=0, min_samples=1, max_samples=4, keep=2)
    means = scores(game, view, [_Step(step=s) for s in (0, 5, 1, 2, 3)], kept, Random(2))
    assert means[0] is not None and means[1] is not None and means[2:] == [None, None, None]
    assert choose(game, view, Random(7), _Step(step=0), [_Step(step=5)], kept) == \
        choose(game, view, Random(7), _Step(step=0), [_Step(step=5)], kept)


def test_a_candidate_must_beat_the_normal_choice_by_z_standard_errors_when_asked() -> None:
    assert gain([0.0, 0.0, 0.0], [1.0, 1.0, 1.0], z=2.0) == 1.0  # the same gain on every deal: certain
    assert gain([0.0, 0.0], [3.0, -1.0], z=0.0) == 1.0
    assert gain([0.0, 0.0], [3.0, -1.0], z=1.0) < 0  # +1 on average, but +3 and -1: not shown
    assert gain([0.0], [5.0], z=1.0) == -math.inf


def positions(name: str, seed: int, count: int, every: int = 3) -> list[State]:
    """States met in a match of normal AIs, every `every` actions, `count` of them (rounds go on)."""
    engine = get_engine(name)
    state = engine.new_game(2, seed=seed)
    out: list[State] = []
    step = 0
    while len(out) < count:
        seat = engine.current_seat(state)
        if seat is None:
            if engine.result(state).match_over:  # type: ignore[union-attr]
                break
            state = engine.next_round(state)
            continue
        if step % every == 0:
            out.append(state)
        state, _ = engine.apply(state, seat, engine.ai_action(state, seat, Random(step)))
        step += 1
    return out


def _items(engine: Engine, state: State) -> Counter[str]:
    return Counter(engine.all_items(state))


@pytest.mark.parametrize("name", sorted(DETERMINIZE))
def test_a_deal_of_the_hidden_zones_keeps_what_the_seat_sees(name: str) -> None:
    engine = get_engine(name)
    hands_key, stock_key = engine.hidden_zones
    for n, state in enumerate(positions(name, seed=7, count=25)):
        seat = engine.current_seat(state)
        view = engine.view(state, seat)
        dealt = DETERMINIZE[name](view, Random(n))
        # Conservation: every card of the true state exactly once, none added or lost.
        assert _items(engine, dealt) == _items(engine, state)
        # The sizes the view shows, and what it shows as it is.
        assert [len(h) for h in dealt[hands_key]] == [len(h) for h in state[hands_key]]
        assert len(dealt[stock_key]) == len(state[stock_key])
        assert sorted(dealt[hands_key][seat]) == sorted(state[hands_key][seat])
        assert engine.view(dealt, seat) == view  # nothing the seat sees differs
        assert engine.current_seat(dealt) == seat


def test_three_thirteen_cards_known_from_the_pile_record_stay_in_their_hand() -> None:
    engine = get_engine("three_thirteen")
    checked = 0
    for n, state in enumerate(positions("three_thirteen", seed=11, count=60, every=2)):
        seat = engine.current_seat(state)
        view = engine.view(state, seat)
        dealt = three_thirteen_determinize(view, Random(n))
        assert dealt["discard"] == pile_cards(view["pile_log"])  # the pile as the record shows it
        for other in range(view["seats"]):
            if other != seat:
                known = known_held(view["pile_log"], other)
                checked += sum(known.values())
                assert not known - Counter(dealt["hands"][other])
    assert checked, "no position where an opponent held a card taken from the pile"


def reshuffle_hidden(engine: Engine, state: State, seat: int, rng: Random) -> State:
    """The same game as `seat` sees it, the other hands and the stock dealt anew from their cards;
    in Three-Thirteen the cards an opponent is known to hold from the pile record stay with it."""
    hands_key, stock_key = engine.hidden_zones
    other: dict[str, Any] = json.loads(json.dumps(state))
    others = [s for s in range(len(other[hands_key])) if s != seat]
    kept = {s: known_held(state["pile_log"], s) if "pile_log" in state else Counter() for s in others}
    pool = list(other[stock_key])
    for s in others:
        loose = Counter(other[hands_key][s]) - kept[s]
        pool += list(loose.elements())
    rng.shuffle(pool)
    for s in others:
        fixed = list(kept[s].elements())
        n = len(other[hands_key][s]) - len(fixed)
        other[hands_key][s], pool = fixed + pool[:n], pool[n:]
    other[stock_key] = pool
    return other


@pytest.mark.parametrize("name", sorted(STRONG))
def test_the_strong_choice_reads_the_view_only(name: str) -> None:
    engine = get_engine(name)
    changed = 0
    for n, state in enumerate(positions(name, seed=3, count=8, every=5)):
        seat = engine.current_seat(state)
        assert seat is not None
        other = reshuffle_hidden(engine, state, seat, Random(n))
        assert engine.view(other, seat) == engine.view(state, seat)
        changed += other != state
        assert engine.ai_action(other, seat, Random(n), "strong") == engine.ai_action(state, seat, Random(n), "strong")
    assert changed, "no position had a hidden zone to deal differently"


@pytest.mark.parametrize("name", sorted(STRONG))
def test_the_strong_choice_is_legal_and_the_same_for_the_same_seed(name: str) -> None:
    engine = get_engine(name)
    for n, state in enumerate(positions(name, seed=5, count=8, every=4)):
        seat = engine.current_seat(state)
        assert seat is not None
        view = engine.view(state, seat)
        action = STRONG[name](view, Random(n))
        assert STRONG[name](engine.view(state, seat), Random(n)) == action
        engine.apply(state, seat, action)  # raises if illegal
