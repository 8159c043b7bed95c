"""The AI levels against each other: `python -m bench.bench_ai_levels [--matches N] [--games a,b]`.

Figures only, never assertions (issue 16: "easy loses to normal" in every game). Same method and
seeds as bench/bench_ai_matches.py (its `head_to_head`): N seeded matches per game, every deal
played from both chairs, one seat per level (Canasta: one team per level). For each game:
- normal vs easy: the normal AI's wins, draws, losses with a 95% Wilson interval and the paired
  score margin per match (positive = normal better);
- strong vs normal where strong is another policy (Rummikub: the solver's budget x10; Rummy 500,
  Rummy 101 and Three-Thirteen: the determinized search of rules/core/search_pimc.py); in Canasta
  strong is the normal AI itself (rules/canasta/levels.py), so there is nothing to measure;
- decision times (view + choice) of each side, p50/p95/max.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from importlib import import_module

from bench.bench_ai_matches import GAMES, Game, Tally, head_to_head, wilson
from bench.bench_rummikub import machine, percentile
from rules.core.levels import Level, Policy


def policies(game: str) -> dict[Level, Policy]:
    return import_module(f"rules.{game}.levels").POLICIES


def _times(times: list[float]) -> str:
    return (f"p50 {percentile(times, 0.5) * 1e3:.2f} ms, p95 {percentile(times, 0.95) * 1e3:.2f} ms, "
            f"max {max(times) * 1e3:.1f} ms")


def report(better: str, worse: str, tally: Tally, seconds: float) -> None:
    lo, hi = wilson(tally.wins, tally.matches)
    paired = [statistics.mean(v) for v in tally.margins.values()]
    half = 1.96 * statistics.stdev(paired) / math.sqrt(len(paired)) if len(paired) > 1 else float("nan")
    lost = tally.matches - tally.wins - tally.draws
    print(f"  {better} vs {worse}: {tally.matches} matches, {better} won {tally.wins} ({tally.wins / tally.matches:.1%}, "
          f"95% CI {lo:.1%}..{hi:.1%}), drawn {tally.draws}, lost {lost} | paired margin "
          f"{statistics.mean(paired):+.1f} +/- {half:.1f} points per match over {len(paired)} deals "
          f"(positive = {better} better) | {seconds:.0f} s")
    print(f"    decisions (view + choice): {better} {len(tally.ai_times)}: {_times(tally.ai_times)} | "
          f"{worse} {len(tally.greedy_times)}: {_times(tally.greedy_times)}")
    if tally.judgement is not None:
        for line in tally.judgement.lines():  # "AI" is the first level named, "greedy" the second
            print(f"    {line.replace('AI ', better + ' ', 1).replace('greedy ', worse + ' ', 1)}")


def bench_game(game: Game, matches: int) -> None:
    levels = policies(game.name)
    seats = "one team per level (2 seats each)" if game.seats == 4 else "one seat per level"
    print(f"{game.name}: {seats}, seating alternated, deals as bench_ai_matches")
    pairs: list[tuple[Level, Level]] = [("normal", "easy")]
    if levels["strong"] is not levels["normal"]:
        pairs.append(("strong", "normal"))
    else:
        print("  strong: the normal AI itself in this game (nothing stronger yet): not measured")
    for better, worse in pairs:
        start = time.perf_counter()
        # head_to_head seats `ai` against `greedy`: here the two levels.
        tally = head_to_head(replace(game, greedy=levels[worse], compare={}), levels[better], matches)
        report(better, worse, tally, time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_ai_levels", description=__doc__)
    parser.add_argument("--matches", type=int, default=200, help="seeded matches per game and pair of levels")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated games to run")
    args, _ = parser.parse_known_args(argv)
    print(f"== AI levels head to head | {machine()}")
    for name in args.games.split(","):
        bench_game(GAMES[name.strip()], args.matches)


if __name__ == "__main__":
    main(sys.argv[1:])
