"""bench/bench_scale.py's people: they pick their moves in a process of their own, ahead of time.

A person thinks in their head, not on the bot's event loop: were the bench's stand-ins to run the
AI that picks their moves (the Rummikub solver: tens of milliseconds) on the loop, every other
table's move would queue behind them and the bench would measure itself. So a table's player picks
the next move while the table waits for them (right after it settled), in this one worker process,
and a scheduled arrival finds the move in hand. Also here: the CPU of the service's AI workers,
which `time.process_time` does not see.

The people play as each game's easy AI (its greedy baseline), not as the normal AI the service's AI
seats play: the normal Three-Thirteen AI took 3.7 ms a move and Rummikub's 1.1 ms, the easy ones
0.05-0.33 ms, so the players' process took a third of a core on this 2-core machine from the
service it measures. The game mix is drawn as before and the games still end (the easy AI melds
and goes out); only what the people choose, and so the games' course, differ.
"""

from __future__ import annotations

import os
from pathlib import Path
from random import Random

from bot.core.ai_pool import AiPool
from rules import State, get_engine

PEOPLE_LEVEL = "easy"  # see the module doc


def choose(game: str, state: State, seat: int, seed: int) -> str:
    engine = get_engine(game)
    return engine.format(engine.ai_action(state, seat, Random(seed), PEOPLE_LEVEL))


class Players:
    """One worker process, fed through pipes the event loop serves itself, like the service's AI
    pool (bot/core/ai_pool.py): no executor threads in the bench process to wait for the GIL."""

    def __init__(self) -> None:
        self._pool = AiPool(1)
        self.pid = 0

    async def start(self) -> None:
        self.pid = await self._pool.call(os.getpid)

    async def move(self, game: str, state: State, seat: int, seed: int) -> str:
        text: str = await self._pool.call(choose, game, state, seat, seed)
        return text

    def close(self) -> None:
        self._pool.close()


def _cpu(stat: list[str]) -> float:
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def players_cpu(players: Players) -> float:
    """CPU seconds so far of the players' process (the load generator, not the service)."""
    try:
        return _cpu(Path(f"/proc/{players.pid}/stat").read_text().rsplit(")", 1)[1].split())
    except (OSError, IndexError, ValueError):
        return 0.0


def workers_cpu(players: Players) -> float:
    """CPU seconds so far of this process's worker processes (the service's AI pool) but the players'."""
    total, me = 0.0, os.getpid()
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == players.pid:
            continue
        try:
            stat = (proc / "stat").read_text().rsplit(")", 1)[1].split()
            if int(stat[1]) == me and b"--multiprocessing-fork" in (proc / "cmdline").read_bytes():
                total += _cpu(stat)
        except (OSError, IndexError, ValueError):
            continue  # a process that ended meanwhile
    return total
