"""What every bot mode (Telegram, Discord, both) shares around its adapters: the web table in the
same process, and the last steps of the way down (bot/stopping.py says why and when)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Protocol

from bot.core.service import TableService
from bot.settings import Settings
from bot.stopping import Grace
from storage import Store

if TYPE_CHECKING:
    from bot.web.server import WebServer


class HasWeb(Protocol):
    web: WebServer | None

    def ready(self) -> bool: ...


@asynccontextmanager
async def web_table(settings: Settings, service: TableService, store: Store, *adapters: HasWeb) -> AsyncIterator[None]:
    """With WEB_PORT, one web table in this process, on the same service, given to every adapter
    (issue 18): Discord's hands carry the seat's private link and its table message the spectator's,
    Telegram's hands an "Open table" Mini App button and its group message the Mini App link. Enter
    it before the adapters restore their tables (their hands then carry the links too); leaving it
    stops the web server first of all, so no page takes a move while the rest shuts down."""
    if not settings.web_port:
        yield
        return
    from bot.web.ops import add_ready_check
    from bot.web.server import serve  # aiohttp's server loads only when asked for

    async with serve(service, store, settings) as server:
        for adapter in adapters:
            adapter.web = server
            if server.app is not None:  # /readyz waits for every platform of the process
                add_ready_check(server.app, type(adapter).__name__, adapter.ready)
        try:
            yield
        finally:
            for adapter in adapters:
                adapter.web = None


async def close_service(service: TableService, store: Store, grace: Grace) -> None:
    """The last steps, once no update is taken any more: the AI moves in flight stored (or handed back
    when the grace is over), the AI workers stopped, then the store closed (SQLite checkpoints its WAL
    into the database file: no -wal or -shm is left)."""
    try:
        await service.close(grace.left())
    finally:
        await store.close()
