"""Three-Thirteen benchmarks: `python -m bench.bench_three_thirteen [--matches N ...]`.

Figures only (p50, p95, max), never assertions: they go into the issue note with the machine line.
- exact deadwood (T13-37) on 13- and 14-card hands with 0..4 wilds, uncached: random hands from the
  two decks, and "dense" hands from a narrow rank window of two suits (many melds to choose from);
- AI decision time over the positions of seeded 4-player matches;
- AI vs the greedy baseline over seeded 4-player matches (2 AI + 2 greedy seats, swapped every
  other seed): average match total per seat (lower is better) and the share of matches won; then
  the same seeds with four greedy seats, so the paired difference (AI side - greedy side, minus the
  same seats' gap among greedy players) cancels deal and seat luck, with a rough 95% interval.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from rules import get_engine
from rules.core.cards import RANKS, SUITS, card_deck
from rules.core.engine import Action, State
from rules.three_thirteen import deadwood as dw
from rules.three_thirteen.ai import choose_action, choose_greedy_action

ENGINE = get_engine("three_thirteen")
MAX_ACTIONS = 5000
Policy = Callable[[dict[str, Any], Random], Action]


def _hand(rng: Random, size: int, wilds: int, wild_rank: int, dense: bool) -> list[str]:
    wild_cards = ["JK"] * 4 + [RANKS[wild_rank - 1] + s for s in SUITS] * 2
    if dense:
        low = rng.randint(0, 8)
        suits = rng.sample(SUITS, 2)
        naturals = [RANKS[r] + s for r in range(low, low + 5) for s in suits if r + 1 != wild_rank] * 2
    else:
        naturals = [c for c in card_deck(2) if dw.rank_of(c) != wild_rank]
    while True:
        hand = rng.sample(naturals, size - wilds) + rng.sample(wild_cards, wilds)
        counts = Counter(hand)
        if all(n <= (4 if c == "JK" else 2) for c, n in counts.items()):
            return hand


def bench_deadwood(hands: int) -> None:
    """Cold `arrange` time (best melds + exact deadwood) per hand size, wild count and hand shape."""
    rng = Random(13)
    for dense in (False, True):
        for size in (13, 14):
            for wilds in range(5):
                times: list[float] = []
                for _ in range(hands):
                    hand = _hand(rng, size, wilds, 13, dense)
                    dw._arrange.cache_clear()  # cold: no memo of this hand, nor of meld shapes
                    dw._melds_around.cache_clear()
                    t = time.perf_counter()
                    dw.arrange(hand, 13, False)
                    times.append(time.perf_counter() - t)
                print(
                    f"deadwood {'dense ' if dense else 'random'} {size} cards, {wilds} wilds: "
                    f"p50 {percentile(times, 0.5) * 1e3:.2f} ms | p95 {percentile(times, 0.95) * 1e3:.2f} ms | "
                    f"max {max(times) * 1e3:.2f} ms ({hands} hands)"
                )


def play_match(seed: int, policies: Sequence[Policy], options: dict[str, Any] | None = None,
               timer: list[float] | None = None) -> State:
    """One seeded match; `timer` collects the decision time of every move."""
    state = ENGINE.new_game(len(policies), options=options, seed=seed)
    rng = Random(seed)
    for _ in range(MAX_ACTIONS):
        seat = ENGINE.current_seat(state)
        if seat is None:
            if state["match_over"]:
                return state
            state = ENGINE.next_round(state)
            continue
        t = time.perf_counter()
        action = policies[seat](ENGINE.view(state, seat), rng)
        if timer is not None:
            timer.append(time.perf_counter() - t)
        state, _ = ENGINE.apply(state, seat, action)
    raise RuntimeError(f"seed {seed}: no match end after {MAX_ACTIONS} actions")


def bench_decisions(matches: int) -> None:
    times: list[float] = []
    start = time.perf_counter()
    for seed in range(matches):
        play_match(10_000 + seed, [choose_action] * 4, timer=times)
    print(
        f"AI decision (view + choice): {len(times)} moves from {matches} 4-player matches | "
        f"median {statistics.median(times) * 1e3:.2f} ms | p95 {percentile(times, 0.95) * 1e3:.2f} ms | "
        f"max {max(times) * 1e3:.1f} ms | {time.perf_counter() - start:.1f} s"
    )


def _side_means(totals: Sequence[int], ai_seats: set[int]) -> tuple[float, float]:
    ai = [t for s, t in enumerate(totals) if s in ai_seats]
    rest = [t for s, t in enumerate(totals) if s not in ai_seats]
    return statistics.mean(ai), statistics.mean(rest)


def ai_vs_greedy(matches: int, first_seed: int = 0, policy: Policy = choose_action,
                 paired: bool = True) -> dict[str, float]:
    """`matches` seeded 4-player matches, the AI in seats {0, 2} on even seeds and {1, 3} on odd ones,
    the greedy baseline in the others. With `paired`, each seed is also played by four greedy seats:
    the same deals, so (AI side - greedy side) minus the same seats' gap among four greedy players
    cancels the luck of the deal and the seat; its mean and a 95% interval are returned."""
    ai_totals: list[int] = []
    greedy_totals: list[int] = []
    diffs: list[float] = []
    ai_wins = greedy_wins = draws = 0
    for i in range(matches):
        seed = first_seed + i
        ai_seats = {0, 2} if seed % 2 == 0 else {1, 3}
        policies = [policy if s in ai_seats else choose_greedy_action for s in range(4)]
        final = play_match(seed, policies)
        for s, total in enumerate(final["totals"]):
            (ai_totals if s in ai_seats else greedy_totals).append(total)
        winners = final["match_winners"]
        if not winners:
            draws += 1
        elif winners[0] in ai_seats:
            ai_wins += 1
        else:
            greedy_wins += 1
        if paired:
            mixed = _side_means(final["totals"], ai_seats)
            base = _side_means(play_match(seed, [choose_greedy_action] * 4)["totals"], ai_seats)
            diffs.append((mixed[0] - mixed[1]) - (base[0] - base[1]))
    out: dict[str, float] = {
        "ai_avg": statistics.mean(ai_totals), "greedy_avg": statistics.mean(greedy_totals),
        "ai_wins": ai_wins, "greedy_wins": greedy_wins, "draws": draws, "matches": matches,
    }
    if len(diffs) > 1:
        out["paired_diff"] = statistics.mean(diffs)
        out["paired_ci95"] = 1.96 * statistics.stdev(diffs) / len(diffs) ** 0.5
    return out


def bench_win_rate(matches: int) -> None:
    t = time.perf_counter()
    r = ai_vs_greedy(matches)
    print(
        f"AI vs greedy: {r['matches']} seeded 4-player 11-round matches (2 AI + 2 greedy seats, swapped every "
        f"other seed): average match total per seat AI {r['ai_avg']:.1f} vs greedy {r['greedy_avg']:.1f} "
        f"(lower is better); matches won AI {r['ai_wins']}, greedy {r['greedy_wins']}, no winner {r['draws']} "
        f"| {time.perf_counter() - t:.1f} s"
    )
    if "paired_diff" in r:
        print(
            f"  paired against greedy-vs-greedy on the same seeds (same deals and seats): AI side minus greedy "
            f"side {r['paired_diff']:+.2f} points per match total, 95% CI +/- {r['paired_ci95']:.2f} "
            f"(negative = the AI scores less)"
        )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_three_thirteen", description=__doc__)
    parser.add_argument("--deadwood-hands", type=int, default=200, help="hands timed per (size, wilds, shape)")
    parser.add_argument("--decision-matches", type=int, default=10, help="4-player AI matches timing decisions")
    parser.add_argument("--matches", type=int, default=200, help="AI vs greedy 4-player matches")
    args, _ = parser.parse_known_args(argv)
    print(f"== Three-Thirteen bench | {machine()}")
    bench_deadwood(args.deadwood_hands)
    bench_decisions(args.decision_matches)
    bench_win_rate(args.matches)


if __name__ == "__main__":
    main(sys.argv[1:])
