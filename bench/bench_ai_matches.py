"""The AI ladder: `python -m bench.bench_ai_matches [--matches N] [--games a,b] [--pairings p,q] [--jobs J]`.

Figures only, never assertions (they go into the issue note with the machine line).

The ladder (the default `--pairings easy-baseline,baseline-normal,normal-strong`): the levels of
rules/<game>/levels.py (`policy_for`) and the independent baseline player of bench/baselines/<game>.py
(a competent heuristic written from the rules, a measuring instrument outside the product), paired
rung by rung. Each pairing plays `--matches` matches (match i: deal SEED_BASE + i // 2, the stronger
rung first on even i, second on odd i, so every deal is played from both chairs), and prints the
stronger rung's win rate with its 95% Wilson interval, the paired margin, and then, per game, decision
times per level and a one-line verdict on issue 28's goals. `--jobs J` plays the matches in J worker
processes; the figures other than the times are the same whatever J.

The pairing `greedy` is the older report, kept as it was:
- N seeded matches per game, head-to-head: one AI seat against one greedy seat where the game
  allows two seats, and in Canasta (always four, in teams) the AI team against the greedy team.
  Match i deals seed i // 2 and seats the AI first on even i, second on odd i, so every deal is
  played from both chairs;
- the AI's match win rate with a 95% Wilson interval (draws count as not won);
- the paired score margin: per deal, the AI's match total minus the greedy side's, averaged over
  the two seatings (deal and seat luck cancel), signed so that positive favours the AI, with a
  95% interval over the deals;
- decision times (building the seat's view + the choice, as `engine.ai_action` does) p50/p95/max;
- Canasta only: the pile-feeding rate of each side, the share of its discards after which the next
  seat (an opponent) could take the pile: the discard is a natural (not blocked, CAN-41), that seat
  holds two naturals of its number (CAN-40) and a take the engine accepts exists, opening batch
  included when that team is unopened (CAN-43; found by the AI's take planner on the full state).

`compare` policies (e.g. the previous Three-Thirteen AI) run on the same seeds in the same run, so
before/after figures come from one run on one machine.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import import_module
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from rules import get_engine
from rules.canasta import ai as canasta_ai
from rules.canasta.actions import Discard as CanastaDiscard
from rules.canasta.views import build_view as canasta_view
from rules.core.engine import Action, Engine, State
from rules.core.errors import IllegalAction
from rules.core.levels import policy_for
from rules.rummikub import ai as rummikub_ai
from rules.rummy101 import ai as rummy101_ai
from rules.rummy101 import views as rummy101_views
from rules.rummy101.engine import ENGINE as rummy101_engine
from rules.rummy500 import ai as rummy500_ai
from rules.three_thirteen import ai as three_thirteen_ai
from rules.three_thirteen import ai_previous as three_thirteen_previous
from rules.three_thirteen import ai_strong as three_thirteen_strong
from rules.three_thirteen import views as three_thirteen_views
from rules.three_thirteen.engine import ENGINE as three_thirteen_engine

Policy = Callable[[dict[str, Any], Random], Action]
ViewFn = Callable[[State, int], dict[str, Any]]
MAX_ACTIONS = 20_000
SEED_BASE = 50_000  # away from the seeds the per-game benches use


@dataclass(frozen=True)
class Game:
    name: str
    ai: Policy
    greedy: Policy
    seats: int  # 2 (head-to-head) or 4 (Canasta: teams of seats {0, 2} and {1, 3})
    lower_is_better: bool  # match totals: penalty points (Three-Thirteen) or points won
    view: ViewFn | None = None  # the view `engine.ai_action` builds, when it is not `engine.view`
    compare: dict[str, Policy] = field(default_factory=dict)  # other AIs to measure on the same seeds


GAMES: dict[str, Game] = {
    "rummikub": Game("rummikub", rummikub_ai.choose_action, rummikub_ai.choose_greedy_action, 2, False),
    "rummy101": Game("rummy101", rummy101_ai.choose_action, rummy101_ai.choose_greedy_action, 2, False),
    "rummy500": Game("rummy500", rummy500_ai.choose_action, rummy500_ai.choose_greedy_action, 2, False),
    "canasta": Game("canasta", canasta_ai.choose_action, canasta_ai.choose_greedy_action, 4, False,
                    view=lambda state, seat: canasta_view(state, seat, hints=False)),
    "three_thirteen": Game("three_thirteen", three_thirteen_ai.choose_action,
                           three_thirteen_ai.choose_greedy_action, 2, True,
                           compare={"previous AI (expected deadwood)": three_thirteen_previous.choose_action,
                                    "strong level (pile record, next seat's takes)":
                                        three_thirteen_strong.choose_strong_action}),
}


@dataclass
class Tally:
    """What one AI did against greedy over the matches of one game."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    margins: dict[int, list[float]] = field(default_factory=dict)  # deal -> AI-minus-greedy per seating
    ai_times: list[float] = field(default_factory=list)
    greedy_times: list[float] = field(default_factory=list)
    # Canasta pile feeding, per side: [feeding discards, discards the next seat could answer]
    feeds: dict[str, list[int]] = field(default_factory=lambda: {"ai": [0, 0], "greedy": [0, 0]})


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound near 0 and 1, unlike p +/- 1.96 sd)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def feeds_next_opponent(engine: Engine, after: State, discarder: int) -> bool | None:
    """Whether a Canasta discard lets the next seat take the pile; None when nobody answers it (the
    round ended with that discard). Looks at the full state: the next seat's hand and team."""
    nxt = engine.current_seat(after)
    if nxt is None or nxt != (discarder + 1) % 4 or after["phase"] != "draw":
        return None
    top = after["pile"][-1]
    if not canasta_ai.m.is_natural(top):
        return False  # a two, joker or block three on top blocks the take (CAN-41)
    take = canasta_ai.take_option(canasta_view(after, nxt, hints=False))
    if take is None:
        return False
    try:
        engine.apply(after, nxt, take)
    except IllegalAction:
        return False
    return True


def play_match(engine: Engine, game: Game, seed: int, policies: Sequence[Policy], ai_seats: set[int],
               tally: Tally) -> State:
    """One seeded match; times every decision and, in Canasta, checks every discard for feeding."""
    view_fn = game.view or engine.view
    state = engine.new_game(game.seats, seed=seed)
    rng = Random(seed)
    for _ in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is not None and result.match_over:
                return state
            state = engine.next_round(state)
            continue
        t = time.perf_counter()
        action = policies[seat](view_fn(state, seat), rng)
        (tally.ai_times if seat in ai_seats else tally.greedy_times).append(time.perf_counter() - t)
        state, _ = engine.apply(state, seat, action)
        if isinstance(action, CanastaDiscard):
            fed = feeds_next_opponent(engine, state, seat)
            if fed is not None:
                side = tally.feeds["ai" if seat in ai_seats else "greedy"]
                side[0] += fed
                side[1] += 1
    raise RuntimeError(f"{game.name} seed {seed}: no match end after {MAX_ACTIONS} actions")


def head_to_head(game: Game, ai: Policy, matches: int) -> Tally:
    engine = get_engine(game.name)
    tally = Tally()
    for i in range(matches):
        deal, first = SEED_BASE + i // 2, i % 2
        ai_seats = {first} if game.seats == 2 else {first, first + 2}
        policies = [ai if s in ai_seats else game.greedy for s in range(game.seats)]
        final = play_match(engine, game, deal, policies, ai_seats, tally)
        result = engine.result(final)
        assert result is not None
        winners = set(result.match_winners)
        tally.matches += 1
        if winners and winners <= ai_seats:
            tally.wins += 1
        elif not winners or (winners & ai_seats):
            tally.draws += 1  # nobody won, or both sides share the win
        ai_total = statistics.mean(result.totals[s] for s in ai_seats)
        greedy_total = statistics.mean(result.totals[s] for s in range(game.seats) if s not in ai_seats)
        margin = ai_total - greedy_total
        tally.margins.setdefault(deal, []).append(-margin if game.lower_is_better else margin)
    return tally


def report(label: str, tally: Tally, seconds: float) -> None:
    lo, hi = wilson(tally.wins, tally.matches)
    paired = [statistics.mean(v) for v in tally.margins.values()]
    half = 1.96 * statistics.stdev(paired) / math.sqrt(len(paired)) if len(paired) > 1 else float("nan")
    t = tally.ai_times
    g = tally.greedy_times
    print(
        f"  {label}: {tally.matches} matches, won {tally.wins} ({tally.wins / tally.matches:.1%}, 95% CI "
        f"{lo:.1%}..{hi:.1%}), drawn {tally.draws}, lost {tally.matches - tally.wins - tally.draws} | paired "
        f"margin {statistics.mean(paired):+.1f} +/- {half:.1f} points per match over {len(paired)} deals "
        f"(positive = AI better) | {seconds:.0f} s"
    )
    print(
        f"    decisions (view + choice): AI {len(t)}: p50 {percentile(t, 0.5) * 1e3:.2f} ms, p95 "
        f"{percentile(t, 0.95) * 1e3:.2f} ms, max {max(t) * 1e3:.1f} ms | greedy {len(g)}: p50 "
        f"{percentile(g, 0.5) * 1e3:.2f} ms, p95 {percentile(g, 0.95) * 1e3:.2f} ms, max {max(g) * 1e3:.1f} ms"
    )
    fed_ai, seen_ai = tally.feeds["ai"]
    fed_greedy, seen_greedy = tally.feeds["greedy"]
    if seen_ai or seen_greedy:
        print(
            f"    pile feeding (discard the next opponent could take): AI {fed_ai}/{seen_ai} "
            f"({fed_ai / max(seen_ai, 1):.1%}) vs greedy {fed_greedy}/{seen_greedy} "
            f"({fed_greedy / max(seen_greedy, 1):.1%})"
        )


def bench_game(game: Game, matches: int) -> None:
    seats = "AI team vs greedy team (2 seats each)" if game.seats == 4 else "1 AI seat vs 1 greedy seat"
    print(f"{game.name}: {seats}, seating alternated, deals from seed {SEED_BASE}")
    for label, policy in [("AI", game.ai), *game.compare.items()]:
        start = time.perf_counter()
        report(label, head_to_head(game, policy, matches), time.perf_counter() - start)


# ---- the ladder ---------------------------------------------------------------------------------

RUNGS = ("easy", "baseline", "normal", "strong")
PAIRINGS = ("easy-baseline", "baseline-normal", "normal-strong")
# Issue 28's goals, checked by the verdict line.
STRONG_OVER_NORMAL = 0.58
NORMAL_OVER_BASELINE = 0.60
NORMAL_P95 = 0.030
STRONG_P95 = 0.300
STRONG_MAX = 1.0


def _rummy101_view(state: State, seat: int) -> dict[str, Any]:
    view = rummy101_engine.public_view(state)
    view["you"] = seat
    view.update(rummy101_views.seat_view(state, seat, None))
    return view


def _three_thirteen_view(state: State, seat: int) -> dict[str, Any]:
    view = three_thirteen_engine.public_view(state)
    view["you"] = seat
    view.update(three_thirteen_views.seat_view(state, seat, view, hint=False))
    return view


def ladder_view(game: str) -> ViewFn:
    """The view `engine.ai_action` hands the AI (hints the AI never reads left out), for every rung alike."""
    if game == "rummy101":
        return _rummy101_view
    if game == "three_thirteen":
        return _three_thirteen_view
    if game == "canasta":
        return lambda state, seat: canasta_view(state, seat, hints=False)
    return get_engine(game).view


def rung_policy(game: str, rung: str) -> Policy:
    """A rung's policy: `baseline` is bench/baselines/<game>.py, the others the game's levels."""
    if rung == "baseline":
        policy: Policy = import_module(f"bench.baselines.{game}").choose_action
        return policy
    return policy_for(import_module(f"rules.{game}.levels").POLICIES, rung)


@dataclass(frozen=True)
class MatchRecord:
    """One ladder match as the stronger rung saw it: won, drawn, its margin, and both rungs' decision times."""

    index: int
    deal: int
    won: bool
    drawn: bool
    margin: float  # stronger-rung total minus weaker, signed so that positive favours the stronger rung
    times: dict[str, list[float]]


@dataclass(frozen=True)
class LadderGame:
    """What the ladder needs of a game: its engine, seats, scoring sense, the AI's view and the rungs' policies."""

    engine: Engine
    seats: int
    lower_is_better: bool
    view: ViewFn
    policies: Callable[[str], Policy]


def ladder_game_for(name: str) -> LadderGame:
    game = GAMES[name]
    return LadderGame(get_engine(name), game.seats, game.lower_is_better, ladder_view(name),
                      lambda rung: rung_policy(name, rung))


def seats_of(index: int, seats: int) -> set[int]:
    """The stronger rung's seats in match `index`: first on even matches, second on odd (both chairs)."""
    first = index % 2
    return {first} if seats == 2 else {first, first + 2}


def play_ladder_match(game: LadderGame, weaker: str, stronger: str, index: int) -> MatchRecord:
    """Match `index` of a pairing: deal SEED_BASE + index // 2, the stronger rung's seats from `seats_of`."""
    engine = game.engine
    chosen = {weaker: game.policies(weaker), stronger: game.policies(stronger)}
    deal = SEED_BASE + index // 2
    strong_seats = seats_of(index, game.seats)
    state = engine.new_game(game.seats, seed=deal)
    rng = Random(deal)
    times: dict[str, list[float]] = {weaker: [], stronger: []}
    for _ in range(MAX_ACTIONS):
        seat = engine.current_seat(state)
        if seat is None:
            result = engine.result(state)
            if result is not None and result.match_over:
                break
            state = engine.next_round(state)
            continue
        rung = stronger if seat in strong_seats else weaker
        t = time.perf_counter()
        action = chosen[rung](game.view(state, seat), rng)
        times[rung].append(time.perf_counter() - t)
        state, _ = engine.apply(state, seat, action)
    else:
        raise RuntimeError(f"deal {deal}: no match end after {MAX_ACTIONS} actions")
    result = engine.result(state)
    assert result is not None
    winners = set(result.match_winners)
    won = bool(winners) and winners <= strong_seats
    drawn = not won and (not winners or bool(winners & strong_seats))
    mine = statistics.mean(result.totals[s] for s in strong_seats)
    theirs = statistics.mean(result.totals[s] for s in range(game.seats) if s not in strong_seats)
    margin = theirs - mine if game.lower_is_better else mine - theirs
    return MatchRecord(index, deal, won, drawn, margin, times)


def _play_job(job: tuple[str, str, str, int]) -> MatchRecord:
    name, weaker, stronger, index = job
    return play_ladder_match(ladder_game_for(name), weaker, stronger, index)


def play_pairing(game: str, weaker: str, stronger: str, matches: int, jobs: int) -> list[MatchRecord]:
    """The pairing's matches in index order, played in `jobs` worker processes (1: in this one)."""
    work = [(game, weaker, stronger, i) for i in range(matches)]
    if jobs <= 1:
        return [_play_job(w) for w in work]
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        return sorted(pool.imap_unordered(_play_job, work, chunksize=1), key=lambda r: r.index)


@dataclass(frozen=True)
class PairingSummary:
    """What a pairing's records say: the stronger rung's wins with the Wilson interval and the paired margin."""

    matches: int
    wins: int
    draws: int
    low: float
    high: float
    margin: float
    margin_half: float  # half-width of the margin's 95% interval over the deals

    @property
    def rate(self) -> float:
        return self.wins / self.matches if self.matches else float("nan")


def summarise(records: Sequence[MatchRecord]) -> PairingSummary:
    wins = sum(r.won for r in records)
    draws = sum(r.drawn for r in records)
    by_deal: dict[int, list[float]] = {}
    for r in records:
        by_deal.setdefault(r.deal, []).append(r.margin)
    paired = [statistics.mean(v) for v in by_deal.values()]
    half = 1.96 * statistics.stdev(paired) / math.sqrt(len(paired)) if len(paired) > 1 else float("nan")
    lo, hi = wilson(wins, len(records))
    return PairingSummary(len(records), wins, draws, lo, hi, statistics.mean(paired) if paired else float("nan"),
                          half)


def _ms(times: Sequence[float]) -> str:
    if not times:
        return "no decisions"
    return (f"{len(times)}: p50 {percentile(times, 0.5) * 1e3:.2f} ms, p95 {percentile(times, 0.95) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.1f} ms")


def verdict(summaries: dict[str, PairingSummary], times: dict[str, list[float]]) -> str:
    """One line: each of issue 28's goals met, not met, or not measured in this run."""
    parts = []
    sn = summaries.get("normal-strong")
    if sn is None:
        parts.append("strong vs normal: not measured")
    else:
        ok = sn.rate >= STRONG_OVER_NORMAL and sn.low > 0.5
        parts.append(f"strong vs normal {sn.rate:.1%} (low {sn.low:.1%}) {'MET' if ok else 'NOT MET'} "
                     f"(>= {STRONG_OVER_NORMAL:.0%}, low > 50%)")
    nb = summaries.get("baseline-normal")
    if nb is None:
        parts.append("normal vs baseline: not measured")
    else:
        parts.append(f"normal vs baseline {nb.rate:.1%} {'MET' if nb.rate >= NORMAL_OVER_BASELINE else 'NOT MET'} "
                     f"(>= {NORMAL_OVER_BASELINE:.0%})")
    normal = times.get("normal", [])
    if normal:
        p95 = percentile(normal, 0.95)
        parts.append(f"normal p95 {p95 * 1e3:.1f} ms {'MET' if p95 <= NORMAL_P95 else 'NOT MET'}")
    strong = times.get("strong", [])
    if strong:
        p95, top = percentile(strong, 0.95), max(strong)
        ok = p95 <= STRONG_P95 and top <= STRONG_MAX
        parts.append(f"strong p95 {p95 * 1e3:.1f} ms, max {top * 1e3:.0f} ms {'MET' if ok else 'NOT MET'}")
    return "; ".join(parts)


def ladder_game(game: str, pairings: Sequence[str], matches: int, jobs: int) -> dict[str, PairingSummary]:
    seats = "one team per rung (2 seats each)" if GAMES[game].seats == 4 else "one seat per rung"
    print(f"{game}: {seats}, every deal from both chairs, deals from seed {SEED_BASE}")
    if "normal-strong" in pairings and rung_policy(game, "strong") is rung_policy(game, "normal"):
        print("  (strong is the normal policy itself in this game's levels.py)")
    summaries: dict[str, PairingSummary] = {}
    times: dict[str, list[float]] = {}
    for pairing in pairings:
        weaker, stronger = pairing.split("-")
        start = time.perf_counter()
        records = play_pairing(game, weaker, stronger, matches, jobs)
        seconds = time.perf_counter() - start
        for r in records:
            for rung, ts in r.times.items():
                times.setdefault(rung, []).extend(ts)
        s = summarise(records)
        summaries[pairing] = s
        print(f"  {stronger} vs {weaker}: {s.matches} matches, {stronger} won {s.wins} ({s.rate:.1%}, 95% CI "
              f"{s.low:.1%}..{s.high:.1%}), drawn {s.draws}, lost {s.matches - s.wins - s.draws} "
              f"({(s.matches - s.wins - s.draws) / s.matches:.1%} = {weaker}'s wins) | paired margin "
              f"{s.margin:+.1f} +/- {s.margin_half:.1f} points per match over {s.matches // 2 + s.matches % 2} deals "
              f"(positive = {stronger} better) | {seconds:.0f} s")
    for rung in RUNGS:
        if rung in times:
            print(f"    decisions (view + choice) {rung}: {_ms(times[rung])}")
    print(f"  verdict: {verdict(summaries, times)}")
    return summaries


def check_pairings(text: str) -> list[str]:
    """`--pairings` as a list; each pairing is `weaker-stronger` of two rungs, or `greedy`."""
    chosen = [p.strip() for p in text.split(",") if p.strip()]
    for p in chosen:
        if p == "greedy":
            continue
        parts = p.split("-")
        if len(parts) != 2 or not all(r in RUNGS for r in parts) or parts[0] == parts[1]:
            raise SystemExit(f"--pairings: {p!r} is not weaker-stronger of two of {', '.join(RUNGS)} "
                             f"(e.g. {PAIRINGS[1]}), nor greedy")
    return chosen


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ai_matches", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=400, help="seeded matches per game and pairing (two per deal)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games to run")
    parser.add_argument("--pairings", default=",".join(PAIRINGS),
                        help="comma-separated weaker-stronger rungs of " + ", ".join(RUNGS)
                        + ", or greedy (the AI against its greedy baseline, as before)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes playing the ladder's matches")
    parser.add_argument("--no-compare", action="store_true", help="greedy pairing: skip the comparison AIs")
    args, _ = parser.parse_known_args(argv)
    pairings = check_pairings(args.pairings)
    ladder = [p for p in pairings if p != "greedy"]
    for name in args.games.split(","):
        if name.strip() not in GAMES:
            raise SystemExit(f"--games: unknown game {name.strip()!r}; known: {', '.join(GAMES)}")
    if ladder:
        print(f"== AI ladder | {machine()} | jobs {args.jobs}")
        for name in args.games.split(","):
            ladder_game(name.strip(), ladder, args.matches, max(1, args.jobs))
    if "greedy" in pairings:
        print(f"== AI vs greedy matches | {machine()}")
        for name in args.games.split(","):
            game = GAMES[name.strip()]
            if args.no_compare:
                game = Game(game.name, game.ai, game.greedy, game.seats, game.lower_is_better, game.view)
            bench_game(game, args.matches)


if __name__ == "__main__":
    main(sys.argv[1:])
