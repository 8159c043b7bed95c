"""The operator's endpoints on the web table's aiohttp server: `/healthz` (the process answers),
`/readyz` (it is not stopping and its database answers: a load balancer sends it traffic) and
`/metrics` (Prometheus's text format, bot/core/metrics.py). They carry no table or player data."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from aiohttp import web

from bot.core import metrics
from storage import Store

log = logging.getLogger(__name__)

READY_TIMEOUT_S = 2.0  # a database slower than this to answer one indexed read is not ready
STORE = web.AppKey("ops_store", Store)
STOPPING = web.AppKey("ops_stopping", asyncio.Event)
PLATFORMS = ("telegram", "discord", "console")
CHECKS = web.AppKey("ops_checks", list)  # (name, is it ready?) of the platforms this process runs


def add_ready_check(app: web.Application, name: str, check: Callable[[], bool]) -> None:
    """/readyz answers 503 while `check()` is false (a platform not connected yet, or going down)."""
    app[CHECKS].append((name, check))


async def healthz(_request: web.Request) -> web.Response:
    return web.json_response({"status": "ok"})


async def readyz(request: web.Request) -> web.Response:
    if request.app[STOPPING].is_set():
        return web.json_response({"status": "stopping"}, status=503)
    for name, check in request.app[CHECKS]:
        if not check():
            return web.json_response({"status": f"{name} not ready"}, status=503)
    try:
        await asyncio.wait_for(request.app[STORE].get_table("readyz"), READY_TIMEOUT_S)
    except Exception as err:  # unreachable, timed out, refused: not ready, whatever the cause
        log.warning("not ready: the database does not answer (%s)", type(err).__name__)
        return web.json_response({"status": "database unavailable"}, status=503)
    return web.json_response({"status": "ready"})


async def metrics_page(request: web.Request) -> web.Response:
    try:
        await asyncio.wait_for(metrics.refresh(request.app[STORE]), READY_TIMEOUT_S)
    except Exception as err:  # the counters still say what they know; the states keep their last values
        log.warning("metrics: the database's figures could not be read (%s)", type(err).__name__)
    body, content_type = metrics.exposition(PLATFORMS)
    return web.Response(body=body, headers={"Content-Type": content_type})


def add_ops(app: web.Application, store: Store) -> None:
    app[STORE] = store
    app[STOPPING] = asyncio.Event()
    app[CHECKS] = []

    async def stopping(_: web.Application) -> None:
        app[STOPPING].set()

    app.on_shutdown.append(stopping)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/readyz", readyz)
    app.router.add_get("/metrics", metrics_page)
