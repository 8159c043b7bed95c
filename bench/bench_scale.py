"""Many tables at once through one TableService on one SQLite file (WAL), in one process.

`python -m bench.bench_scale [--tables 10,100,1000] [--seconds 8]`. For each table count:

- saturation: every table has a driver that plays its human seats back to back (a closed loop),
  so the service is never idle; durable actions/s is the committed log entries per second (human
  moves, the AI moves they trigger, round deals);
- half load: human moves arrive on a fixed schedule at half the saturation rate (an open loop;
  latency counts from the scheduled arrival, so a stalled loop is not hidden);
- CPU ms per action: process CPU (every thread, the SQLite one included) minus what the bench's
  stand-in players spent choosing their moves, per durable action;
- bytes written per action: what the process handed to write() (/proc/self/io wchar: WAL frames,
  checkpoints), per durable action;
- resume: a fresh store and service on the same file, `resume_all()` over every table in play;
  then every turn deadline passed at once and one `tick()`.

The game mix is seeded: each table draws a game, 2–4 seats (Canasta always 4) and 1..seats humans,
the other seats AI, a 120 s turn timer. Figures only, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from random import Random

from bench.bench_rummikub import machine, percentile
from bot.core.heap import freeze_startup_heap
from bot.core.models import Player
from bot.core.service import TableService
from rules import get_engine
from storage import SqliteStore, TableRecord

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
    latencies: list[float] = field(default_factory=list)
    acts: int = 0
    choose_cpu: float = 0.0  # main-thread CPU the stand-in players spent picking moves
    replaced: int = 0  # tables that finished and were replaced by a new one


def _io_written() -> int:
    try:
        for line in Path("/proc/self/io").read_text().splitlines():
            if line.startswith("wchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


class Table:
    """One chat's table and the people playing it."""

    def __init__(self, service: TableService, index: int, rng: Random) -> None:
        self.service = service
        self.index = index
        self.rng = rng
        self.generation = 0
        self.rec: TableRecord | None = None
        self.busy = False

    async def open(self) -> None:
        game = self.rng.choice(GAMES)
        engine = get_engine(game)
        seats = 4 if game == "canasta" else self.rng.randint(max(2, engine.min_seats), min(4, engine.max_seats))
        humans = self.rng.randint(1, seats)
        chat = f"chat-{self.index}-{self.generation}"
        people = [Player("bench", f"u{self.index}-{self.generation}-{i}", f"P{i}") for i in range(humans)]
        rec = await self.service.open_table(game, "bench", chat, people[0], options=OPTIONS,
                                            seed=self.rng.randrange(2**31))
        for p in people[1:]:
            rec = await self.service.join(rec.id, p)
        for _ in range(seats - humans):
            rec = await self.service.add_ai(rec.id, people[0])
        self.rec = (await self.service.start(rec.id, people[0])).table
        self.generation += 1

    async def step(self, counters: Counters, started: float | None = None) -> None:
        """One human move (and whatever AI moves follow it inside the service)."""
        rec = self.rec
        assert rec is not None and rec.state is not None
        engine = get_engine(rec.game)
        seat = engine.current_seat(rec.state)
        assert seat is not None, "a playing table always has a seat on turn"
        cpu = time.thread_time()
        text = engine.format(engine.ai_action(rec.state, seat, self.rng))
        counters.choose_cpu += time.thread_time() - cpu
        person = rec.seats[seat]
        user = Player("bench", person.user_id or "", person.name)
        begun = time.perf_counter() if started is None else started
        outcome = await self.service.act(rec.id, user, text, key=f"{rec.id}:{rec.version}")
        counters.latencies.append(time.perf_counter() - begun)
        counters.acts += 1
        self.rec = outcome.table
        if self.rec.status != "playing":
            counters.replaced += 1
            await self.open()


async def _saturate(tables: list[Table], seconds: float, counters: Counters) -> None:
    stop = time.perf_counter() + seconds

    async def drive(t: Table) -> None:
        while time.perf_counter() < stop:
            await t.step(counters)

    await asyncio.gather(*(drive(t) for t in tables))


async def _open_loop(tables: list[Table], seconds: float, rate: float, counters: Counters, rng: Random) -> int:
    """Human moves at `rate` per second on a fixed schedule, each to an idle table; returns how many
    arrivals found every table busy (they are skipped: a table's players wait for their own reply)."""
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
        idle = [t for t in rng.sample(tables, min(len(tables), 8)) if not t.busy]
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


async def _durable(store: SqliteStore) -> int:
    """Committed log entries over every table (the durable actions so far)."""
    return sum(t.log_seq for t in await store.list_tables(["lobby", "playing", "finished", "abandoned"]))


@dataclass
class Phase:
    seconds: float
    durable: int
    acts: int
    cpu: float
    written: int
    latencies: list[float]
    replaced: int
    choose: float  # the stand-in players' CPU, left out of `cpu`
    skipped: int = 0

    def line(self, name: str) -> str:
        lat = [x * 1000 for x in self.latencies]
        return (f"   {name}: {self.durable / self.seconds:7.0f} durable actions/s ({self.acts / self.seconds:.0f} "
                f"human moves/s), CPU {1000 * self.cpu / max(self.durable, 1):.2f} ms/action, "
                f"latency p50 {percentile(lat, 0.5):.1f} / p95 {percentile(lat, 0.95):.1f} / "
                f"p99 {percentile(lat, 0.99):.1f} ms, {self.written / max(self.durable, 1):.0f} B written/action, "
                f"process CPU {100 * (self.cpu + self.choose) / self.seconds:.0f} % of one core"
                + (f", {self.skipped} arrivals found all tables busy" if self.skipped else "")
                + (f", {self.replaced} tables finished and replaced" if self.replaced else ""))


async def _phase(store: SqliteStore, run: object, counters: Counters) -> Phase:
    before = await _durable(store)
    cpu, written, wall = time.process_time(), _io_written(), time.perf_counter()
    skipped = await run  # type: ignore[misc]
    wall, cpu, written = time.perf_counter() - wall, time.process_time() - cpu, _io_written() - written
    durable = await _durable(store) - before
    return Phase(wall, durable, counters.acts, cpu - counters.choose_cpu, written, counters.latencies,
                 counters.replaced, counters.choose_cpu, skipped or 0)


async def _bench(n_tables: int, seconds: float, folder: Path, seed: int) -> None:
    path = str(folder / f"scale-{n_tables}.db")
    clock = ShiftClock()
    store = SqliteStore(path)
    await store.open()
    counter = iter(range(10**9))
    service = TableService(store, clock, new_table_id=lambda: f"t{next(counter):06d}")
    rng = Random(seed)
    tables = [Table(service, i, Random(rng.randrange(2**31))) for i in range(n_tables)]
    setup = time.perf_counter()
    await asyncio.gather(*(t.open() for t in tables))
    setup = time.perf_counter() - setup
    mix: dict[str, int] = {}
    for t in tables:
        assert t.rec is not None
        mix[t.rec.game] = mix.get(t.rec.game, 0) + 1
    freeze_startup_heap()  # what a bot does once its tables are resumed (Scheduler.start)
    print(f"-- {n_tables} tables ({', '.join(f'{g} {c}' for g, c in sorted(mix.items()))}; "
          f"opened and dealt in {setup:.1f} s)")

    await _saturate(tables, min(1.0, seconds / 4), Counters())  # warm-up: caches, first deals
    full = await _phase(store, _saturate(tables, seconds, counters := Counters()), counters)
    print(full.line("saturation"))
    rate = max(full.acts / full.seconds / 2, 1.0)
    half = await _phase(store, _open_loop(tables, seconds, rate, counters := Counters(), rng), counters)
    print(half.line("half load "))
    writer = getattr(store, "writer", None)  # absent before group commit (bench of older commits)
    if writer is not None:
        st = writer.stats
        print(f"   writer: {st.writes} writes in {st.batches} transactions (largest {st.largest_batch}), "
              f"{st.checkpoints} background checkpoints, {st.forced} forced, WAL at most {st.wal_high_water >> 20} MB")
    await store.close()

    # A restart: a new store and service over the same file.
    store = SqliteStore(path)
    started = time.perf_counter()
    await store.open()
    service = TableService(store, clock)
    resumed = await service.resume_all()
    resume = time.perf_counter() - started
    clock.shift += 10 * OPTIONS["turn_timer_s"]
    started = time.perf_counter()
    timeouts = await service.tick()
    overdue = time.perf_counter() - started
    await store.close()
    print(f"   resume: {len(resumed)} tables in {resume * 1000:.0f} ms (open + resume_all); "
          f"{len(timeouts)} overdue timeouts in {overdue * 1000:.0f} ms (one tick)")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_scale")
    parser.add_argument("--tables", default="10,100,1000", help="comma-separated table counts")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of each measured phase")
    parser.add_argument("--dir", default=None, help="folder for the database (default: a temporary one)")
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--switch-interval", type=float, default=None,
                        help="sys.setswitchinterval for the run (how long a thread may wait for the GIL)")
    args, _ = parser.parse_known_args(argv)
    if args.switch_interval is not None:
        sys.setswitchinterval(args.switch_interval)
    print(f"== many tables, one service, one SQLite file ({machine()})")
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        for n in (int(x) for x in args.tables.split(",")):
            asyncio.run(_bench(n, args.seconds, Path(tmp), args.seed))


if __name__ == "__main__":
    main(sys.argv[1:])
