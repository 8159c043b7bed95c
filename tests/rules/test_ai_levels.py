"""AI levels (issue 16): every level of every game plays legal moves only; easy is the greedy
baseline and normal the AI it always was; a level that does not exist is refused, not ignored."""

from __future__ import annotations

from importlib import import_module
from random import Random

import pytest

from rules import SetupError, engine_names, get_engine
from rules.core.levels import LEVELS, check_level

MAX_ACTIONS = 3000


@pytest.mark.parametrize("name", engine_names())
def test_a_table_of_mixed_levels_plays_a_round_legally(name: str) -> None:
    # Every seat at another level, so each level meets every other in the same game; apply validates.
    engine = get_engine(name)
    seats = engine.max_seats if name == "canasta" else 3 if engine.max_seats >= 3 else 2
    for seed in range(3):
        state = engine.new_game(seats, seed=seed)
        levels = [LEVELS[(seed + s) % len(LEVELS)] for s in range(seats)]
        for step in range(MAX_ACTIONS):
            seat = engine.current_seat(state)
            if seat is None:
                break
            action = engine.ai_action(state, seat, Random(f"{seed}/{step}"), levels[seat])
            assert engine.parse(engine.format(action)) == action
            state, _ = engine.apply(state, seat, action)
        else:
            raise AssertionError(f"{name} seed {seed}: the round did not end")
        assert engine.result(state) is not None


@pytest.mark.parametrize("name", engine_names())
def test_easy_is_the_greedy_baseline_and_normal_the_ai(name: str) -> None:
    engine = get_engine(name)
    ai = import_module(f"rules.{name}.ai")
    levels = import_module(f"rules.{name}.levels")
    if name == "three_thirteen":  # a weaker casual player there (rules/three_thirteen/levels.py)
        assert levels.POLICIES["easy"] is levels.choose_casual_action
    else:
        assert levels.POLICIES["easy"] is ai.choose_greedy_action
    assert levels.POLICIES["normal"] is ai.choose_action
    # The default level is the normal AI: tables stored before levels play as they did.
    state = engine.new_game(engine.min_seats, seed=5)
    seat = engine.current_seat(state)
    assert engine.ai_action(state, seat, Random(1)) == engine.ai_action(state, seat, Random(1), "normal")


def test_rummikub_strong_is_the_ai_with_a_larger_solver_budget() -> None:
    from rules.rummikub import ai
    from rules.rummikub.levels import STRONG_SOLVER_BUDGET, choose_strong_action

    assert STRONG_SOLVER_BUDGET > ai.SOLVER_BUDGET
    engine = get_engine("rummikub")
    state = engine.new_game(2, seed=3)
    view = engine.view(state, 0)
    assert choose_strong_action(view, Random(0)) == ai.choose_action(view, Random(0), STRONG_SOLVER_BUDGET)


@pytest.mark.parametrize("text, level", [("easy", "easy"), (" Strong ", "strong"), ("NORMAL", "normal")])
def test_levels_are_read_like_options(text: str, level: str) -> None:
    assert check_level(text) == level


@pytest.mark.parametrize("bad", ["hard", "", None, 2])
def test_an_unknown_level_is_refused(bad: object) -> None:
    with pytest.raises(SetupError) as err:
        check_level(bad)
    assert err.value.code == "E_BAD_LEVEL" and err.value.params["levels"] == ["easy", "normal", "strong"]
    engine = get_engine("rummy500")
    state = engine.new_game(2, seed=1)
    with pytest.raises(SetupError):
        engine.ai_action(state, engine.current_seat(state), Random(0), bad)  # type: ignore[arg-type]


def test_the_casual_three_thirteen_player_never_takes_a_card_it_could_meld() -> None:
    # A first draw where greedy takes the (not wild) top discard because it melds: the casual player draws.
    from rules.three_thirteen import ai
    from rules.three_thirteen.actions import DrawStock, TakeDiscard
    from rules.three_thirteen.deadwood import is_wild
    from rules.three_thirteen.levels import choose_casual_action

    engine = get_engine("three_thirteen")
    for seed in range(200):
        state = engine.new_game(2, seed=seed)
        seat = engine.current_seat(state)
        view = engine.view(state, seat)
        greedy_takes = view["phase"] == "draw" and ai.choose_greedy_action(view, Random(0)) == TakeDiscard()
        if greedy_takes and not is_wild(view["discard_top"], view["wild_rank"]):
            assert choose_casual_action(view, Random(0)) == DrawStock()
            return
    raise AssertionError("no deal where greedy takes a non-wild discard")
