"""The terminal's answer time: `python -m bench.bench_console [--turns N] [--seeds K]` (figures only).

For every game, K seeded terminal tables (you and AI seats, SQLite in a temporary folder, a fake
clock) where your seat types the game AI's move: the time from a line typed to the next prompt
(the move stored, the AI turns played, the table, rack and event lines laid out, the prompt's
moves built; run it in a tree before issue 13 for the figure without them), p50/p95 over up to N of your turns per table; and, on its own, the time to build the
prompt's moves line (`ConsoleTable.moves_line`, the legal moves of issue 13).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from random import Random

from bench.bench_rummikub import machine, percentile
from bot.console.app import YOU, ConsoleTable
from bot.core.clock import FakeClock
from bot.core.service import TableService
from rules import engine_names, get_engine
from storage import SqliteStore

OPPONENTS = {"canasta": 3}  # the others: two AI seats, three players


async def one_table(game: str, seed: int, turns: int, folder: Path) -> tuple[list[float], list[float]]:
    store = SqliteStore(str(folder / f"{game}-{seed}.db"))
    await store.open()
    engine = get_engine(game)
    answer_times: list[float] = []
    prompt_times: list[float] = []
    typed_at: list[float] = []
    table: ConsoleTable | None = None

    async def read() -> str | None:
        now = time.perf_counter()
        if typed_at:
            answer_times.append(now - typed_at[-1])
        rec = await store.active_table_for_chat("console", "terminal")
        if rec is None or rec.status != "playing" or len(answer_times) >= turns:
            return None
        if table is not None and hasattr(table, "moves_line"):  # the prompt's moves (absent before issue 13)
            t = time.perf_counter()
            table.moves_line(rec, YOU)
            prompt_times.append(time.perf_counter() - t)
        line = engine.format(engine.ai_action(rec.state, 0, Random(rec.log_seq)))
        typed_at.append(time.perf_counter())
        return line + "\n"

    service = TableService(store, FakeClock())
    # The prompt's moves are built as the real terminal builds them (before issue 13 there were none).
    with_prompt = "prompt" in inspect.signature(ConsoleTable).parameters
    table = ConsoleTable(service, read, lambda text: None, "en", **({"prompt": lambda text: None} if with_prompt else {}))
    rec = await table.open_new(game, OPPONENTS.get(game, 2), {"turn_timer_s": 0}, seed)
    await table.play(rec)
    await store.close()
    return answer_times, prompt_times


async def bench(turns: int, seeds: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for game in engine_names():
            answers: list[float] = []
            prompts: list[float] = []
            for seed in range(seeds):
                a, p = await one_table(game, 100 + seed, turns, Path(tmp))
                answers += a
                prompts += p
            line = (f"{game}: {len(answers)} turns: answer p50 {percentile(answers, 0.5) * 1e3:.1f} ms, "
                    f"p95 {percentile(answers, 0.95) * 1e3:.1f} ms")
            if prompts:
                line += (f" | prompt moves p50 {percentile(prompts, 0.5) * 1e3:.2f} ms, "
                         f"p95 {percentile(prompts, 0.95) * 1e3:.2f} ms")
            print(line)


def main(argv: Sequence[str] = ()) -> None:
    parser = argparse.ArgumentParser(prog="bench_console")
    parser.add_argument("--turns", type=int, default=40)
    parser.add_argument("--seeds", type=int, default=3)
    args, _ = parser.parse_known_args(list(argv))
    print(f"== bench_console ({machine()})")
    asyncio.run(bench(args.turns, args.seeds))


if __name__ == "__main__":
    main(sys.argv[1:])
