"""The web server's answer when the store cannot be reached: 503 with the sentence a player reads
("your move could not be saved — try again in a moment") and a Retry-After, instead of a 500 and a
traceback. A move's own failure is answered where it is made (bot/web/app.py, in the page's
language); this catches the rest (a page or a link whose table could not be read)."""

from __future__ import annotations

import json

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from bot.core.i18n import available_languages, t
from bot.core.models import StoreUnavailable
from storage.unavailable import unavailable

RETRY_AFTER_S = 2  # what a client waits before trying again: a blip lasts about that


def unavailable_response(text: str, status: int = 503) -> web.Response:
    body = json.dumps({"error": text, "code": "E_STORE_UNAVAILABLE"}, ensure_ascii=False)
    return web.Response(text=body, status=status, content_type="application/json",
                        headers={"Retry-After": str(RETRY_AFTER_S)})


def store_unavailable(default_lang: str) -> Middleware:
    @web.middleware
    async def middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except StoreUnavailable:
            pass
        except Exception as err:
            if not unavailable(err):
                raise
        lang = request.query.get("lang")
        lang = lang if lang in available_languages() else default_lang
        return unavailable_response(t("error.E_STORE_UNAVAILABLE", lang))

    return middleware
