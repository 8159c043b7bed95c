"""The real server (bot/web/server.serve) on a loopback port against clients that misbehave at the
connection level, with raw sockets: a head sent a byte at a time is cut off by the header timeout, a
body that never arrives gets 408, connections over the cap per address get 429 and over the total
503 while other addresses are still served; an over-long address with a seat token in it leaves no
token in the log, a client that hangs up mid-request leaves no traceback; a port in use or an
address not on the machine is one sentence naming the setting."""

from __future__ import annotations

import asyncio
import io
import logging
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

import pytest
from pydantic import SecretStr

from bot.core.clock import FakeClock
from bot.core.service import TableService
from bot.logs import Redactor, setup_logging
from bot.settings import Settings
from bot.startup import StartupError
from bot.web.auth import SeatLinks
from bot.web.server import serve
from storage import SqliteStore, TableRecord
from tests.cli.conftest import PYTHON, subprocess_env
from tests.telegram.fake_bot_api import FakeTelegramBotAPI
from tests.web.tables import ALICE, RK_DECK, two_player_table

SECRET = "hostile-secret"


@dataclass
class Served:
    host: str
    port: int
    rec: TableRecord
    links: SeatLinks
    clock: FakeClock
    service: TableService

    def link(self, seat: int | None) -> str:
        return self.links.token(self.rec.id, seat, self.clock.now() + 3600)


@asynccontextmanager
async def served(tmp_path, **limits: object) -> AsyncIterator[Served]:
    store = SqliteStore(str(tmp_path / "h.db"))
    await store.open()
    clock = FakeClock()
    service = TableService(store, clock)
    rec = await two_player_table(service, deck=RK_DECK)
    settings = Settings(_env_file=None, web_secret=SecretStr(SECRET), web_listen="127.0.0.1", **limits)
    try:
        async with serve(service, store, settings) as server:
            host, port = server.base_url.removeprefix("http://").split(":")
            yield Served(host, int(port), rec, SeatLinks(SECRET.encode()), clock, service)
    finally:
        await store.close()


async def _connect(s: Served, source: str = "127.0.0.1") -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(s.host, s.port, local_addr=(source, 0))


async def _answer(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes the connection."""
    return await asyncio.wait_for(reader.read(), 5)


async def _get(s: Served, path: str, source: str = "127.0.0.1") -> bytes:
    reader, writer = await _connect(s, source)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    try:
        return await _answer(reader)
    finally:
        writer.close()


async def test_a_head_sent_byte_by_byte_is_cut_off_by_the_header_timeout(tmp_path) -> None:
    async with served(tmp_path, web_header_timeout_s=0.3) as s:
        reader, writer = await _connect(s)
        head = b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 1000
        sent, closed = 0, False
        for byte in head:  # a byte every 20 ms: the whole head would take 20 s
            writer.write(bytes([byte]))
            sent += 1
            try:
                closed = await asyncio.wait_for(reader.read(1), 0.02) == b""
            except TimeoutError:
                continue
            if closed:
                break
        writer.close()
        assert closed and sent < 100, f"the server kept a head of {sent} bytes open"
        assert (await _get(s, "/")).startswith(b"HTTP/1.1 200"), "others are still served"


async def test_an_open_page_outlives_the_header_timeout(tmp_path) -> None:
    async with served(tmp_path, web_header_timeout_s=0.2) as s:
        reader, writer = await _connect(s)
        writer.write(f"GET /api/table/{s.rec.id}/events?k={s.link(1)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        await asyncio.wait_for(reader.readuntil(b"event: table"), 5)
        await asyncio.sleep(0.5)  # well past the header timeout: the stream is a request in progress
        await s.service.act(s.rec.id, ALICE, "draw")
        after = await asyncio.wait_for(reader.readuntil(b"event: table"), 5)
        assert after and not reader.at_eof()
        writer.close()


async def test_a_body_that_does_not_arrive_gets_408(tmp_path) -> None:
    async with served(tmp_path, web_body_timeout_s=0.2) as s:
        reader, writer = await _connect(s)
        writer.write((f"POST /api/table/{s.rec.id}/move?k={s.link(0)} HTTP/1.1\r\nHost: x\r\n"
                      "Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"version\"").encode())
        answer = await asyncio.wait_for(reader.read(), 5)  # the server closes the connection
        writer.close()
        assert answer.startswith(b"HTTP/1.1 408") and b"did not arrive in time" in answer


async def test_connections_over_the_cap_per_address_are_refused_and_other_addresses_served(tmp_path, caplog) -> None:
    async with served(tmp_path, web_max_connections=10, web_max_connections_per_address=3) as s:
        idle = [await _connect(s, "127.0.0.2") for _ in range(3)]
        reader, writer = await _connect(s, "127.0.0.2")
        refused = await _answer(reader)
        writer.close()
        assert refused.startswith(b"HTTP/1.1 429") and b"your address" in refused
        assert (await _get(s, "/", "127.0.0.1")).startswith(b"HTTP/1.1 200"), "another address is served"
        for _, w in idle:
            w.close()
        await asyncio.sleep(0.05)
        assert (await _get(s, "/", "127.0.0.2")).startswith(b"HTTP/1.1 200"), "closed connections free their places"
    errors = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert not errors, [r.getMessage() for r in errors]


async def test_at_the_total_cap_an_idle_connection_makes_room_for_a_request(tmp_path) -> None:
    async with served(tmp_path, web_max_connections=3, web_max_connections_per_address=0) as s:
        idle = [await _connect(s, "127.0.0.2") for _ in range(3)]
        await asyncio.sleep(0.05)
        assert (await _get(s, "/", "127.0.0.1")).startswith(b"HTTP/1.1 200"), "the oldest idle one made room"
        assert await asyncio.wait_for(idle[0][0].read(), 5) == b"", "closed without an answer"
        # A stream is busy, not idle: three open pages leave no room, and the fourth client is refused.
        for _, w in idle[1:]:
            w.close()
        pages = []
        for _ in range(3):
            reader, writer = await _connect(s)
            writer.write(f"GET /api/table/{s.rec.id}/events?k={s.link(None)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            await asyncio.wait_for(reader.readuntil(b"event: table"), 5)
            pages.append(writer)
        reader, writer = await _connect(s)  # what it would send is not read: the answer comes first
        full = await _answer(reader)
        writer.close()
        assert full.startswith(b"HTTP/1.1 503") and b"Retry-After" in full
        for w in pages:
            w.close()


@pytest.fixture
def redacted_debug_log() -> Iterator[io.StringIO]:
    """The process's own logging (bot/logs.py) at DEBUG, where aiohttp quotes bad requests."""
    setup_logging("DEBUG", Redactor([SECRET]))
    out = io.StringIO()
    logging.getLogger().handlers[0].setStream(out)
    yield out
    root = logging.getLogger()
    for handler in list(root.handlers):
        root.removeHandler(handler)
    root.setLevel(logging.WARNING)
    logging.captureWarnings(False)


async def test_no_seat_token_reaches_the_log(tmp_path, redacted_debug_log: io.StringIO) -> None:
    async with served(tmp_path) as s:
        token = s.link(0)
        pad = "x" * 9000  # beyond the request line and header limits
        for path in (f"/api/table/{s.rec.id}?k={token}&pad={pad}", f"/table/{s.rec.id}?lang=en&k={token}{pad}"):
            answer = await _get(s, path)
            assert answer.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400")), answer[:100]
        reader, writer = await _connect(s)
        writer.write(f"GET / HTTP/1.1\r\nX-Rummy-Link: {token}{pad * 2}\r\n\r\n".encode())
        assert (await _answer(reader)).startswith((b"HTTP/1.0 4", b"HTTP/1.1 4"))
        writer.close()
    err = redacted_debug_log.getvalue()
    assert "Error handling request" in err, "the bad requests were logged (at DEBUG)"
    assert "k=***" in err
    for part in (token, token[:40], token.rsplit(".", 1)[1][:8]):
        assert part not in err


async def test_a_client_hanging_up_mid_request_leaves_no_traceback(tmp_path, caplog) -> None:
    caplog.set_level(logging.DEBUG)
    async with served(tmp_path) as s:
        for body in (b'{"version": 1, "ke', b""):
            reader, writer = await _connect(s)
            writer.write((f"POST /api/table/{s.rec.id}/move?k={s.link(0)} HTTP/1.1\r\nHost: x\r\n"
                          "Content-Length: 500\r\n\r\n").encode() + body)
            await writer.drain()
            await asyncio.sleep(0.05)
            writer.transport.abort()
        reader, writer = await _connect(s)
        writer.write(f"GET /api/table/{s.rec.id}/events?k={s.link(None)} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        assert b"event: table" in await asyncio.wait_for(reader.readuntil(b"event: table"), 5)
        writer.transport.abort()
        await asyncio.sleep(0.1)
        assert (await _get(s, "/")).startswith(b"HTTP/1.1 200")
    bad = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]


async def test_a_port_in_use_or_a_foreign_address_is_one_sentence(tmp_path) -> None:
    store = SqliteStore(str(tmp_path / "p.db"))
    await store.open()
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    try:
        service = TableService(store, FakeClock())
        for listen, setting in (("127.0.0.1", "WEB_PORT"), ("203.0.113.7", "WEB_LISTEN"),
                                ("no-such-host.invalid", "WEB_LISTEN")):
            settings = Settings(_env_file=None, web_listen=listen, web_port=port)
            with pytest.raises(StartupError) as raised:
                async with serve(service, store, settings):
                    pass
            assert raised.value.lines[0].startswith(f"{setting}: "), raised.value.lines
        assert not service.commit_listeners, "nothing left attached"
    finally:
        holder.close()
        await store.close()


async def test_the_terminal_with_its_web_port_in_use_says_so_and_exits(tmp_path) -> None:
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    env = subprocess_env(tmp_path, WEB_PORT=str(holder.getsockname()[1]))
    try:
        proc = await asyncio.create_subprocess_exec(
            PYTHON, "-m", "bot.cli", "play", "rummikub", "--ai", "1", "--web", cwd=str(tmp_path), env=env,
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(proc.communicate(b""), 60)
    finally:
        holder.close()
    text = err.decode()
    assert proc.returncode == 2, text
    assert "Traceback" not in text and "a bug" not in text
    lines = text.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rummyclub: WEB_PORT: port ") and "in use" in lines[0]





async def test_the_telegram_bot_with_its_web_port_in_use_says_so_and_exits(tmp_path) -> None:
    token = "123456:web-port-test-token"
    fake = await FakeTelegramBotAPI(token).start()
    holder = socket.socket()
    holder.bind(("127.0.0.1", 0))
    holder.listen()
    port = holder.getsockname()[1]
    env = subprocess_env(tmp_path, TELEGRAM_TOKEN=token, TELEGRAM_API_URL=fake.base_url, WEB_PORT=str(port))
    try:
        proc = await asyncio.create_subprocess_exec(
            PYTHON, "-m", "bot.cli", "run", cwd=str(tmp_path), env=env, stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            _, err = await asyncio.wait_for(proc.communicate(), 60)
        except TimeoutError:
            proc.kill()
            await proc.wait()
            raise
    finally:
        holder.close()
        await fake.stop()
    text = err.decode()
    assert proc.returncode == 2, text
    assert "Traceback" not in text and "a bug" not in text and token not in text
    assert text.strip().splitlines()[-1] == (f"rummyclub: WEB_PORT: port {port} on 127.0.0.1 is already in use — "
                                             "stop what holds it or set WEB_PORT to a free port")


async def test_a_burst_of_connections_waits_in_the_backlog_instead_of_being_dropped(tmp_path) -> None:
    """While the loop is busy (here: this test holds it, connecting without yielding) nothing is
    accepted, so the kernel's listen queue alone holds the new connections. With WEB_BACKLOG at 300,
    300 connections all complete at once; with asyncio's 64 the 66th SYN would be dropped and its
    connect would time out."""
    async with served(tmp_path, web_backlog=300, web_max_connections_per_address=0) as s:
        clients: list[socket.socket] = []
        try:
            for _ in range(300):
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                clients.append(sock)
                sock.settimeout(0.5)  # only a dropped SYN waits: its retry comes after 1 s
                sock.connect((s.host, s.port))
        finally:
            for sock in clients:
                sock.close()
        assert len(clients) == 300
        assert (await _get(s, "/")).startswith(b"HTTP/1.1 200"), "the queued connections are then served"


def test_the_listen_backlog_defaults_to_1024() -> None:
    assert Settings(_env_file=None).web_backlog == 1024
