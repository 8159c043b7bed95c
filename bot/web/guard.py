"""Caps on open connections, in all and per address, checked the moment a connection is accepted.

aiohttp has no such cap: its Server only keeps a table of connections. Its `connection_made` hook is
where a connection first has a peer address, so a Server subclass counts there and answers one over
a cap with a fixed 429 or 503 and closes it — before the parser, a request or a task of ours sees
it. The total is kept below the open-file limit (WebLimits.connection_cap), so idle sockets cannot
take the files the store and the chat client need. When the total is reached, the oldest connection
that has not yet sent a request is closed to make room (an honest client sends its request at once,
so what waits is an idle or slow one); only when every connection is busy is the new one refused.

A client that opens a connection and sends nothing, or its head a byte at a time, is closed by
aiohttp's keep-alive timer, which runs from the connection's start until a whole request head has
arrived (RequestHandler._process_keepalive closes a handler still waiting for its message): the
runner sets `keepalive_timeout` to WEB_HEADER_TIMEOUT_S, so that timer is the header timeout."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

from bot.web.limits import MAX_FIELD, MAX_LINE, WebLimits


def _refusal(status: str, sentence: str) -> bytes:
    body = sentence.encode()
    return (f"HTTP/1.1 {status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: {len(body)}\r\n"
            f"Retry-After: 5\r\nConnection: close\r\n\r\n").encode() + body


TOO_MANY = _refusal("503 Service Unavailable", "The server has too many open connections; try again in a moment.")
TOO_MANY_HERE = _refusal("429 Too Many Requests", "Too many open connections from your address; close some first.")


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else ""


class GuardedServer(web.Server):
    def __init__(self, *args: Any, limits: WebLimits, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.cap = limits.connection_cap()
        self.per_address = limits.max_connections_per_address
        self.by_address: Counter[str] = Counter()
        self.admitted: dict[RequestHandler, str] = {}
        self.fresh: dict[RequestHandler, None] = {}  # admitted, no request yet: oldest first
        self.refused = self.evicted = 0
        made = self.request_factory

        def requested(message: Any, payload: Any, protocol: RequestHandler, writer: Any, task: Any) -> Any:
            self.fresh.pop(protocol, None)
            return made(message, payload, protocol, writer, task)

        self.request_factory = requested

    def connection_made(self, handler: RequestHandler, transport: asyncio.Transport) -> None:
        super().connection_made(handler, transport)
        address = _address(transport)
        refusal = None
        if self.per_address and self.by_address[address] >= self.per_address:
            refusal = TOO_MANY_HERE
        elif len(self.admitted) >= self.cap:
            if self.fresh:
                self._evict(next(iter(self.fresh)))
            else:
                refusal = TOO_MANY
        if refusal is not None:
            self.refused += 1
            # Not closed here: the handler starts its reading task right after this hook, and that
            # task must see the connection still open (a close now would reach it torn down).
            asyncio.get_running_loop().call_soon(self._refuse, handler, transport, refusal)
            return
        self.admitted[handler] = address
        self.fresh[handler] = None
        self.by_address[address] += 1

    @staticmethod
    def _refuse(handler: RequestHandler, transport: asyncio.Transport, refusal: bytes) -> None:
        if not transport.is_closing():
            transport.write(refusal)
        handler.force_close()

    def _evict(self, handler: RequestHandler) -> None:
        self.evicted += 1
        self._forget(handler)
        handler.force_close()

    def _forget(self, handler: RequestHandler) -> None:
        self.fresh.pop(handler, None)
        address = self.admitted.pop(handler, None)
        if address is not None:
            self.by_address[address] -= 1
            if self.by_address[address] <= 0:
                del self.by_address[address]

    def connection_lost(self, handler: RequestHandler, exc: BaseException | None = None) -> None:
        super().connection_lost(handler, exc)
        self._forget(handler)


class GuardedRunner(web.AppRunner):
    """An AppRunner whose server is a GuardedServer with aiohttp's own bounds on the request head."""

    def __init__(self, app: web.Application, limits: WebLimits, **kwargs: Any) -> None:
        # lingering_time: how long the unread rest of a refused body is read (and dropped) so the client
        # sees the answer; aiohttp's 10 s would let a slow body hold its connection that long.
        super().__init__(app, keepalive_timeout=limits.header_timeout_s, max_line_size=MAX_LINE,
                         max_field_size=MAX_FIELD, lingering_time=1.0, **kwargs)
        self.limits = limits

    async def _make_server(self) -> web.Server:
        # The app's startup runs in AppRunner._make_server, which builds a plain Server; the guarded
        # one is built the same way from it (aiohttp has no factory argument for the Server class).
        plain = await super()._make_server()
        return GuardedServer(plain.request_handler, request_factory=plain.request_factory,
                             handler_cancellation=plain.handler_cancellation, limits=self.limits,
                             **plain._kwargs)
