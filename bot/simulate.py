"""AI-only matches through the real table service and store: a smoke test and a throughput figure."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bot.core.clock import Clock
from bot.core.models import Player
from bot.core.service import TableService
from storage import Store

SIM_HOST = Player("sim", "host", "Simulator")


@dataclass
class SimulationSummary:
    matches: int = 0
    rounds: int = 0
    actions: int = 0
    seconds: float = 0.0
    wins: list[int] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    round_ends: dict[str, int] = field(default_factory=dict)

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds else 0.0


async def simulate(
    store: Store,
    game: str,
    games: int,
    seed: int,
    seats: int,
    options: dict | None = None,
    clock: Clock | None = None,
) -> SimulationSummary:
    """Play `games` AI-only matches, each seeded `seed + i`; every move is committed to `store`."""
    counter = iter(range(10**9))
    service = TableService(store, clock, new_table_id=lambda: f"sim-{seed}-{next(counter)}")
    summary = SimulationSummary(wins=[0] * seats, totals=[0] * seats)
    started = time.perf_counter()
    for i in range(games):
        rec = await service.open_table(
            game, "sim", f"sim-{seed}-{i}", SIM_HOST, options=options, seed=seed + i, seat_host=False
        )
        for _ in range(seats):
            rec = await service.add_ai(rec.id, SIM_HOST)
        outcome = await service.start(rec.id, SIM_HOST)
        final = outcome.table
        summary.matches += 1
        summary.actions += final.log_seq
        for result in outcome.results:
            summary.rounds += 1
            reason = str(result.details.get("reason", "?"))
            summary.round_ends[reason] = summary.round_ends.get(reason, 0) + 1
        last = outcome.results[-1] if outcome.results else None
        if last is not None and last.match_over:
            for w in last.match_winners:
                summary.wins[w] += 1
            summary.totals = [a + b for a, b in zip(summary.totals, last.totals, strict=True)]
    summary.seconds = time.perf_counter() - started
    return summary
