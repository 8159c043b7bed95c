"""CPU spent building views per action, through the table service: `python -m bench.bench_views`.

Seeded matches of every game with human seats only (every outcome has a view to build for every
seat), played with the game's AI choosing each human's move and `TableService.act` applying it, on
a MemoryStore so the store's I/O does not hide the CPU. Each game is played twice from the same
seeds — once with the old path (`fresh_views=True`: `engine.view` again for the public view and
every human seat) and once with the shared path (`engine.views`) — so the two columns are the same
actions. Figures only (medians, p95, ratios), never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from random import Random
from typing import Any

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from bot.core.models import Outcome, Player
from bot.core.service import TableService
from rules import Engine, State, get_engine
from rules.core.memo import clear_view_caches
from storage import MemoryStore, TableRecord

# Seats that play well per game (README), every one a human here.
SEATS = {"rummikub": 4, "rummy101": 3, "rummy500": 3, "canasta": 4, "three_thirteen": 4}
OPTIONS: dict[str, dict[str, Any]] = {"rummy101": {"match_rounds": 1}, "canasta": {"match_length": "1 round"},
                                      "three_thirteen": {"rounds": 5}, "rummy500": {"target_score": 100}}


class ColdViews:
    """An engine whose `view` starts from cold caches each call: what `engine.view` cost before
    views shared their analysis and remembered their hints (the "before" column)."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def __getattr__(self, name: str) -> Any:
        return getattr(self._engine, name)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        clear_view_caches()
        return self._engine.view(state, seat)


class TimedService(TableService):
    """The service with a stopwatch on view building (process CPU time, so other agents' load on
    a shared machine counts less than wall time would)."""

    view_ns = 0

    def engine_for(self, rec: TableRecord) -> Engine:
        engine = get_engine(rec.game)
        return ColdViews(engine) if self._fresh_views else engine  # type: ignore[return-value]

    def _with_views(self, outcome: Outcome) -> Outcome:
        started = time.process_time_ns()
        try:
            return super()._with_views(outcome)
        finally:
            self.view_ns += time.process_time_ns() - started


async def play(game: str, seed: int, fresh: bool, max_actions: int) -> list[tuple[int, int]]:
    """One seeded match; per action (CPU ns of the whole `act`, CPU ns of its view building)."""
    store = MemoryStore()
    await store.open()
    service = TimedService(store, FakeClock(), new_seed=lambda: seed, fresh_views=fresh)
    players = [Player("bench", str(i), f"P{i}") for i in range(SEATS[game])]
    rec = await service.open_table(game, "bench", f"c{seed}", players[0], options=OPTIONS.get(game), seed=seed)
    for p in players[1:]:
        await service.join(rec.id, p)
    outcome = await service.start(rec.id, players[0])
    engine = get_engine(game)
    rng = Random(seed)
    per_action = []
    while outcome.table.status == "playing" and len(per_action) < max_actions:
        state = outcome.table.state
        assert state is not None
        seat = engine.current_seat(state)
        assert seat is not None
        action = engine.ai_action(state, seat, rng)
        before_views = service.view_ns
        started = time.process_time_ns()
        outcome = await service.act(rec.id, players[seat], action)
        per_action.append((time.process_time_ns() - started, service.view_ns - before_views))
    await store.close()
    return per_action


def _line(label: str, values_us: list[float]) -> str:
    return f"median {statistics.median(values_us):7.1f} µs, p95 {percentile(values_us, 0.95):7.1f} µs  ({label})"


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_views")
    parser.add_argument("--view-games", type=int, default=3, help="seeded matches per game")
    parser.add_argument("--view-actions", type=int, default=400, help="actions per match at most")
    parser.add_argument("--view-game", action="append", help="only these games")
    args, _ = parser.parse_known_args(argv)
    print(f"== views per action through TableService + MemoryStore, human seats only ({machine()})")
    for game in args.view_game or list(SEATS):
        rows: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
        for i in range(args.view_games):
            for fresh in (True, False):  # interleaved, so a load spike on the machine hits both
                rows[fresh].extend(asyncio.run(play(game, 100 + i, fresh, args.view_actions)))
        print(f"   {game}: {SEATS[game]} human seats, {len(rows[True])} actions")
        medians = {}
        for fresh, label in ((True, "before: engine.view per seat"), (False, "after: engine.views, shared")):
            views = [v / 1000 for _, v in rows[fresh]]
            total = [a / 1000 for a, _ in rows[fresh]]
            medians[fresh] = statistics.median(views)
            share = sum(views) / sum(total)
            print(f"     views  {_line(label, views)}; {share:.0%} of the action's CPU")
            print(f"     action {_line(label, total)}")
        print(f"     views before/after: {medians[True] / medians[False]:.1f}x (medians)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
