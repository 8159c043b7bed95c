"""Running the web table next to a chat or the terminal: the server on WEB_LISTEN:WEB_PORT, the
addresses of seat and spectator links under WEB_URL, and a listener that hands a player their
seat's link once per table (the terminal prints it)."""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
import os
import secrets
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from urllib.parse import urlencode

from aiohttp import web

from bot.core.clock import Clock
from bot.core.i18n import load_every_catalog
from bot.core.models import Player
from bot.core.service import TableService
from bot.settings import Settings
from bot.startup import StartupError
from bot.web.app import WebConfig, create_app
from bot.web.auth import SeatLinks
from bot.web.guard import GuardedRunner
from bot.web.limits import ACCEPT_BURST, WebLimits
from storage import Store, TableRecord


@dataclass
class WebServer:
    base_url: str
    links: SeatLinks
    link_ttl_s: float
    clock: Clock
    app: web.Application | None = None  # the running application (benches read its counters)
    _told: set[tuple[str, int]] = field(default_factory=set)

    def url(self, table_id: str, seat: int | None, lang: str | None = None) -> str:
        """A signed link to the table as `seat` (None: the public view), valid for the link TTL."""
        query = {"k": self.links.token(table_id, seat, self.clock.now() + self.link_ttl_s)}
        if lang:
            query["lang"] = lang
        return f"{self.base_url.rstrip('/')}/table/{table_id}?{urlencode(query)}"

    def replay_url(self, table_id: str, lang: str | None = None) -> str:
        """A finished match's replay page, signed like the spectator link: the public view only, so it
        may be posted in a chat (a player's own view needs their seat link)."""
        query = {"k": self.links.token(table_id, None, self.clock.now() + self.link_ttl_s)}
        if lang:
            query["lang"] = lang
        return f"{self.base_url.rstrip('/')}/replay/{table_id}?{urlencode(query)}"

    def mini_app_url(self, table_id: str, lang: str | None = None) -> str | None:
        """The table's page for a Telegram `web_app` button, or None when Telegram would refuse it (it
        takes https:// only). No token in it: the Mini App's signed initData says who opens it, so the
        URL is the same on every hand edit and worth nothing to anyone it is forwarded to."""
        if not self.base_url.startswith("https://"):
            return None
        query = f"?{urlencode({'lang': lang})}" if lang else ""
        return f"{self.base_url.rstrip('/')}/table/{table_id}{query}"

    def announcer(self, player: Player, tell: Callable[[str], None], lang: str) -> Callable[[TableRecord], None]:
        """A commit listener telling `player` their seat's link the first time a table of theirs commits."""
        def listener(rec: TableRecord) -> None:
            seat = TableService.seat_of(rec, player)
            if seat is None or (rec.id, seat) in self._told or rec.status != "playing":
                return
            self._told.add((rec.id, seat))
            tell(self.url(rec.id, seat, lang))

        return listener


def mini_app_link(bot_username: str, app_name: str, table_id: str) -> str:
    """The group's direct link into the Mini App at this table (Telegram hands `startapp` to the page
    as `start_param`, inside the signed initData)."""
    return f"https://t.me/{bot_username.lstrip('@')}/{app_name}?{urlencode({'startapp': table_id})}"


def web_config(settings: Settings) -> WebConfig:
    # Without WEB_SECRET every start draws a new key: links of an earlier run stop working, which is
    # safe; a deployment that wants links to survive restarts sets the secret.
    secret = settings.web_secret.get_secret_value().encode() if settings.web_secret else secrets.token_bytes(32)
    token = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    return WebConfig(SeatLinks(secret), token, settings.web_init_max_age_s, settings.default_lang, web_limits(settings))


def web_limits(settings: Settings) -> WebLimits:
    return WebLimits(
        header_timeout_s=settings.web_header_timeout_s, body_timeout_s=settings.web_body_timeout_s,
        max_connections=settings.web_max_connections,
        max_connections_per_address=settings.web_max_connections_per_address,
        max_streams=settings.web_max_streams, max_streams_per_address=settings.web_max_streams_per_address,
        max_streams_per_link=settings.web_max_streams_per_link, moves_per_s=settings.web_moves_per_s,
        move_burst=settings.web_move_burst)


class QuietBadRequests(logging.Filter):
    """aiohttp logs every malformed request with a traceback at ERROR ("Error handling request"):
    anyone can send garbage to a public port, so a flood of them would flood the log. They are
    answered with 400 all the same; the line goes to DEBUG (its traceback quotes the request line,
    a link's token and all: bot/logs.py blanks that)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage().startswith("Error handling request") and record.levelno > logging.DEBUG:
            if not logging.getLogger(record.name).isEnabledFor(logging.DEBUG):
                return False
            record.levelno, record.levelname = logging.DEBUG, "DEBUG"
        return True


def _quiet_bad_requests() -> None:
    server_log = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, QuietBadRequests) for f in server_log.filters):
        server_log.addFilter(QuietBadRequests())


def _freeze_startup_objects() -> None:
    """Everything loaded so far (modules, the chat clients, the engines: ~60 000 objects) lives as
    long as the process. Left to the cyclic collector, each of its full passes walks them all again
    with the loop held — 20–30 ms on a loaded machine, in the middle of whatever request is being
    answered. Frozen, those passes walk only what came after (gc.freeze, once)."""
    load_every_catalog()  # the chat adapters read every language at start (their command menus)
    gc.collect()
    gc.freeze()


def _unbound(settings: Settings, err: OSError) -> StartupError:
    where = f"{settings.web_listen}:{settings.web_port or 0}"
    if err.errno == errno.EADDRINUSE:
        return StartupError(f"WEB_PORT: port {settings.web_port} on {settings.web_listen} is already in use — stop "
                            "what holds it or set WEB_PORT to a free port")
    if err.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(err, socket.gaierror):
        return StartupError(f"WEB_LISTEN: {settings.web_listen} is not an address of this machine — set WEB_LISTEN "
                            "to one of its addresses (127.0.0.1 for this machine only, 0.0.0.0 for all)")
    if err.errno == errno.EACCES:
        return StartupError(f"WEB_PORT: no permission to listen on {where} — use a port above 1023")
    return StartupError(f"WEB_LISTEN, WEB_PORT: cannot listen on {where} ({err.strerror or err}) — check both")


def _deepen_backlog(site: web.TCPSite, backlog: int) -> None:
    """asyncio uses one number for the kernel's listen backlog and for how many connections it accepts
    at each wake-up; the burst stays ACCEPT_BURST (bot/web/limits.py) and the kernel's queue gets
    WEB_BACKLOG here, by listen() again on the same sockets (Linux only changes the queue's length).
    A queue of 64 overflowed while 2 000 event streams connected: the kernel dropped the SYNs past it,
    and a page's connection waited for its client's retry a second later (bench/bench_hostile.py).
    asyncio's socket wrapper has no listen(): a duplicate descriptor of the same socket has."""
    server = site._server  # aiohttp keeps the asyncio server there and names it nowhere else
    assert isinstance(server, asyncio.Server)
    for sock in server.sockets:
        with socket.socket(sock.family, sock.type, sock.proto, fileno=os.dup(sock.fileno())) as same:
            same.listen(backlog)


@asynccontextmanager
async def serve(service: TableService, store: Store, settings: Settings) -> AsyncIterator[WebServer]:
    config = web_config(settings)
    _quiet_bad_requests()
    # No access log: the links' tokens are in the query strings it would write.
    app = create_app(service, store, config)
    runner = GuardedRunner(app, config.limits, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    site = web.TCPSite(runner, settings.web_listen, settings.web_port or 0, backlog=ACCEPT_BURST)
    try:
        await site.start()
    except OSError as err:  # socket.gaierror (a name that does not resolve) included
        await runner.cleanup()
        raise _unbound(settings, err) from err
    _deepen_backlog(site, settings.web_backlog)
    _freeze_startup_objects()
    try:
        port = runner.addresses[0][1]
        base = settings.web_url or f"http://{settings.web_listen}:{port}"
        yield WebServer(base, config.links, settings.web_link_ttl_s, service.clock, app)
    finally:
        await runner.cleanup()


@asynccontextmanager
async def serve_terminal(service: TableService, store: Store, settings: Settings, tell: Callable[[str], None],
                         lang: str, player: Player) -> AsyncIterator[WebServer]:
    """`rummyclub play --web`: the server, and the terminal player's link for every table of theirs
    in play now (a resumed game) and for each new one as it starts."""
    async with serve(service, store, settings) as server:
        announce = server.announcer(player, tell, lang)
        for rec in await store.list_tables(["playing"]):
            announce(rec)
        service.commit_listeners.append(announce)
        try:
            yield server
        finally:
            service.commit_listeners.remove(announce)
