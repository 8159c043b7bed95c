"""The ladder's independent baselines (bench/baselines/): legal, finishing, deterministic, and blind to
what their seat may not see.

Each baseline plays every seat of a few seeded matches through the engine, so any illegal action
raises; the same seed plays the same actions again; and at a share of its decisions the hidden
zones (other hands, the stock) are dealt differently (`reshuffle_hidden`) without changing the
action chosen.
"""

from __future__ import annotations

from random import Random

import pytest

from bench.bench_ai_matches import ladder_view, rung_policy
from rules import get_engine
from rules.core.engine import Action, State
from tests.test_engine_contract import reshuffle_hidden

GAMES = {"rummikub": 2, "rummy101": 2, "rummy500": 2, "canasta": 4, "three_thirteen": 2}
# Shorter matches where a full one is long (the baseline's per-decision search in Three-Thirteen).
OPTIONS = {"three_thirteen": {"rounds": 6}, "rummy500": {"target_score": 300}}
SEEDS = (11, 12)
MAX_ACTIONS = 5000
CHECK_EVERY = 4  # a hidden-zone re-deal at every 4th decision


def play(game: str, seed: int, check_hidden: bool = False) -> tuple[list[tuple[int, Action]], State]:
    """One match with the baseline in every seat; every action goes through `engine.apply`."""
    engine = get_engine(game)
    policy = rung_policy(game, "baseline")
    view = ladder_view(game)
    state = engine.new_game(GAMES[game], OPTIONS.get(game), seed=seed)
    log: list[tuple[int, Action]] = []
    shuffler = Random(seed)
    for step in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            assert result is not None
            if result.match_over:
                return log, state
            state = engine.next_round(state)
            continue
        action = policy(view(state, seat), Random(step))
        if check_hidden and step % CHECK_EVERY == 0:
            other = reshuffle_hidden(engine, state, seat, set(), shuffler)
            assert policy(view(other, seat), Random(step)) == action, f"{game} seed {seed} step {step}"
        state, _ = engine.apply(state, seat, action)
        log.append((seat, action))
    raise AssertionError(f"{game} seed {seed}: no match end after {MAX_ACTIONS} actions")


@pytest.mark.parametrize("game", list(GAMES))
@pytest.mark.parametrize("seed", SEEDS)
def test_baseline_plays_legal_actions_to_the_match_end(game: str, seed: int) -> None:
    log, state = play(game, seed)
    result = get_engine(game).result(state)
    assert result is not None and result.match_over
    assert len({seat for seat, _ in log}) == GAMES[game]  # every seat played


@pytest.mark.parametrize("game", list(GAMES))
def test_baseline_is_deterministic_from_the_seed(game: str) -> None:
    first, _ = play(game, SEEDS[0])
    again, _ = play(game, SEEDS[0])
    assert first == again


@pytest.mark.parametrize("game", list(GAMES))
def test_baseline_never_reads_hidden_zones(game: str) -> None:
    play(game, SEEDS[1], check_hidden=True)


def test_baselines_do_more_than_draw_and_discard() -> None:
    """Each baseline melds: the matches above are not won by the stock alone."""
    for game, verbs in {"rummikub": ("Play",), "rummy101": ("Open", "Take"), "rummy500": ("Lay", "TakeMarket"),
                        "canasta": ("Open", "TakePile", "Meld", "Add"), "three_thirteen": ("TakeDiscard",)}.items():
        log, _ = play(game, SEEDS[0])
        made = {type(a).__name__ for _, a in log}
        assert set(verbs) & made, f"{game}: only {sorted(made)}"


def test_rummikub_fallback_past_the_search_budget_is_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a tiny node budget the table search gives up and the table stays as it is, plus rack melds."""
    from bench.baselines import rummikub

    monkeypatch.setattr(rummikub, "NODE_BUDGET", 40)
    log, state = play("rummikub", SEEDS[0])
    assert get_engine("rummikub").result(state) is not None
    assert any(type(a).__name__ == "Play" for _, a in log)
