"""The web server under hostile clients: `python -m bench.bench_hostile [--only NAME ...]`.

Each attack gets a fresh server process and a separate attacker process, so the attacker never runs
on the server's event loop. The server is what `rummyclub run` is with a Telegram token and WEB_PORT
(bot/telegram/app.serve): the Telegram bot, polling the fake Bot API (tests/telegram) that this process
runs, and the web table (bot/running.web_table) on one loop, over a SQLite store with a two-player
Rummikub table. Inside the server a ticker sleeps 2 ms in a loop and keeps the largest lateness: the
loop's longest stall, reported over the server's stdin/stdout (the bench's pipe, not an HTTP
endpoint). Meanwhile this process asks for the page (`/table/<id>`) and the seat's API answer every
100 ms on fresh connections from 127.0.0.1 (the attackers use 127.0.0.2 and up), sends a private
`/start` through the fake Bot API every ~100 ms and times the bot's reply, and watches the server's
listen queue and the kernel's count of connections it dropped; all beside the stall.

Attacks (a few seconds each): huge picks (a move press and a GET with a pick of 4·10⁸), nested JSON
(bodies of 60 000 brackets), 2 000 event streams on one table while five moves are committed (the
time until the last stream has each version), 1 100 idle connections under `ulimit -n 1024` (from
one address, then from 22), 300 slow clients sending their heads a byte at a time, and a move-post
flood from one seat link. Figures only, never assertions; the machine is shared, so a stall also
counts time the server process was not scheduled at all (see `uptime`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import os
import re
import resource
import socket
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import aiohttp

from bench.bench_rummikub import machine, percentile
from bot import event_loop
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

HUGE_PICK = 4 * 10**8
TELEGRAM_TOKEN = "123456:BENCH-HOSTILE"
PROBE_USERS = 10_000  # the Telegram probe's users: one new private chat per /start, from this id on
STREAMS = 2000
TICK_S = 0.002
SLOW_HEADER_TIMEOUT_S = 2.0  # the slow clients' server: a short header timeout, so the bench sees it act


# ---- the server process -------------------------------------------------------------------------

def _free_port() -> int:
    # WEB_PORT must be a number (0 means no web table); the port is free again when the server binds it.
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def _serve(limits: dict[str, Any], telegram_url: str) -> None:
    """As `rummyclub run` with a Telegram token and WEB_PORT (bot/telegram/app.serve): the Telegram bot
    (polling the fake Bot API in the bench's process) and the web table in one process, on one loop."""
    from pydantic import SecretStr

    from bot.core.ai_pool import AiPool
    from bot.core.models import Player
    from bot.core.presenter.games import turn_of
    from bot.core.service import TableService
    from bot.running import close_service, web_table
    from bot.settings import Settings
    from bot.stopping import Grace
    from bot.telegram.app import build_application, config_from, polling, running
    from bot.web.app import FRAMES
    from storage import SqliteStore

    players = (Player("bench", "1", "Alice"), Player("bench", "2", "Bob"))
    loop = asyncio.get_running_loop()
    worst = busy = gc_worst = 0.0
    gc_start = [0.0]

    def gc_timer(phase: str, info: dict[str, int]) -> None:
        nonlocal gc_worst
        if phase == "start":
            gc_start[0] = time.thread_time()
        else:
            gc_worst = max(gc_worst, time.thread_time() - gc_start[0])

    gc.callbacks.append(gc_timer)

    async def ticker() -> None:
        # Wall lateness also counts time the process was not scheduled at all (a shared machine);
        # the loop thread's CPU time over the same tick is what the loop itself spent without
        # letting the ticker run: the stall a request can cause.
        nonlocal worst, busy
        while True:
            start, cpu = loop.time(), time.thread_time()
            await asyncio.sleep(TICK_S)
            worst = max(worst, loop.time() - start - TICK_S)
            busy = max(busy, time.thread_time() - cpu)

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(_env_file=None, telegram_token=SecretStr(TELEGRAM_TOKEN), telegram_api_url=telegram_url,
                            web_secret=SecretStr("bench-hostile"), web_listen="127.0.0.1", web_port=_free_port(),
                            **limits)
        store = SqliteStore(str(Path(tmp) / "hostile.db"))
        await store.open()
        service = TableService(store, lobby_ttl_s=settings.lobby_ttl_s, ai=AiPool(settings.ai_workers),
                               claim_lease_s=settings.claim_lease_s)
        committed: dict[int, float] = {}
        service.commit_listeners.append(lambda rec: committed.setdefault(rec.version, time.perf_counter()))
        rec = await service.open_table("rummikub", "bench", "chat", players[0])
        await service.join(rec.id, players[1])
        await service.start(rec.id, players[0])
        rec = await service.get(rec.id)
        assert settings.telegram_token is not None
        app, tg = build_application(
            settings.telegram_token.get_secret_value(), service, store, config=config_from(settings),
            base_url=settings.telegram_api_url, rate_limit=settings.telegram_rate_limit,
            overall_max_rate=settings.telegram_overall_max_per_s, group_max_rate=settings.telegram_group_max_per_min)
        grace = Grace(settings.shutdown_grace_s)
        try:
            async with web_table(settings, service, store, tg), running(app, tg, grace, polling()):
                server = tg.web
                assert server is not None and server.app is not None
                links = {name: server.links.token(rec.id, seat, time.time() + 3600)
                         for name, seat in (("seat0", 0), ("seat1", 1), ("public", None))}
                print(json.dumps({"base": server.base_url, "table": rec.id, "version": rec.version, **links}),
                      flush=True)
                tick = asyncio.create_task(ticker())
                while line := (await loop.run_in_executor(None, sys.stdin.readline)).strip():
                    if line == "reset":
                        worst = busy = gc_worst = 0.0
                        print("ok", flush=True)
                    elif line == "stall":
                        print(f"{worst * 1000:.2f} {busy * 1000:.2f} {gc_worst * 1000:.2f}", flush=True)
                    elif line == "objects":
                        print(len(gc.get_objects()), flush=True)
                    elif line == "builds":
                        print(server.app[FRAMES].builds, flush=True)
                    elif line == "move":
                        turn = turn_of(await service.get(rec.id))
                        out = await service.act(rec.id, players[turn or 0], "draw")
                        print(out.table.version, committed[out.table.version], flush=True)
                tick.cancel()
        finally:
            await close_service(service, store, grace)


# ---- the attacker process -----------------------------------------------------------------------

def _session(source: str = "127.0.0.2", limit: int = 100) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(connector=aiohttp.TCPConnector(local_addr=(source, 0), limit=limit))


async def _for(seconds: float, one: Any, statuses: Counter[int | str]) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        try:
            statuses[await one()] += 1
        except (aiohttp.ClientError, OSError, TimeoutError) as err:
            statuses[type(err).__name__] += 1


async def attack_huge_picks(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    statuses: Counter[int | str] = Counter()
    api = f"{info['base']}/api/table/{info['table']}"
    body = {"version": info["version"], "key": "huge", "press": {"index": 0, "option": None, "picks": [HUGE_PICK]}}
    async with _session() as http:
        async def one() -> int:
            async with http.post(f"{api}/move", params={"k": info["seat0"]}, json=body) as r:
                await r.read()
            async with http.get(api, params={"k": info["seat0"], "picks": str(HUGE_PICK)}) as r:
                await r.read()
                return r.status
        await _for(seconds, one, statuses)
    return {"answers": dict(statuses)}


async def attack_nested_json(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    statuses: Counter[int | str] = Counter()
    url = f"{info['base']}/api/table/{info['table']}/move"
    bodies = [b"[" * 60_000, b'{"version": 1, "key": "a", "play": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"]
    async with _session() as http:
        async def one() -> int:
            for body in bodies:
                async with http.post(url, params={"k": info["seat0"]}, data=body,
                                     headers={"Content-Type": "application/json"}) as r:
                    await r.read()
            return r.status
        await _for(seconds, one, statuses)
    return {"answers": dict(statuses)}


VERSION = re.compile(rb'event: table\r?\ndata: \{"table": "[^"]*", "game": "[^"]*", "version": (\d+)')


async def attack_streams(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    """STREAMS raw event streams on the public link from 20 addresses; the arrival of each version
    on each stream; ready when every stream has its first event, done at a line on stdin."""
    host, port = info["base"].removeprefix("http://").split(":")
    arrivals: dict[int, list[float]] = {}
    statuses: Counter[str] = Counter()
    first = asyncio.Event()
    opened = 0
    request = (f"GET /api/table/{info['table']}/events?k={info['public']} HTTP/1.1\r\nHost: x\r\n\r\n").encode()

    async def stream(i: int) -> None:
        nonlocal opened
        try:
            reader, writer = await asyncio.open_connection(host, int(port), local_addr=(f"127.0.0.{2 + i % 20}", 0),
                                                           limit=2**20)
        except OSError as err:
            statuses[type(err).__name__] += 1
            return
        writer.write(request)
        buf, counted = b"", False
        try:
            while chunk := await reader.read(65536):
                buf += chunk
                now = time.perf_counter()
                if not counted and buf.startswith((b"HTTP/1.1 4", b"HTTP/1.1 5")):
                    statuses[buf[9:12].decode()] += 1
                    return
                end = 0
                for m in VERSION.finditer(buf):
                    arrivals.setdefault(int(m.group(1)), []).append(now)
                    end = m.end()
                    if not counted:
                        counted, opened = True, opened + 1
                        statuses["open"] += 1
                        if opened == STREAMS:
                            first.set()
                buf = buf[end:] if end else buf[-4096:]
        except (OSError, asyncio.IncompleteReadError) as err:
            statuses[type(err).__name__] += 1
        finally:
            writer.close()

    tasks = [asyncio.create_task(stream(i)) for i in range(STREAMS)]
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(first.wait(), 60)
    print("ready", flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"answers": dict(statuses),
            "arrivals": {v: [len(times), max(times)] for v, times in arrivals.items()}}


async def _idle(info: dict[str, Any], seconds: float, addresses: int) -> dict[str, Any]:
    host, port = info["base"].removeprefix("http://").split(":")
    conns: list[tuple[asyncio.StreamReader, asyncio.StreamWriter]] = []
    failed: Counter[str] = Counter()
    for i in range(1100):
        try:
            conns.append(await asyncio.open_connection(host, int(port), local_addr=(f"127.0.0.{2 + i % addresses}", 0)))
        except OSError as err:
            failed[type(err).__name__] += 1
    await asyncio.sleep(seconds)
    answers: Counter[str] = Counter()
    for reader, writer in conns:
        if reader.at_eof() or reader._buffer:  # noqa: SLF001 - what the server sent before closing, if anything
            got = bytes(reader._buffer)[:12].decode(errors="replace")  # noqa: SLF001
            answers[got[9:12] if got.startswith("HTTP/1.1") else "closed"] += 1
        else:
            answers["still open"] += 1
        writer.close()
    return {"answers": dict(answers | failed)}


async def attack_idle_one_address(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    return await _idle(info, seconds, 1)


async def attack_idle_many_addresses(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    return await _idle(info, seconds, 22)


async def attack_slow(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    """300 clients from 5 addresses, each sending its head a byte every 200 ms."""
    host, port = info["base"].removeprefix("http://").split(":")
    head = f"GET /table/{info['table']} HTTP/1.1\r\nHost: x\r\nUser-Agent: {'s' * 200}\r\n\r\n".encode()
    held: list[float] = []
    outcome: Counter[str] = Counter()

    async def slow(i: int) -> None:
        try:
            reader, writer = await asyncio.open_connection(host, int(port), local_addr=(f"127.0.0.{2 + i % 5}", 0))
        except OSError as err:
            outcome[type(err).__name__] += 1
            return
        start = time.perf_counter()  # held: from the connection's opening to its closing by the server
        try:
            for byte in head:
                writer.write(bytes([byte]))
                try:
                    got = await asyncio.wait_for(reader.read(64), 0.2)
                except TimeoutError:
                    continue
                outcome[got[9:12].decode() if got.startswith(b"HTTP/1.1") else "closed by server"] += 1
                held.append(time.perf_counter() - start)
                return
            outcome["whole head sent"] += 1
        except OSError:
            outcome["closed by server"] += 1
            held.append(time.perf_counter() - start)
        finally:
            writer.close()

    tasks = [asyncio.create_task(slow(i)) for i in range(300)]
    await asyncio.wait(tasks, timeout=seconds + SLOW_HEADER_TIMEOUT_S)  # the last to connect get their full time
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    outcome["still open at the end"] = 300 - sum(outcome.values())
    return {"answers": dict(outcome), "held_max_s": round(max(held, default=0.0), 2)}


async def attack_post_flood(info: dict[str, Any], seconds: float) -> dict[str, Any]:
    statuses: Counter[int | str] = Counter()
    url = f"{info['base']}/api/table/{info['table']}/move"
    body = {"version": 0, "key": "flood", "play": [["r1", "r2", "r3"]]}
    async with _session(limit=8) as http:
        async def one() -> int:
            async with http.post(url, params={"k": info["seat0"]}, json=body) as r:
                await r.read()
                return r.status
        start = time.perf_counter()
        await asyncio.gather(*(_for(seconds, one, statuses) for _ in range(8)))
        took = time.perf_counter() - start
    return {"answers": dict(statuses), "posts_per_s": round(sum(statuses.values()) / took)}


ATTACKERS = {
    "huge_picks": attack_huge_picks, "nested_json": attack_nested_json, "streams_2000": attack_streams,
    "idle_1100_one_address": attack_idle_one_address, "idle_1100_22_addresses": attack_idle_many_addresses,
    "slow_300": attack_slow, "post_flood": attack_post_flood,
}


# ---- this process: one server and one attacker per attack ---------------------------------------

SERVER_NOFILE = {"idle_1100_one_address": 1024, "idle_1100_22_addresses": 1024}
SERVER_LIMITS: dict[str, dict[str, Any]] = {
    "streams_2000": {"web_max_connections": 2500, "web_max_streams": 2500, "web_max_streams_per_address": 0,
                     "web_max_streams_per_link": 0, "web_max_connections_per_address": 0},
    "slow_300": {"web_header_timeout_s": SLOW_HEADER_TIMEOUT_S},
}


class Server:
    def __init__(self, proc: asyncio.subprocess.Process, info: dict[str, Any], fake: FakeTelegramBotAPI) -> None:
        self.proc, self.info, self.fake = proc, info, fake

    async def ask(self, line: str) -> str:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{line}\n".encode())
        await self.proc.stdin.drain()
        return (await asyncio.wait_for(self.proc.stdout.readline(), 60)).decode().strip()


async def _start_server(name: str) -> Server:
    """The server process, polling a fresh fake Bot API (its updates and calls are this attack's only)."""
    limits = SERVER_LIMITS.get(name, {})
    nofile = SERVER_NOFILE.get(name, 4096)
    fake = await FakeTelegramBotAPI(TELEGRAM_TOKEN).start()
    fake.group_limit = None  # the probe writes in private chats only
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.bench_hostile", "--serve", json.dumps(limits), "--nofile", str(nofile),
        "--telegram", fake.base_url, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    assert proc.stdout is not None
    info = json.loads(await asyncio.wait_for(proc.stdout.readline(), 60))
    server = Server(proc, info, fake)
    print("# objects tracked by the gc at start:", await server.ask("objects"), file=sys.stderr)
    async with aiohttp.ClientSession() as http:  # the first answers load the words and the views' code
        for path in (f"/table/{info['table']}", f"/api/table/{info['table']}"):
            for link in ("seat0", "seat1", "public"):
                async with http.get(f"{info['base']}{path}?k={info[link]}") as r:
                    await r.read()
    user = fake.user(PROBE_USERS - 1, "Warm")  # and the first /start
    fake.push_text("/start", user=user)
    await fake.wait_for_call("sendMessage", lambda c: c.chat_id == user["id"], timeout=60)
    return server


async def _stop_server(server: Server) -> None:
    assert server.proc.stdin is not None
    server.proc.stdin.close()
    try:
        await asyncio.wait_for(server.proc.wait(), 20)
    except TimeoutError:
        server.proc.kill()
        await server.proc.wait()
    await server.fake.stop()


async def _telegram_probe(fake: FakeTelegramBotAPI, stop: asyncio.Event) -> dict[str, Any]:
    """`/start` in a private chat every ~100 ms, each from a new user (so a late answer cannot be taken
    for the next one's): the time from the update being queued at the fake Bot API until the bot's
    reply reaches it — the long poll, the handler, the store and the outbox of the server process."""
    times: list[float] = []
    failures: Counter[str] = Counter()
    for n in itertools.count(PROBE_USERS):
        if stop.is_set():
            break
        user = fake.user(n, "Probe")
        mark = len(fake.calls)
        pushed = time.perf_counter()
        fake.push_text("/start", user=user)
        try:
            call = await fake.wait_for_call("sendMessage", lambda c, uid=user["id"]: c.chat_id == uid, timeout=5,
                                            after=mark)
            if call.status == 200:
                times.append(call.t - pushed)
            else:
                failures[str(call.status)] += 1
        except TimeoutError:
            failures["no reply in 5 s"] += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.1)
    return {"ok": len(times), "p50_ms": percentile(times, 0.5) * 1000, "max_ms": max(times, default=float("nan")) * 1000,
            "failures": dict(failures)}


def _listen_overflows() -> int:
    """The kernel's count of connections dropped because a listen queue was full (the whole network
    namespace: other programs on the machine may add to it)."""
    lines = [line.split() for line in Path("/proc/net/netstat").read_text().splitlines() if line.startswith("TcpExt:")]
    return int(dict(zip(lines[0], lines[1], strict=True))["ListenOverflows"])


async def _accept_queue(port: int, stop: asyncio.Event) -> int:
    """The longest queue of connections not yet accepted seen on the server's listening socket
    (/proc/net/tcp's rx_queue of a LISTEN socket), every 50 ms. The kernel takes 50-250 ms to list
    the 6 000 sockets of the streams attack: read in a thread, so the probes' loop does not wait."""
    local, longest = f"0100007F:{port:04X}", 0
    while not stop.is_set():
        for line in (await asyncio.to_thread(Path("/proc/net/tcp").read_text)).splitlines()[1:]:
            fields = line.split()
            if fields[1] == local and fields[3] == "0A":
                longest = max(longest, int(fields[4].split(":")[1], 16))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.05)
    return longest


class Probes:
    """The page, Telegram and the listening socket watched while an attack runs."""

    def __init__(self, server: Server) -> None:
        self.stop = asyncio.Event()
        self.overflows = _listen_overflows()
        self.page = asyncio.create_task(_probe(server.info, self.stop))
        self.telegram = asyncio.create_task(_telegram_probe(server.fake, self.stop))
        port = int(server.info["base"].rsplit(":", 1)[1])
        self.queue = asyncio.create_task(_accept_queue(port, self.stop))

    async def results(self) -> dict[str, Any]:
        self.stop.set()
        return {"page": await self.page, "telegram": await self.telegram, "accept_queue_max": await self.queue,
                "listen_overflows": _listen_overflows() - self.overflows}


async def _probe(info: dict[str, Any], stop: asyncio.Event) -> dict[str, Any]:
    """The page and the seat's API answer every 100 ms, each on a fresh connection."""
    times: list[float] = []
    failures: Counter[str] = Counter()
    urls = [f"{info['base']}/table/{info['table']}?k={info['seat0']}",
            f"{info['base']}/api/table/{info['table']}?k={info['seat0']}"]
    timeout = aiohttp.ClientTimeout(total=5)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True), timeout=timeout) as http:
        while not stop.is_set():
            for url in urls:
                start = time.perf_counter()
                try:
                    async with http.get(url) as r:
                        await r.read()
                        if r.status == 200:
                            times.append(time.perf_counter() - start)
                        else:
                            failures[str(r.status)] += 1
                except (aiohttp.ClientError, OSError, TimeoutError) as err:
                    failures[type(err).__name__] += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.1)
    return {"ok": len(times), "p50_ms": percentile(times, 0.5) * 1000, "max_ms": max(times, default=float("nan")) * 1000,
            "failures": dict(failures)}


async def _moves(server: Server, attacker: asyncio.subprocess.Process) -> dict[str, Any]:
    """Wait for every stream to be open, commit five moves a second apart, then release the attacker."""
    assert attacker.stdout is not None and attacker.stdin is not None
    assert (await asyncio.wait_for(attacker.stdout.readline(), 120)).strip() == b"ready"
    connecting = [float(x) for x in (await server.ask("stall")).split()]
    await server.ask("reset")
    commits: dict[int, float] = {}
    builds = int(await server.ask("builds"))
    for _ in range(5):
        version, at = (await server.ask("move")).split()
        commits[int(version)] = float(at)
        await asyncio.sleep(1.0)
    stall = [float(x) for x in (await server.ask("stall")).split()]
    print("# objects tracked by the gc with the streams open:", await server.ask("objects"), file=sys.stderr)
    builds = int(await server.ask("builds")) - builds
    attacker.stdin.write(b"done\n")
    await attacker.stdin.drain()
    return {"commits": commits, "stall_while_connecting_ms": connecting, "stall_during_moves_ms": stall,
            "builds_for_5_moves": builds}


async def run_attack(name: str, seconds: float) -> dict[str, Any]:
    server = await _start_server(name)
    try:
        await server.ask("reset")
        probes = Probes(server)
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bench.bench_hostile", "--attack", name, json.dumps(server.info),
            "--seconds", str(seconds), stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
        moves = await _moves(server, attacker) if name == "streams_2000" else None
        assert attacker.stdout is not None
        out = await asyncio.wait_for(attacker.stdout.read(), 180)
        await attacker.wait()
        watched = await probes.results()
        result = json.loads(out.decode().strip().splitlines()[-1])
        wall, busy, collect = (float(x) for x in (await server.ask("stall")).split())
        result |= {"stall_ms": wall, "busy_ms": busy, "gc_ms": collect, **watched}
        if moves is not None:  # the row: the whole attack, the streams' connecting included
            first = moves["stall_while_connecting_ms"]
            result |= {"stall_ms": max(wall, first[0]), "busy_ms": max(busy, first[1]), "gc_ms": max(collect, first[2])}
            arrivals = result.pop("arrivals")
            result["fanout_ms"] = [round((arrivals[str(v)][1] - at) * 1000) if str(v) in arrivals else None
                                   for v, at in moves["commits"].items()]
            result["streams_reached"] = [arrivals.get(str(v), [0])[0] for v in moves["commits"]]
            result |= {k: moves[k] for k in ("stall_while_connecting_ms", "stall_during_moves_ms",
                                             "builds_for_5_moves")}
        return result
    finally:
        await _stop_server(server)


async def baseline(seconds: float) -> dict[str, Any]:
    server = await _start_server("none")
    try:
        await server.ask("reset")
        probes = Probes(server)
        await asyncio.sleep(seconds)
        watched = await probes.results()
        wall, busy, collect = (float(x) for x in (await server.ask("stall")).split())
        return {"answers": {}, "stall_ms": wall, "busy_ms": busy, "gc_ms": collect, **watched}
    finally:
        await _stop_server(server)


def _fails(probe: dict[str, Any]) -> str:
    return ",".join(f"{k}×{v}" for k, v in probe["failures"].items()) or "0"


def _row(name: str, r: dict[str, Any]) -> str:
    page, tg = r["page"], r["telegram"]
    answers = ", ".join(f"{k}×{v}" for k, v in r["answers"].items()) or "—"
    return (f"{name:<24} {r['busy_ms']:>7.1f} {r['stall_ms']:>7.1f} {r['gc_ms']:>5.1f} "
            f"{page['p50_ms']:>6.1f} {page['max_ms']:>7.1f} {page['ok']:>4} {_fails(page):>6} "
            f"{tg['p50_ms']:>6.1f} {tg['max_ms']:>7.1f} {tg['ok']:>4} {_fails(tg):>6} "
            f"{r['accept_queue_max']:>5} {r['listen_overflows']:>6}  {answers}")


async def _run(only: list[str], seconds: float) -> None:
    print(f"# bench_hostile — {machine()}")
    print(f"# load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} (1/5/15 min)")
    print(f"{'':<24} {'loop stall ms':^21} {'page (ms)':^27} {'Telegram /start (ms)':^27} {'listen':^12}")
    print(f"{'attack':<24} {'busy':>7} {'wall':>7} {'gc':>5} {'p50':>6} {'max':>7} {'ok':>4} {'fail':>6} "
          f"{'p50':>6} {'max':>7} {'ok':>4} {'fail':>6} {'queue':>5} {'drops':>6}  attacker's answers")
    print(_row("(no attack)", await baseline(seconds)))
    extra: list[str] = []
    for name in only or ATTACKERS:
        r = await run_attack(name, seconds)
        print(_row(name, r), flush=True)
        for key in ("held_max_s", "posts_per_s", "fanout_ms", "streams_reached", "stall_while_connecting_ms",
                    "stall_during_moves_ms",
                    "builds_for_5_moves"):
            if key in r:
                extra.append(f"  {name}: {key} = {r[key]}")
    print("\n".join(extra))
    print("# busy: the server loop's longest run without yielding (its thread's CPU time over one 2 ms tick); "
          "wall: the longest lateness of that tick (with time the process was not scheduled), over the whole "
          "attack (for streams_2000 the 2 000 connecting too, apart in the lines below); page: /table and "
          "/api/table from 127.0.0.1 every 100 ms on fresh connections; Telegram: a private /start every "
          "~100 ms through the fake Bot API the same process polls, until the reply reaches it; listen queue: the "
          "longest accept queue seen on the server's socket (every 50 ms); drops: the kernel's ListenOverflows "
          "over the attack (the whole machine); fanout: commit → last of the streams has the version, as seen by "
          "the attacker process")


def _raise_nofile(soft: int | None = None) -> None:
    cur, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(soft or hard, hard), hard))


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.bench_hostile", description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", default=[], choices=sorted(ATTACKERS))
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--serve", help=argparse.SUPPRESS)
    parser.add_argument("--nofile", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--telegram", help=argparse.SUPPRESS)
    parser.add_argument("--attack", nargs=2, help=argparse.SUPPRESS)
    args, _ = parser.parse_known_args(argv)  # `python -m bench` gives every bench the same arguments
    if args.serve is not None:
        _raise_nofile(args.nofile)
        event_loop.run(_serve(json.loads(args.serve), args.telegram))
    elif args.attack:
        _raise_nofile()
        name, info = args.attack
        print(json.dumps(asyncio.run(ATTACKERS[name](json.loads(info), args.seconds))), flush=True)
    else:
        asyncio.run(_run(args.only, args.seconds))


if __name__ == "__main__":
    main(sys.argv[1:])
