"""Telegram's webhook on aiohttp — the HTTP library the web table already runs — in place of
python-telegram-bot's tornado server (its `webhooks` extra): one HTTP stack in the process, and the
webhook's answer is this module's to decide (a durable inbox written before the 200, issue 27 item 2,
goes here).

A POST on the public URL's path: refused (403) without the secret Telegram was given, or when it is
not JSON; else the update goes to the Application's queue, where polling would have put it, and 200
is answered. Telegram's own webhook is set once the server listens."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from urllib.parse import urlparse

from aiohttp import web
from telegram import Update
from telegram.ext import Application, ExtBot

log = logging.getLogger(__name__)

MAX_UPDATE = 1 << 20  # bytes: an update is a message or a button press, kilobytes at most
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
Stop = Callable[[], Awaitable[None]]


def receiver(app: Application, secret: str | None) -> Callable[[web.Request], Awaitable[web.Response]]:
    async def receive(request: web.Request) -> web.Response:
        if secret is not None and not hmac.compare_digest(request.headers.get(SECRET_HEADER, "").encode(),
                                                          secret.encode()):
            return web.Response(status=HTTPStatus.FORBIDDEN)  # not Telegram (nothing logged: it may be a probe)
        if request.content_type != "application/json":
            return web.Response(status=HTTPStatus.FORBIDDEN)
        try:
            data = json.loads(await request.read())
            if not isinstance(data, dict):
                raise TypeError("not an object")
            update = Update.de_json(data, app.bot)
        except (ValueError, TypeError, KeyError, AttributeError) as err:
            log.warning("a webhook post that is no update was refused (%s)", type(err).__name__)
            return web.Response(status=HTTPStatus.BAD_REQUEST)
        if isinstance(app.bot, ExtBot):
            app.bot.insert_callback_data(update)
        await app.update_queue.put(update)
        return web.Response(status=HTTPStatus.OK)

    return receive


async def serve_webhook(app: Application, url: str, listen: str, port: int, secret: str | None,
                        allowed_updates: list[str]) -> Stop:
    """Listen on `listen:port` at the path of `url`, then tell Telegram to post there. Returns how to
    stop listening. A webhook Telegram refuses raises its TelegramError (the server is closed first)."""
    server = web.Application(client_max_size=MAX_UPDATE)
    server.router.add_post("/" + urlparse(url).path.strip("/"), receiver(app, secret))
    runner = web.AppRunner(server, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    try:
        await web.TCPSite(runner, listen, port, reuse_address=True).start()
        await app.bot.set_webhook(url, secret_token=secret, allowed_updates=allowed_updates)
    except BaseException:
        await runner.cleanup()
        raise
    return runner.cleanup
