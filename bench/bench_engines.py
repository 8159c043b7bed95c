"""The engines' share of an action, without the service: `python -m bench.bench_engines`.

What `TableService.act` asks of an engine per human move, in the order it asks it: `parse` of the
typed command, `apply`, `format`, `result` and `next_round` after a round, the AI seats' moves that
follow (`ai_action`, `apply`, `format`), then `views` for the public and every human seat. Tables
are opened with bench_scale's game mix (2–4 seats, 1..seats humans) and played round robin, one
human move each per pass, so the engines' content caches see many tables in between a table's two
moves, as they do with 1 000 tables in one service. The stand-in humans' own choices
(`ai_action` for a human seat) are made outside the stopwatch, as in bench_scale.

Each run prints CPU µs per durable action (human moves + AI moves + round deals) by game and by
part, and a digest of everything the engines returned (events, views, AI choices): two versions of
the engines that behave the same print the same digest. Figures only, never assertions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from random import Random
from typing import Any

from bench.bench_rummikub import machine
from rules import Engine, State, get_engine
from rules.core.deck import rng_for

GAMES = ["rummikub", "rummy101", "rummy500", "canasta", "three_thirteen"]
PARTS = ["parse", "apply", "format", "result", "next_round", "ai", "views"]
OPTIONS = {"turn_timer_s": 120}


@dataclass
class Stopwatch:
    """Thread CPU per (game, part), and the count of durable actions per game."""

    ns: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    durable: dict[str, int] = field(default_factory=lambda: defaultdict(int))

    @contextmanager
    def part(self, game: str, name: str) -> Iterator[None]:
        started = time.thread_time_ns()
        try:
            yield
        finally:
            self.ns[game, name] += time.thread_time_ns() - started


@dataclass
class Table:
    game: str
    engine: Engine
    state: State
    humans: list[int]
    seed: int
    rng: Random  # the stand-in humans' choices
    seq: int = 0  # log position, which seeds the AI's moves as in the service


def open_table(rng: Random) -> Table:
    game = rng.choice(GAMES)
    engine = get_engine(game)
    seats = 4 if game == "canasta" else rng.randint(max(2, engine.min_seats), min(4, engine.max_seats))
    humans = rng.randint(1, seats)
    seed = rng.randrange(2**31)
    state = engine.new_game(seats, options=OPTIONS, seed=seed)
    return Table(game, engine, state, list(range(humans)), seed, Random(seed))


def _digest_views(trace: Any, public: dict[str, Any], private: dict[int, dict[str, Any]]) -> None:
    trace.update(json.dumps([public, sorted(private.items())], sort_keys=True, default=repr).encode())


def _after_round(t: Table, watch: Stopwatch, trace: Any) -> bool:
    """Round over: the next deal, or False when the match is over."""
    with watch.part(t.game, "result"):
        result = t.engine.result(t.state)
    if result is None:
        return True
    trace.update(result.model_dump_json().encode())
    if result.match_over:
        return False
    with watch.part(t.game, "next_round"):
        t.state = t.engine.next_round(t.state)
    t.seq += 1
    watch.durable[t.game] += 1
    return True


def _applied(t: Table, watch: Stopwatch, trace: Any, seat: int, action: Any) -> bool:
    """`action` applied and formatted for the log (both timed), traced; False once the match is over."""
    eng, game = t.engine, t.game
    with watch.part(game, "apply"):
        t.state, events = eng.apply(t.state, seat, action)
    with watch.part(game, "format"):
        command = eng.format(action)
    trace.update(json.dumps([command, [e.to_json() for e in events]], default=repr).encode())
    t.seq += 1
    watch.durable[game] += 1
    return _after_round(t, watch, trace)


def step(t: Table, watch: Stopwatch, trace: Any) -> bool:
    """One human move and the AI moves after it; False once the match is over."""
    eng, game = t.engine, t.game
    seat = eng.current_seat(t.state)
    assert seat is not None
    text = eng.format(eng.ai_action(t.state, seat, t.rng))  # the stand-in human: not timed
    with watch.part(game, "parse"):
        action = eng.parse(text)
    going = _applied(t, watch, trace, seat, action)
    while going and (seat := eng.current_seat(t.state)) is not None and seat not in t.humans:
        with watch.part(game, "ai"):
            ai = eng.ai_action(t.state, seat, rng_for(t.seed, "ai", t.seq))
        going = _applied(t, watch, trace, seat, ai)
    with watch.part(game, "views"):
        public, private = eng.views(t.state, t.humans)
    _digest_views(trace, public, private)
    return going


def clear_rule_caches() -> None:
    """Every memo in rules/ forgotten, so each run starts as cold as the first (the content caches
    would otherwise answer a second run's identical positions for free)."""
    for name, module in list(sys.modules.items()):
        if name.startswith("rules."):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()


def run(n_tables: int, moves: int, seed: int) -> tuple[Stopwatch, dict[str, str]]:
    """`moves` passes over `n_tables` tables (a finished match is replaced by a new table), from cold caches."""
    clear_rule_caches()
    rng = Random(seed)
    tables = [open_table(rng) for _ in range(n_tables)]
    watch, traces = Stopwatch(), {g: hashlib.sha256() for g in GAMES}
    for _ in range(moves):
        for i, t in enumerate(tables):
            if not step(t, watch, traces[t.game]):
                tables[i] = open_table(rng)
    return watch, {g: h.hexdigest()[:12] for g, h in traces.items()}


def _report(runs: list[Stopwatch]) -> None:
    games = sorted({g for w in runs for g in w.durable})
    print(f"   µs per durable action, median of {len(runs)} runs ({' '.join(PARTS)} | all):")
    totals = []
    for game in [*games, "all"]:
        pick = games if game == "all" else [game]
        cells = []
        for part in [*PARTS, None]:
            per_run = []
            for w in runs:
                ns = sum(w.ns[g, p] for g in pick for p in ([part] if part else PARTS))
                per_run.append(ns / 1000 / max(sum(w.durable[g] for g in pick), 1))
            cells.append(statistics.median(per_run))
        if game == "all":
            totals = cells
        print(f"   {game:>15}: " + " ".join(f"{c:7.1f}" for c in cells[:-1]) + f" | {cells[-1]:7.1f}")
    print(f"   engines in all: {totals[-1]:.1f} µs per durable action")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_engines")
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--moves", type=int, default=12, help="human moves per table")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=15)
    args, _ = parser.parse_known_args(argv)
    print(f"== the engines' CPU per action, as the table service calls them ({machine()})")
    runs, digests = [], []
    for _ in range(args.runs):
        watch, digest = run(args.tables, args.moves, args.seed)
        runs.append(watch)
        digests.append(digest)
    print(f"   {args.tables} tables x {args.moves} human moves, {sum(runs[0].durable.values())} durable actions a run")
    for game in GAMES:
        print(f"   digest {game}: {', '.join(sorted({d[game] for d in digests}))}")
    _report(runs)


if __name__ == "__main__":
    main(sys.argv[1:])
