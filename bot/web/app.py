"""The table in a browser: one aiohttp application serving the page, a small JSON API and a
server-sent-event stream per open page, over the same service, engines and store as the chats.

Every API request names a table and proves who is asking (bot/web/auth.py): a seat link or a
Telegram Mini App's initData for a seat, a spectator link for the public view. A request that
proves nothing gets 401 with an empty body — whether the signature was forged, expired or made for
another table is not said. Moves go through `TableService.press` with the page's version (a stale
page cannot act) and an idempotency key (a retried POST is applied once)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlencode

from aiohttp import hdrs, web
from aiohttp.typedefs import Handler
from pydantic import BaseModel, ValidationError

from bot.core.clock import Clock, SystemClock
from bot.core.codec import CodecError, mask_of
from bot.core.i18n import available_languages, catalog, resolve_language, t
from bot.core.models import Player, StoreUnavailable
from bot.core.presenter import HandUI, HandUIs, Presenter
from bot.core.presses import Command, NotYours, PageScreen, Played, Press, Presser, Shown, Suggest, Typed
from bot.core.render.common import render_error
from bot.core.service import TableService
from bot.web.auth import AuthError, SeatLinks, validate_init_data
from bot.web.frames import Frames, event
from bot.web.layout import BadLayout, check, parse_layout, play_text
from bot.web.limits import MAX_BODY, WebLimits
from bot.web.ops import add_ops
from bot.web.payload import payload
from bot.web.push import ENDED, Hub, successor
from bot.web.replay import Replays, frame
from bot.web.requests import MAX_INIT_DATA, MAX_LINK, CheckBody, MoveBody, Query, picks_of, sentence, staged_of
from bot.web.story import Story
from bot.web.throttle import MoveRate, Streams, refusal
from bot.web.unavailable import store_unavailable, unavailable_response
from storage import Store, TableRecord
from storage.feed import ChangeFeed, change_feed

STATIC = Path(__file__).with_name("static")
HEARTBEAT_S = 15.0  # a comment line now and then keeps proxies from closing an idle stream
FOLLOW_S = 1.0  # how often an ended table's page looks for the table that follows it
CATALOG_PREFIXES = ("web.", "game.")  # the page's own words and the games' names


@dataclass(frozen=True)
class WebConfig:
    links: SeatLinks
    bot_token: str | None = None  # Telegram's, for initData; None: no Mini App sign-in
    init_max_age_s: float = 24 * 3600.0
    default_lang: str = "en"
    limits: WebLimits = WebLimits()


@dataclass(frozen=True)
class Viewer:
    rec: TableRecord
    seat: int | None  # None: the public view
    player: Player | None
    lang: str
    # A stream ends then: the link's expiry, or a Mini App's auth_date + the configured max age (the
    # age a fresh sign-in may have), so a page left open stops seeing the table either way.
    expires: float = float("inf")
    signed: bool = False  # opened with a signed link (a Mini App page signs in with its initData)


HUB = web.AppKey("hub", Hub)
SERVICE = web.AppKey("service", TableService)
STORE = web.AppKey("store", Store)
CONFIG = web.AppKey("config", WebConfig)
CLOCK = web.AppKey("clock", Clock)
PRESENTER = web.AppKey("presenter", Presenter)
REPLAYS = web.AppKey("replays", Replays)
FEED = web.AppKey("feed", asyncio.Task)
FRAMES = web.AppKey("frames", Frames)
STREAMS = web.AppKey("streams", Streams)
MOVE_RATE = web.AppKey("move_rate", MoveRate)
STORY = web.AppKey("story", Story)
# Telegram's web clients show a Mini App in a frame; no other site may frame the page.
FRAME_ANCESTORS = "'self' https://web.telegram.org https://*.telegram.org"
Model = TypeVar("Model", bound=BaseModel)
log = logging.getLogger(__name__)


def unauthorized() -> web.HTTPUnauthorized:
    return web.HTTPUnauthorized(text="")


def _lang(request: web.Request, fallback: str | None, default: str) -> str:
    """The link's `lang`, else the Mini App user's Telegram language (`pt-br` → pt_BR), else the default."""
    for choice in (request.query.get("lang"), fallback, default):
        if (lang := resolve_language(choice)) is not None:
            return lang
    return "en"


def query(request: web.Request) -> Query:
    try:
        return Query.model_validate(dict(request.query))
    except ValidationError as err:
        raise web.HTTPBadRequest(text=sentence(err)) from None


def _credentials(request: web.Request) -> tuple[str | None, str | None]:
    q = query(request)
    link = request.headers.get("X-Rummy-Link") or q.k
    init = request.headers.get("X-Telegram-Init-Data") or q.tma
    if link is not None and len(link) > MAX_LINK:
        raise web.HTTPBadRequest(text=f"X-Rummy-Link: a link has at most {MAX_LINK} characters")
    if init is not None and len(init) > MAX_INIT_DATA:
        raise web.HTTPBadRequest(text=f"X-Telegram-Init-Data: initData has at most {MAX_INIT_DATA} characters")
    return link, init


async def viewer(request: web.Request, read: Callable[[str], Awaitable[TableRecord | None]] | None = None) -> Viewer:
    """Who asks, with the table as `read` gives it (by default a read of the store)."""
    app = request.app
    read = read or app[STORE].get_table
    config, now = app[CONFIG], app[CLOCK].now()
    table_id = request.match_info["table"]
    link, init = _credentials(request)
    try:
        if link:
            granted = config.links.verify(link, now)
            if granted.table_id != table_id:
                raise AuthError("foreign table")
            rec = await read(table_id)
            if rec is None:
                raise AuthError("no table")
            if granted.seat is None:
                return Viewer(rec, None, None, _lang(request, None, config.default_lang), granted.expires, True)
            if not 0 <= granted.seat < len(rec.seats):
                raise AuthError("no seat")
            s = rec.seats[granted.seat]
            if s.kind != "human" or s.platform is None or s.user_id is None:
                raise AuthError("not a player's seat")
            return Viewer(rec, granted.seat, Player(s.platform, s.user_id, s.name),
                          _lang(request, None, config.default_lang), granted.expires, True)
        if init and config.bot_token:
            user = validate_init_data(init, config.bot_token, config.init_max_age_s, now)
            rec = await read(table_id)
            if rec is None:
                raise AuthError("no table")
            player = Player("telegram", str(user.id), user.name)
            seat = TableService.seat_of(rec, player)
            return Viewer(rec, seat, player if seat is not None else None,
                          _lang(request, user.lang, config.default_lang), user.auth_date + config.init_max_age_s)
    except AuthError:
        raise unauthorized() from None
    raise unauthorized()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.json_response(data, status=status, headers=headers, dumps=lambda d: json.dumps(d, ensure_ascii=False))


async def get_table(request: web.Request) -> web.Response:
    try:
        q = query(request)
        picks = picks_of(q.picks)
        staged = staged_of(q.staged, picks)
    except ValueError as err:
        raise web.HTTPBadRequest(text=str(err)) from None
    v = await viewer(request)
    return _json(await payload(request.app[PRESENTER], v.rec, v.seat, v.lang, picks, request.app[CLOCK].now(),
                               staged, request.app[STORY]))


async def _body(request: web.Request, model: type[Model]) -> Model:
    """The body, whole within the body timeout and the size limit, as `model` — or a 4xx naming
    what is wrong. pydantic parses and checks in one pass, its parser's nesting limit included."""
    try:
        async with asyncio.timeout(request.app[CONFIG].limits.body_timeout_s):
            raw = await request.read()
    except TimeoutError:
        late = web.HTTPRequestTimeout(text="The request body did not arrive in time.")
        late.force_close()  # the rest of the body is not waited for
        raise late from None
    try:
        return model.model_validate_json(raw)
    except ValidationError as err:
        raise web.HTTPBadRequest(text=sentence(err)) from None


def _pressed(body: MoveBody) -> tuple[Press, PageScreen]:
    """The move body as a press for the service to decode: a whole Rummikub layout as one `play`, a
    control press with the page's own picks and staged melds, or a suggested move by its index
    (never from words the page sends)."""
    if body.play is not None:
        return Typed(play_text(parse_layout(body.play))), PageScreen()
    if body.suggestion is not None:
        return Suggest(body.suggestion), PageScreen()
    assert body.press is not None
    picks = body.press.picks
    screen = HandUI(picks=tuple(picks), staged=tuple(tuple(g) for g in body.press.staged))
    return Command(body.press.index, mask_of(picks) if picks else "0", body.press.option), PageScreen(screen)


class TooFast(Exception):
    """A Mini App's seat, found by the service, has used its move allowance for now."""

    def __init__(self, wait: float) -> None:
        super().__init__(wait)
        self.wait = wait


def _presser(request: web.Request) -> tuple[Presser, str, str]:
    """Who posts a move, known without reading the table (the service reads it once, under its
    gate): a seat link's seat, or a Mini App's Telegram user; with the page's language and who the
    idempotency key is of. 401 for a link or initData that proves nothing, 403 for a spectator."""
    config, now, table_id = request.app[CONFIG], request.app[CLOCK].now(), request.match_info["table"]
    link, init = _credentials(request)
    try:
        if link:
            granted = config.links.verify(link, now)
            if granted.table_id != table_id:
                raise AuthError("foreign table")
            if granted.seat is None:
                raise web.HTTPForbidden(text="")
            return Presser(None, granted.seat), _lang(request, None, config.default_lang), str(granted.seat)
        if init and config.bot_token:
            user = validate_init_data(init, config.bot_token, config.init_max_age_s, now)
            player = Player("telegram", str(user.id), user.name)
            return Presser(player), _lang(request, user.lang, config.default_lang), f"tg:{user.id}"
    except AuthError:
        raise unauthorized() from None
    raise unauthorized()


def _too_fast(lang: str, wait: float) -> web.Response:
    return _json({"error": t("web.too_fast", lang)}, 429, {"Retry-After": str(max(1, math.ceil(wait)))})


async def post_move(request: web.Request) -> web.Response:
    """A move: the body read as a press and handed to the service, which decodes and applies it in
    one read of the table under its gate (bot/core/presses.py); the answer is the seat's payload."""
    body = await _body(request, MoveBody)
    table_id, rate = request.match_info["table"], request.app[MOVE_RATE]
    who, lang, key = _presser(request)
    # A link's seat is counted (and refused) before the table is read: a flood of posts costs no
    # read each. A Mini App's seat is known once the service has found it, before any decode.
    if who.seat is not None and (wait := rate.wait(table_id, who.seat)):
        return _too_fast(lang, wait)

    def admit(seat: int) -> None:
        if who.seat is None and (late := rate.wait(table_id, seat)):
            raise TooFast(late)

    try:
        pressed, screen = _pressed(body)
        result = await request.app[SERVICE].press(table_id, who, pressed, screen, version=body.version,
                                                  key=f"web:{table_id}:{key}:{body.key}", admit=admit)
    except BadLayout:
        raise web.HTTPBadRequest(text="play: not a layout of tiles") from None
    except TooFast as slow:
        return _too_fast(lang, slow.wait)
    if isinstance(result, Played):
        outcome = await result.outcome.settled()
        return _json(await payload(request.app[PRESENTER], outcome.table, result.seat, lang,
                                   now=request.app[CLOCK].now(), story=request.app[STORY]))
    if isinstance(result, Shown | NotYours):  # the page sends no screen press, and no other seat's
        raise web.HTTPBadRequest(text="press: not a move")
    err, game = result.error, result.table.game if result.table is not None else None
    if isinstance(err, StoreUnavailable):  # nothing stored: the page says so and the player tries again
        return unavailable_response(render_error(err, lang, game))
    if isinstance(err, CodecError):
        return _json({"error": t("web.error.E_STALE", lang)}, 409)
    if err.code in ("E_NO_TABLE", "E_NOT_SEATED"):  # the link's table or seat is not (or no longer) there
        if who.player is None or err.code == "E_NO_TABLE":
            raise unauthorized()
        raise web.HTTPForbidden(text="")
    status = 409 if err.code == "E_STALE" else 422
    refused: dict[str, Any] = {"error": render_error(err, lang, game, "web"), "code": err.code}
    if err.code == "E_INVALID_MELD" and isinstance(err.params.get("index"), int):
        refused["meld"] = err.params["index"] - 1  # the page shows the sentence on that meld
    return _json(refused, status)


async def post_check(request: web.Request) -> web.Response:
    body = await _body(request, CheckBody)
    v = await viewer(request)
    if v.seat is None or v.rec.game != "rummikub" or v.rec.state is None:
        raise web.HTTPForbidden(text="")
    # A check runs the engine like a move: it draws on the same allowance.
    if wait := request.app[MOVE_RATE].wait(v.rec.id, v.seat):
        raise refusal(web.HTTPTooManyRequests, "Too many checks from this seat; wait a moment.", wait)
    try:
        layout = parse_layout(body.layout)
    except BadLayout:
        raise web.HTTPBadRequest(text="layout: not a layout of tiles") from None
    return _json(check(v.rec, v.seat, layout, v.lang))


def _moved(request: web.Request, v: Viewer, nxt: TableRecord, seat: int | None) -> dict[str, Any]:
    """The table an ended one's page moves on to, for the same player (or the public): a page opened
    with a link gets a link to the new table signed for the player's seat there, expiring when its
    own does (moving on grants no more time); a Mini App page signs in there with its initData."""
    out: dict[str, Any] = {"table": nxt.id, "seat": seat, "status": nxt.status, "path": f"/table/{nxt.id}"}
    if v.signed:
        out["link"] = request.app[CONFIG].links.token(nxt.id, seat, v.expires)
        out["path"] += "?" + urlencode({"k": out["link"], "lang": v.lang})
    return out


async def events(request: web.Request) -> web.StreamResponse:
    """One stream per page: the seat's payload now and after every commit of its table (by this
    process or another), until the link or sign-in it was opened with expires (by the app's clock):
    then the server ends it, so an expired page stops seeing the table even when left open, not only
    when it reconnects. Once the table has ended, a `moved` event names the table that follows it
    (a rematch), and the stream stays open for the page to leave. The table's read and its `table`
    event are shared with the other pages of the table (bot/web/frames.py), from the first read on:
    a thousand pages opening at once make one read, not a thousand in the store's queue."""
    app = request.app
    app[STREAMS].room(request.remote or "")
    opening = app[STREAMS].opening  # bot/web/limits.py OPENINGS_AT_ONCE: the turns a crowd takes
    await opening.acquire()
    released = False

    def opened() -> None:
        nonlocal released
        if not released:
            released = True
            opening.release()

    try:
        v = await viewer(request, app[FRAMES].current)
        link, _ = _credentials(request)
        who = link or f"tma:{v.rec.id}:{v.seat}:{v.player.user_id if v.player else request.remote}"
        hub, frames = app[HUB], app[FRAMES]
        resp = web.StreamResponse(headers={"Content-Type": "text/event-stream", "X-Accel-Buffering": "no"})
        with app[STREAMS].admit(who, request.remote or ""):
            try:
                with hub.watch(v.rec.id, (v.seat, v.lang)) as wake:
                    await resp.prepare(request)
                    await _stream(request, v, resp, wake, opened)
            finally:
                if not hub.watching(v.rec.id):
                    frames.forget(v.rec.id)
    finally:
        opened()
    return resp


async def _stream(request: web.Request, v: Viewer, resp: web.StreamResponse, wake: asyncio.Event,
                  opened: Callable[[], None]) -> None:
    """`opened` is called once the first events are written: the next stream may open."""
    app = request.app
    clock, store, hub, frames = app[CLOCK], app[STORE], app[HUB], app[FRAMES]
    last, moved = None, None
    try:
        while not hub.closed and clock.now() < v.expires:
            wake.clear()  # before the read: a commit after it wakes the wait below
            rec = await frames.record(v.rec.id, hub.generation(v.rec.id))
            if rec is not None and rec.version != last:
                await resp.write(await frames.table_event(rec, v.seat, v.lang))
                last = rec.version
            if moved is None and rec is not None and (nxt := await successor(store, rec, v.player)):
                await resp.write(event("moved", _moved(request, v, *nxt)))
                moved = nxt[0].id
            # An ended table's next one may be opened by another process: nothing of this table
            # changes then, so the page looks for it now and then rather than at heartbeats only.
            follow = moved is None and rec is not None and rec.status in ENDED
            opened()
            left = v.expires - clock.now()
            try:
                await asyncio.wait_for(wake.wait(), max(0.0, min(FOLLOW_S if follow else HEARTBEAT_S, left)))
            except TimeoutError:
                if clock.now() < v.expires:
                    await resp.write(b": ping\n\n")
    except (ConnectionResetError, asyncio.CancelledError):
        pass


async def replay(request: web.Request) -> web.Response:
    """A finished match's step `step`: the public view, or the asking seat's own."""
    v = await viewer(request)
    if v.rec.status != "finished":
        raise web.HTTPForbidden(text="")
    index = int(query(request).step or "0")
    app = request.app
    return _json(await frame(app[REPLAYS], app[PRESENTER], v.rec, v.seat, v.lang, index))


async def words(request: web.Request) -> web.Response:
    lang = request.match_info["lang"]
    if lang not in available_languages():
        raise web.HTTPNotFound()
    keys = [k for k in catalog("en") if k.startswith(CATALOG_PREFIXES)]
    return _json({k: t(k, lang) for k in keys})


async def page(request: web.Request) -> web.FileResponse:
    resp = web.FileResponse(STATIC / "index.html")
    # No external host but Telegram's script, which the page loads only inside Telegram.
    resp.headers["Content-Security-Policy"] = (
        "default-src 'self'; script-src 'self' https://telegram.org; style-src 'self'; img-src 'self' data:; "
        f"frame-ancestors {FRAME_ANCESTORS}")
    return resp


async def favicon(request: web.Request) -> web.FileResponse:
    # Browsers ask for /favicon.ico whatever the page links; a day's cache spares the repeat asks.
    return web.FileResponse(STATIC / "favicon.ico", headers={"Cache-Control": "public, max-age=86400"})


@web.middleware
async def hung_up(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A client that hangs up mid-request makes a body read or a write raise ConnectionResetError:
    nothing failed here and no one is left to answer, so it is not logged as an error (aiohttp would,
    with a traceback). The answer returned goes nowhere; aiohttp notes the disconnect at DEBUG."""
    try:
        return await handler(request)
    except ConnectionResetError:
        if request.transport is not None and not request.transport.is_closing():
            raise  # not this client's connection: a real failure
        return web.Response(status=400)


async def secure_headers(request: web.Request, resp: web.StreamResponse) -> None:
    """On every response, errors included: no type sniffing, no address (with its token) sent on to
    another site; pages and API answers (a link's token is in their address, a seat's hand in their
    body) are never stored by a browser or proxy."""
    resp.headers.setdefault("X-Content-Type-Options", "nosniff")
    resp.headers.setdefault("Referrer-Policy", "no-referrer")
    if not request.path.startswith("/static/") and request.path != "/favicon.ico":
        resp.headers["Cache-Control"] = "no-store"
    if request.path.startswith("/api/") or request.path.startswith("/static/"):
        resp.headers.setdefault("Content-Security-Policy", "frame-ancestors 'none'")
    if request.path.startswith("/api/table/"):
        # The server's clock, on refusals too: a page tells an expired link (its link names the
        # expiry) from one this server no longer signs, whatever the device's clock says.
        resp.headers["X-Server-Time"] = f"{request.app[CLOCK].now():.0f}"


COMPRESSED = (".js", ".css", ".html", ".svg")


@web.middleware
async def compressed(request: web.Request, handler: Handler) -> web.StreamResponse:
    """The page and its static files gzipped (or deflated) for a client that accepts it: 62 % less to
    send. Set before the answer is prepared (aiohttp picks the coding then); never the event stream,
    whose events compression would hold back, nor a range of a file."""
    resp = await handler(request)
    path = request.path
    page = path == "/" or path.startswith(("/table/", "/replay/")) or (
        path.startswith("/static/") and path.endswith(COMPRESSED))
    if page and isinstance(resp, web.FileResponse) and hdrs.RANGE not in request.headers:
        resp.enable_compression()
    return resp


async def _follow(feed: ChangeFeed, hub: Hub) -> None:
    try:
        await feed.run(hub.tables, hub.wake)
    except Exception:  # the pages still get this process's commits; say why the others' stopped
        log.exception("the change feed stopped: moves made by other processes no longer reach the pages")


def create_app(service: TableService, store: Store, config: WebConfig, clock: Clock | None = None,
               feed: ChangeFeed | None = None) -> web.Application:
    """`feed` tells of commits made by other processes on the same store (by default the store's own
    feed, storage/feed.py); this process's commits reach the pages through the service at once."""
    app = web.Application(client_max_size=MAX_BODY, middlewares=[hung_up, compressed, store_unavailable(config.default_lang)])
    hub = Hub()
    app[HUB], app[SERVICE], app[STORE], app[CONFIG] = hub, service, store, config
    app[CLOCK] = clock or service.clock or SystemClock()
    app[PRESENTER] = Presenter(HandUIs(store))
    app[STORY] = Story(store)
    app[FRAMES] = Frames(store, app[PRESENTER], app[CLOCK], hub, app[STORY])
    hub.prepare = app[FRAMES].prepare
    app[STREAMS] = Streams(config.limits)
    app[MOVE_RATE] = MoveRate(config.limits, app[CLOCK])
    app.on_response_prepare.append(secure_headers)
    app[REPLAYS] = Replays(store)
    service.commit_listeners.append(hub.changed)

    async def detach(_: web.Application) -> None:
        if hub.changed in service.commit_listeners:
            service.commit_listeners.remove(hub.changed)

    async def close_streams(_: web.Application) -> None:
        hub.close()

    async def start_feed(_: web.Application) -> None:
        app[FEED] = asyncio.create_task(_follow(feed or change_feed(store), hub))

    async def stop_feed(_: web.Application) -> None:
        app[FEED].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await app[FEED]

    app.on_startup.append(start_feed)
    app.on_shutdown.append(close_streams)
    app.on_cleanup.append(detach)
    app.on_cleanup.append(stop_feed)
    app.router.add_get("/", page)
    app.router.add_get("/table/{table}", page)
    app.router.add_get("/replay/{table}", page)
    app.router.add_static("/static", STATIC)
    app.router.add_get("/favicon.ico", favicon)
    app.router.add_get("/api/words/{lang}", words)
    app.router.add_get("/api/table/{table}", get_table)
    app.router.add_post("/api/table/{table}/move", post_move)
    app.router.add_post("/api/table/{table}/check", post_check)
    app.router.add_get("/api/table/{table}/events", events)
    app.router.add_get("/api/table/{table}/replay", replay)
    add_ops(app, service.store)  # /healthz, /readyz, /metrics (bot/web/ops.py)
    return app
