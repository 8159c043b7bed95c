"""The ladder's statistics (bench/bench_ai_matches.py) on a tiny fake game whose outcome is known:
both chairs of every deal, the paired margin cancelling the chair, Wilson intervals, the verdict,
and the same figures whatever the number of worker processes."""

from __future__ import annotations

from typing import Any

import pytest

from bench import bench_ai_matches as ladder
from rules.core.engine import Action, RoundResult, State


class Pick(Action):
    n: int


class ChairGame:
    """Each seat picks a number once; a seat's total is ten times its pick, plus `chair` for seat 0."""

    def __init__(self, chair: int) -> None:
        self.chair = chair

    def new_game(self, seats: int, options: dict[str, Any] | None = None, seed: int = 0) -> State:
        return {"seed": seed, "turn": 0, "picks": [None] * seats}

    def current_seat(self, state: State) -> int | None:
        return None if None not in state["picks"] else state["turn"]

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Any]]:
        assert isinstance(action, Pick)
        picks = list(state["picks"])
        picks[seat] = action.n
        return {**state, "turn": seat + 1, "picks": picks}, []

    def result(self, state: State) -> RoundResult | None:
        if None in state["picks"]:
            return None
        totals = [10 * p + (self.chair if s == 0 else 0) for s, p in enumerate(state["picks"])]
        best = max(totals)
        winners = [s for s, t in enumerate(totals) if t == best]
        return RoundResult(round_scores=totals, totals=totals, winners=winners, match_over=True,
                           match_winners=winners if len(winners) == 1 else [])


def fake(chair: int, strong_pick: int = 2) -> ladder.LadderGame:
    def policies(rung: str) -> ladder.Policy:
        pick = strong_pick if rung == "strong" else 1
        return lambda view, rng: Pick(n=pick)

    return ladder.LadderGame(ChairGame(chair), 2, False, lambda state, seat: {"you": seat}, policies)  # type: ignore[arg-type]


def records(game: ladder.LadderGame, matches: int) -> list[ladder.MatchRecord]:
    return [ladder.play_ladder_match(game, "normal", "strong", i) for i in range(matches)]


def test_every_deal_is_played_from_both_chairs() -> None:
    recs = records(fake(chair=0), 6)
    assert [r.deal for r in recs] == [ladder.SEED_BASE + i // 2 for i in range(6)]
    assert [ladder.seats_of(i, 2) for i in range(4)] == [{0}, {1}, {0}, {1}]
    assert [ladder.seats_of(i, 4) for i in range(2)] == [{0, 2}, {1, 3}]


def test_a_chair_that_always_wins_gives_half_the_matches_and_no_margin() -> None:
    # Both rungs pick alike; seat 0's bonus decides every match, so each rung wins from the first chair only.
    s = ladder.summarise(records(fake(chair=5, strong_pick=1), 40))
    assert (s.matches, s.wins, s.draws) == (40, 20, 0)
    assert s.margin == 0
    assert s.low < 0.5 < s.high


def test_the_paired_margin_cancels_the_chair() -> None:
    # Strong scores 10 more; the first chair 5 more: +15 from the first chair, +5 from the second.
    recs = records(fake(chair=5), 10)
    assert [r.margin for r in recs[:2]] == [15, 5]
    s = ladder.summarise(recs)
    assert (s.wins, s.margin, s.margin_half) == (10, 10, 0)


def test_draws_are_counted_apart() -> None:
    s = ladder.summarise(records(fake(chair=0, strong_pick=1), 8))
    assert (s.wins, s.draws) == (0, 8)


def test_wilson_interval_matches_known_values() -> None:
    lo, hi = ladder.wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-3) and hi == pytest.approx(0.9433, abs=1e-3)
    lo, hi = ladder.wilson(0, 10)
    assert lo == pytest.approx(0.0, abs=1e-9) and hi == pytest.approx(0.2775, abs=1e-3)
    assert ladder.wilson(0, 0) == (0.0, 1.0)


def summary(wins: int, matches: int) -> ladder.PairingSummary:
    lo, hi = ladder.wilson(wins, matches)
    return ladder.PairingSummary(matches, wins, 0, lo, hi, 0.0, 0.0)


def test_verdict_checks_each_goal() -> None:
    times = {"normal": [0.001] * 99 + [0.5], "strong": [0.2] * 100}
    line = ladder.verdict({"normal-strong": summary(250, 400), "baseline-normal": summary(220, 400)}, times)
    assert "strong vs normal 62.5%" in line and "MET (>= 58%" in line
    assert "normal vs baseline 55.0% NOT MET" in line
    assert "normal p95 1.0 ms MET" in line and "strong p95 200.0 ms, max 200 ms MET" in line
    # 58% whose interval still reaches below 50% is not enough.
    line = ladder.verdict({"normal-strong": summary(35, 60)}, {})
    assert "NOT MET" in line and "normal vs baseline: not measured" in line


def test_pairings_are_checked() -> None:
    assert ladder.check_pairings("easy-baseline, greedy") == ["easy-baseline", "greedy"]
    for bad in ("baseline", "normal-normal", "easy-expert"):
        with pytest.raises(SystemExit):
            ladder.check_pairings(bad)


def test_worker_processes_change_no_figure() -> None:
    one = ladder.play_pairing("rummikub", "easy", "baseline", 4, jobs=1)
    two = ladder.play_pairing("rummikub", "easy", "baseline", 4, jobs=2)
    assert [(r.index, r.deal, r.won, r.drawn, r.margin) for r in one] == \
        [(r.index, r.deal, r.won, r.drawn, r.margin) for r in two]
    assert [len(r.times["baseline"]) for r in one] == [len(r.times["baseline"]) for r in two]


def test_ladder_prints_every_rung_and_the_verdict(capsys: pytest.CaptureFixture[str]) -> None:
    ladder.main(["--games", "rummikub", "--pairings", "easy-baseline", "--matches", "2"])
    out = capsys.readouterr().out
    assert "baseline vs easy: 2 matches" in out
    assert "decisions (view + choice) easy:" in out and "decisions (view + choice) baseline:" in out
    assert "verdict: strong vs normal: not measured" in out
