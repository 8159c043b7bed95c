"""Every game's AI against its greedy baseline: `python -m bench.bench_ai_matches [--matches N] [--games a,b]`.

Figures only, never assertions (they go into the issue note with the machine line):
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
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from rules import get_engine
from rules.canasta import ai as canasta_ai
from rules.canasta.actions import Discard as CanastaDiscard
from rules.canasta.views import build_view as canasta_view
from rules.core.engine import Action, Engine, State
from rules.core.errors import IllegalAction
from rules.rummikub import ai as rummikub_ai
from rules.rummy101 import ai as rummy101_ai
from rules.rummy500 import ai as rummy500_ai
from rules.three_thirteen import ai as three_thirteen_ai
from rules.three_thirteen import ai_previous as three_thirteen_previous
from rules.three_thirteen import ai_strong as three_thirteen_strong

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
                                    "former strong level (pile record, next seat's takes)":
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


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ai_matches", description=__doc__)
    parser.add_argument("--matches", type=int, default=200, help="seeded matches per game (two per deal)")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games to run")
    parser.add_argument("--no-compare", action="store_true", help="skip the comparison AIs")
    args, _ = parser.parse_known_args(argv)
    print(f"== AI vs greedy matches | {machine()}")
    for name in args.games.split(","):
        game = GAMES[name.strip()]
        if args.no_compare:
            game = Game(game.name, game.ai, game.greedy, game.seats, game.lower_is_better, game.view)
        bench_game(game, args.matches)


if __name__ == "__main__":
    main(sys.argv[1:])
