"""A fake Discord (REST v10 + Gateway) on 127.0.0.1 for end-to-end tests of the adapter.

Adapted from shared/reference/botlab: adds channel message edits, DM channels (closable),
per-member permissions, threads, and a per-request view of which messages are ephemeral.

Pointing discord.py at it (both are process-global class attributes; use
pytest's monkeypatch so they are restored):
    discord.http.Route.BASE = fake.api_base                 # "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
(`Client` does NOT call GET /gateway/bot in 2.7 - it connects straight to
DEFAULT_GATEWAY; only AutoShardedClient asks /gateway/bot.)

Message limits are enforced as Discord does (400, code 50035 "Invalid Form Body") on every message
the bot sends or edits (interaction responses, follow-ups, webhook edits, channel messages): content
≤ 2000, ≤ 10 embeds, embed title ≤ 256, description ≤ 4096, ≤ 25 fields, field name ≤ 256 and
value ≤ 1024, footer ≤ 2048, author ≤ 256, all embed text together ≤ 6000; button labels ≤ 80,
custom ids ≤ 100, link urls ≤ 512, ≤ 5 action rows, ≤ 5 buttons in a row or one select alone, ≤ 25 select options
with labels and values ≤ 100, placeholders ≤ 150; autocomplete ≤ 25 choices, name and value ≤ 100;
≤ 10 attachments a message (50035) and ≤ 25 MiB each (413, 40005 "Request entity too large").
Attachments are kept on their messages (see fake_attachments): their bytes in `files` by attachment
id, and an embed image naming no attachment of its message in `missing_images`.
Each refusal is kept in `rejected` so the harness fails a test in which the bot sent what Discord
drops. Inbound, a string option holds ≤ 6000.

Time limits, on the injectable `clock`: the initial response to an interaction within 3 s (else
404 10062 "Unknown interaction"); follow-ups and edits or deletes of its messages through the
interaction token within 15 minutes (else 401 50027 "Invalid Webhook Token"). Both kinds of lateness
are kept in `expired`.

REST quirk: discord.py only JSON-decodes a body when the Content-Type header is
exactly "application/json" (aiohttp's web.json_response adds "; charset=utf-8",
which makes every response a str and breaks login) -> see _json().
"""
from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import json
import re
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord.fake_attachments import attach, attachment_errors, too_large

JSON = dict[str, Any]
DISCORD_EPOCH_MS = 1420070400000
EPHEMERAL = 1 << 6
CONTENT_MAX = 2000
OPTION_VALUE_MAX = 6000  # a slash command's string option, as the client lets a user type it
_EMBED_LIMITS = {"title": 256, "description": 4096}
EMBED_TOTAL_MAX = 6000
PLAIN_MEMBER = 0x400 | 0x800 | 0x80000000  # view channel, send messages, use app commands
MANAGE_GUILD = 1 << 5


@dataclass
class Req:
    method: str
    path: str            # path without the /api/v10 prefix, e.g. /interactions/1/tok/callback
    query: dict[str, str]
    json: Any
    files: dict[str, bytes] = field(default_factory=dict)
    t: float = field(default_factory=time.perf_counter)
    at: float = 0.0  # the fake's clock when the request came
    status: int = 200  # what the fake answered


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json", headers=headers)


def _now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


class FakeDiscord:
    def __init__(self, token: str = "FAKE.TOKEN", *, app_id: int = 900000000000000001,
                 zlib_stream: bool = False, allowed_intents: int | None = None) -> None:
        self.token = token
        self.app_id = app_id
        self.zlib_stream = zlib_stream          # honour ?compress=zlib-stream (else plain TEXT frames)
        self.allowed_intents = allowed_intents  # if set, IDENTIFY with other bits -> close 4014
        self._sf = itertools.count(1)
        self.bot_user = self.user(app_id, "FakeBot", bot=True)
        self.owner = self.user(self.snowflake(), "owner")
        self.guild_id = self.snowflake()
        self.channel_id = self.snowflake()
        self.requests: list[Req] = []
        self.identifies: list[JSON] = []
        self.gateway_queries: list[dict[str, str]] = []   # e.g. {'v': '10', 'encoding': 'json', 'compress': 'zlib-stream'}
        self.commands: dict[int | None, list[JSON]] = {}    # guild_id|None -> registered commands
        self.messages: dict[int, JSON] = {}
        self.interactions: dict[str, JSON] = {}             # token -> interaction payload
        self.original: dict[str, int] = {}                  # token -> @original message id
        self.ready = asyncio.Event()
        self.permissions: dict[str, int] = {}               # user id -> permission bits
        self.dm_channels: dict[int, str] = {}               # DM channel id -> user id
        self.dm_closed: set[str] = set()
        self.threads: list[int] = []
        self.rejected: list[tuple[str, JSON]] = []           # (path, errors) of every limit refusal
        self.files: dict[str, bytes] = {}                   # attachment id -> the uploaded bytes
        self.missing_images: list[tuple[str, str]] = []      # (message id, url) of embeds showing no attachment
        self.failures: list[tuple[str, str, int, float]] = []  # (method, path regex, status, retry_after)                    # user ids whose DMs refuse the bot
        self.locale = "en-US"
        # Interactions expire 3 s after they are created unless answered (10062 "Unknown interaction").
        # The clock is injectable (the harness passes its FakeClock) so a test makes time pass without sleeping.
        self.clock: Callable[[], float] = time.monotonic
        self.answer_within_s = 3.0
        self.token_valid_s = 15 * 60.0  # an interaction token works for follow-ups this long
        self.created_at: dict[str, float] = {}              # token -> clock() when the interaction was sent
        self.expired: list[str] = []                         # tokens answered too late (refused with 10062)
        self.deferred: dict[str, int] = {}                  # token -> callback type, for type 5's first follow-up
        self._sockets: list[_GatewaySession] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.port: int | None = None

    # ------------------------------------------------------------------ lifecycle
    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v{v:\\d+}/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for s in list(self._sockets):
            await s.ws.close()
        if self._runner:
            await self._runner.cleanup()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ------------------------------------------------------------ payload makers
    def snowflake(self) -> int:
        return ((int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22) | (next(self._sf) & 0x3FFFFF)

    @staticmethod
    def user(uid: int, name: str, bot: bool = False) -> JSON:
        return {"id": str(uid), "username": name, "discriminator": "0", "global_name": name,
                "avatar": None, "bot": bot, "public_flags": 0, "flags": 0}

    def text_channel(self) -> JSON:
        return {"id": str(self.channel_id), "type": 0, "guild_id": str(self.guild_id),
                "name": "general", "position": 0, "permission_overwrites": [], "nsfw": False,
                "parent_id": None, "topic": None, "last_message_id": None,
                "rate_limit_per_user": 0, "flags": 0}

    def member(self, user: JSON) -> JSON:
        perms = self.permissions.get(user["id"], PLAIN_MEMBER)
        return {"user": user, "roles": [], "joined_at": _now_iso(), "deaf": False, "mute": False,
                "flags": 0, "pending": False, "nick": None, "avatar": None,
                "permissions": str(perms)}

    def guild(self) -> JSON:
        gid = str(self.guild_id)
        return {"id": gid, "name": "Test Guild", "icon": None, "owner_id": self.owner["id"],
                "unavailable": False, "member_count": 2, "large": False, "joined_at": _now_iso(),
                "roles": [{"id": gid, "name": "@everyone", "permissions": "2248473465835073",
                           "position": 0, "color": 0, "hoist": False, "managed": False,
                           "mentionable": False, "flags": 0}],
                "channels": [self.text_channel()], "threads": [],
                "members": [self.member(self.bot_user)], "presences": [], "voice_states": [],
                "emojis": [], "stickers": [], "features": [], "stage_instances": [],
                "guild_scheduled_events": [], "preferred_locale": "en-US", "premium_tier": 0,
                "verification_level": 0, "default_message_notifications": 0,
                "explicit_content_filter": 0, "mfa_level": 0, "nsfw_level": 0,
                "system_channel_flags": 0}

    def message(self, *, content: str = "", author: JSON | None = None, flags: int = 0,
                components: list | None = None, embeds: list | None = None,
                channel_id: int | None = None, **extra: Any) -> JSON:
        mid = self.snowflake()
        msg = {"id": str(mid), "channel_id": str(channel_id or self.channel_id),
               "author": author or self.bot_user, "content": content, "timestamp": _now_iso(),
               "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
               "mention_roles": [], "attachments": [], "embeds": embeds or [], "pinned": False,
               "type": 0, "flags": flags, "components": components or [], **extra}
        self.messages[mid] = msg
        return msg

    def _interaction(self, itype: int, data: JSON, *, user: JSON | None, in_guild: bool,
                     message: JSON | None = None) -> JSON:
        user = user or self.user(4242, "alice")
        iid = self.snowflake()
        token = f"itok-{iid}"
        p: JSON = {"id": str(iid), "application_id": str(self.app_id), "type": itype,
                   "token": token, "version": 1, "data": data, "locale": self.locale,
                   "app_permissions": "2251799813685247", "entitlements": [],
                   "attachment_size_limit": 26214400}
        if in_guild:
            p.update(guild_id=str(self.guild_id), guild_locale="en-US", context=0,
                     guild={"id": str(self.guild_id), "locale": "en-US", "features": []},
                     channel_id=str(self.channel_id), channel=self.text_channel(),
                     member=self.member(user),
                     authorizing_integration_owners={"0": str(self.guild_id)})
        else:
            dm = self.snowflake()
            p.update(user=user, context=1, channel_id=str(dm),
                     channel={"id": str(dm), "type": 1, "recipients": [user], "flags": 0,
                              "last_message_id": None},
                     authorizing_integration_owners={"1": user["id"]})
        if message is not None:
            p["message"] = message
        self.interactions[token] = p
        return p

    def slash(self, name: str, options: list[JSON] | None = None, *, user: JSON | None = None,
              in_guild: bool = True) -> JSON:
        cmd = next((c for c in self.commands.get(None, []) if c["name"] == name), None)
        data = {"id": cmd["id"] if cmd else str(self.snowflake()), "name": name, "type": 1}
        if options:
            data["options"] = options     # e.g. [{"name": "text", "type": 3, "value": "hi"}]
        return self._interaction(2, data, user=user, in_guild=in_guild)

    def click(self, custom_id: str, message: JSON, *, user: JSON | None = None,
              component_type: int = 2, values: list[str] | None = None,
              in_guild: bool = True) -> JSON:
        data: JSON = {"custom_id": custom_id, "component_type": component_type}
        if values is not None:
            data["values"] = values
        return self._interaction(3, data, user=user, in_guild=in_guild,
                                 message=message)

    def fail_next(self, method: str, path_re: str, status: int = 429, retry_after: float = 0.01) -> None:
        self.failures.append((method, path_re, status, retry_after))

    # ----------------------------------------------------------------- gateway
    async def dispatch(self, event: str, data: JSON) -> None:
        for s in list(self._sockets):
            await s.dispatch(event, data)

    async def send_interaction(self, payload: JSON) -> JSON:
        for opt in _options(payload.get("data") or {}):
            if opt.get("type") == 3 and len(str(opt.get("value", ""))) > OPTION_VALUE_MAX:
                raise ValueError(f"Discord clients send at most {OPTION_VALUE_MAX} characters in an option")
        self.created_at[payload["token"]] = self.clock()
        await self.dispatch("INTERACTION_CREATE", payload)
        return payload

    def token_expired(self, token: str) -> bool:
        """True once an interaction token is older than its 15 minutes."""
        return token in self.created_at and self.clock() - self.created_at[token] > self.token_valid_s

    def expire(self, token: str) -> None:
        """Declare an interaction older than Discord's 3 s: its callback is refused from now on."""
        self.created_at[token] = self.clock() - self.answer_within_s - 1

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        self.gateway_queries.append(dict(request.query))
        zlib_on = self.zlib_stream and request.query.get("compress") == "zlib-stream"
        sess = _GatewaySession(self, ws, zlib_on)
        self._sockets.append(sess)
        try:
            await sess.run(dict(request.query))
        finally:
            self._sockets.remove(sess)
        return ws

    # -------------------------------------------------------------------- REST
    def requests_to(self, method: str, path_re: str) -> list[Req]:
        return [r for r in self.requests if r.method == method and re.fullmatch(path_re, r.path)]

    async def wait_for_request(self, method: str, path_re: str,
                               pred: Callable[[Req], bool] = lambda r: True,
                               timeout: float = 5.0) -> Req:
        async def _wait() -> Req:
            async with self._changed:
                while True:
                    for r in self.requests:
                        if r.method == method and re.fullmatch(path_re, r.path) and pred(r):
                            return r
                    await self._changed.wait()
        return await asyncio.wait_for(_wait(), timeout)

    async def _parse(self, request: web.Request) -> tuple[Any, dict[str, bytes]]:
        files: dict[str, bytes] = {}
        if request.content_type == "multipart/form-data":   # payload_json + files[n]
            body = None
            reader = await request.multipart()
            async for part in reader:
                if part.name == "payload_json":
                    body = json.loads(await part.text())
                else:
                    files[part.filename or part.name] = await part.read()
            return body, files
        raw = await request.read()
        return (json.loads(raw) if raw else None), files

    async def _rest(self, request: web.Request) -> web.Response:
        path = "/" + request.match_info["path"]
        body, files = await self._parse(request)
        req = Req(request.method, path, dict(request.query), body, files, at=self.clock())
        async with self._changed:
            self.requests.append(req)
            self._changed.notify_all()
        response = self._answer(request, req)
        req.status = response.status
        return response

    def _answer(self, request: web.Request, req: Req) -> web.Response:
        path = req.path
        for failure in self.failures:
            method, pattern, status, retry_after = failure
            if method == request.method and re.fullmatch(pattern, path):
                self.failures.remove(failure)
                # a real rate limit comes through Cloudflare (Via); without it discord.py assumes a ban
                return _json({"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
                             status, headers={"Via": "1.1 google", "X-RateLimit-Scope": "user"})
        is_webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            return _json({"message": "401: Unauthorized", "code": 0}, 401)
        for (m, pattern), fn in _ROUTES.items():
            if m == request.method and (mt := re.fullmatch(pattern, path)):
                out = fn(self, req, *mt.groups())
                return out if isinstance(out, web.Response) else _json(out)
        return _json({"message": "404: Not Found", "code": 0}, 404)


class _GatewaySession:
    HELLO, IDENTIFY, HEARTBEAT, HEARTBEAT_ACK, RESUME, DISPATCH = 10, 2, 1, 11, 6, 0

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, zlib_on: bool) -> None:
        self.fake, self.ws, self.seq = fake, ws, 0
        self._z = zlib.compressobj() if zlib_on else None
        self._lock = asyncio.Lock()

    async def send(self, payload: JSON) -> None:
        raw = json.dumps(payload)
        async with self._lock:
            if self._z:   # zlib-stream: one shared context, each message ends with Z_SYNC_FLUSH
                await self.ws.send_bytes(self._z.compress(raw.encode()) + self._z.flush(zlib.Z_SYNC_FLUSH))
            else:
                await self.ws.send_str(raw)

    async def dispatch(self, event: str, data: JSON) -> None:
        self.seq += 1
        await self.send({"op": 0, "t": event, "s": self.seq, "d": data})

    async def run(self, query: dict[str, str]) -> None:
        await self.send({"op": self.HELLO, "d": {"heartbeat_interval": 41250}, "s": None, "t": None})
        async for msg in self.ws:
            if msg.type != WSMsgType.TEXT:
                continue
            p = json.loads(msg.data)
            op = p.get("op")
            if op == self.HEARTBEAT:
                await self.send({"op": self.HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            elif op == self.IDENTIFY:
                d = p["d"]
                self.fake.identifies.append(d)
                if d.get("token") != self.fake.token:
                    await self.ws.close(code=4004, message=b"Authentication failed.")
                    return
                ai = self.fake.allowed_intents
                if ai is not None and d.get("intents", 0) & ~ai:
                    await self.ws.close(code=4014, message=b"Disallowed intent(s).")
                    return
                ready_extra = {"shard": d["shard"]} if "shard" in d else {}  # AutoShardedClient needs it
                await self.dispatch("READY", {**ready_extra,
                    "v": 10, "user": self.fake.bot_user, "session_id": "fake-session",
                    "resume_gateway_url": self.fake.gateway_url,
                    "guilds": [{"id": str(self.fake.guild_id), "unavailable": True}],
                    "application": {"id": str(self.fake.app_id), "flags": 0},
                    "private_channels": [], "relationships": []})
                await self.dispatch("GUILD_CREATE", self.fake.guild())
                self.fake.ready.set()
            elif op == self.RESUME:
                await self.dispatch("RESUMED", {})


# ------------------------------------------------------------------ limits
def _options(data: JSON) -> list[JSON]:
    out = []
    for opt in data.get("options") or []:
        out.append(opt)
        out += _options(opt)
    return out


def _too_long(errors: JSON, where: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors[where] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                      "message": f"Must be {limit} or fewer in length."}]}


def message_errors(body: JSON | None) -> JSON:
    """What Discord would refuse in a message body (create or edit), as its `errors` object."""
    errors: JSON = {}
    d = body or {}
    _too_long(errors, "content", d.get("content"), CONTENT_MAX)
    embeds = d.get("embeds") or []
    if len(embeds) > 10:
        errors["embeds"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 10 or fewer in length."}]}
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            _too_long(errors, f"embeds.{i}.{key}", e.get(key), limit)
        fields = e.get("fields") or []
        if len(fields) > 25:
            errors[f"embeds.{i}.fields"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                          "message": "Must be 25 or fewer in length."}]}
        for j, fld in enumerate(fields):
            _too_long(errors, f"embeds.{i}.fields.{j}.name", fld.get("name"), 256)
            _too_long(errors, f"embeds.{i}.fields.{j}.value", fld.get("value"), 1024)
        footer, author = (e.get("footer") or {}).get("text"), (e.get("author") or {}).get("name")
        _too_long(errors, f"embeds.{i}.footer.text", footer, 2048)
        _too_long(errors, f"embeds.{i}.author.name", author, 256)
        texts = [e.get("title"), e.get("description"), footer, author]
        texts += [x for fld in fields for x in (fld.get("name"), fld.get("value"))]
        total += sum(len(x) for x in texts if isinstance(x, str))
    if total > EMBED_TOTAL_MAX:
        errors["embeds"] = {"_errors": [{"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}]}
    rows = d.get("components") or []
    if len(rows) > 5:
        errors["components"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 5 or fewer in length."}]}
    for r, row in enumerate(rows):
        inner = row.get("components") or []
        if row.get("type") != 1:
            errors[f"components.{r}"] = {"_errors": [{"code": "UNION_TYPE_CHOICES",
                                                      "message": "Value of field \"type\" must be one of (1,)."}]}
        elif len(inner) > 5 or (len(inner) > 1 and any(c.get("type") != 2 for c in inner)):
            # a row holds up to five buttons, or one select menu alone
            errors[f"components.{r}.components"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                                 "message": "Must be 5 or fewer in length."}]}
        for c, comp in enumerate(inner):
            where = f"components.{r}.components.{c}"
            _too_long(errors, f"{where}.label", comp.get("label"), 80)
            _too_long(errors, f"{where}.custom_id", comp.get("custom_id"), 100)
            _too_long(errors, f"{where}.url", comp.get("url"), 512)  # a link button's address
            _too_long(errors, f"{where}.placeholder", comp.get("placeholder"), 150)
            options = comp.get("options") or []
            if len(options) > 25:
                errors[f"{where}.options"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH",
                                                            "message": "Must be 25 or fewer in length."}]}
            for k, o in enumerate(options):
                _too_long(errors, f"{where}.options.{k}.label", o.get("label"), 100)
                _too_long(errors, f"{where}.options.{k}.value", o.get("value"), 100)
    return errors


def _choice_errors(data: JSON) -> JSON:
    errors: JSON = {}
    choices = data.get("choices") or []
    if len(choices) > 25:
        errors["choices"] = {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 25 or fewer in length."}]}
    for i, ch in enumerate(choices):
        _too_long(errors, f"choices.{i}.name", ch.get("name"), 100)
        _too_long(errors, f"choices.{i}.value", ch.get("value"), 100)
    return errors


def _refuse(f: FakeDiscord, r: Req, errors: JSON) -> web.Response | None:
    if not errors:
        return None
    f.rejected.append((r.path, errors))
    return _json({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)


def _body_refusal(f: FakeDiscord, r: Req, d: JSON | None) -> web.Response | None:
    refused = _refuse(f, r, message_errors(d))
    if refused is not None:  # (a Response is falsy: no `or`)
        return refused
    too_many = attachment_errors(d, r.files)
    if too_many:
        return _refuse(f, r, too_many)
    if too_large(r.files):
        f.rejected.append((r.path, {"files": "Request entity too large"}))
        return _json({"message": "Request entity too large", "code": 40005}, 413)
    return None


def _attach(f: FakeDiscord, r: Req, msg: JSON, d: JSON | None) -> None:
    attach(f.files, lambda: str(f.snowflake()), msg, d, r.files, f.missing_images)


# ------------------------------------------------------------------ REST handlers
def _me(f: FakeDiscord, r: Req) -> JSON:
    return {**f.bot_user, "verified": True, "mfa_enabled": False, "locale": "en-US"}


def _app_info(f: FakeDiscord, r: Req) -> JSON:
    return {"id": str(f.app_id), "name": "FakeBot", "description": "", "icon": None,
            "bot_public": True, "bot_require_code_grant": False, "owner": f.owner,
            "verify_key": "00" * 32, "flags": 0, "team": None, "bot": f.bot_user}


def _gateway_bot(f: FakeDiscord, r: Req) -> JSON:
    return {"url": f.gateway_url, "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0,
                                    "max_concurrency": 1}}


def _put_commands(f: FakeDiscord, r: Req, app_id: str, guild_id: str | None = None) -> list[JSON]:
    out = []
    for c in r.json or []:
        out.append({"id": str(f.snowflake()), "application_id": app_id, "version": "1",
                    "type": c.get("type", 1), "description": c.get("description", ""),
                    "default_member_permissions": None, "nsfw": False, "options": [], **c,
                    **({"guild_id": guild_id} if guild_id else {})})
    f.commands[int(guild_id) if guild_id else None] = out
    return out


def _callback(f: FakeDiscord, r: Req, iid: str, token: str) -> JSON:
    """POST /interactions/{id}/{token}/callback?with_response=1 (discord.py always asks
    with_response and parses {'interaction': ..., 'resource': ...})."""
    inter = f.interactions.get(token, {})
    if token in f.created_at and f.clock() - f.created_at[token] > f.answer_within_s:
        f.expired.append(token)
        return _json({"message": "Unknown interaction", "code": 10062}, 404)
    if token in f.deferred:
        return _json({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
    rtype = r.json["type"]
    data = r.json.get("data") or {}
    refused = _refuse(f, r, _choice_errors(data) if rtype == 8 else message_errors(data))
    if refused is None and rtype in (4, 7):
        refused = _body_refusal(f, r, data)
    if refused is not None:
        return refused
    flags = data.get("flags", 0)
    resp: JSON = {"interaction": {"id": iid, "type": inter.get("type", 2),
                                  "response_message_loading": rtype == 5,
                                  "response_message_ephemeral": bool(flags & EPHEMERAL)}}
    msg = None
    if rtype in (4, 5):           # CHANNEL_MESSAGE_WITH_SOURCE / DEFERRED_CHANNEL_MESSAGE
        msg = f.message(content=data.get("content") or "", flags=flags | (128 if rtype == 5 else 0),
                        components=data.get("components"), embeds=data.get("embeds"),
                        type=20, application_id=str(f.app_id), webhook_id=str(f.app_id),
                        interaction_metadata={"id": iid, "type": inter.get("type", 2),
                                              "user": (inter.get("member") or {}).get("user")
                                              or inter.get("user")})
        f.original[token] = int(msg["id"])
        _attach(f, r, msg, data)
    elif rtype in (6, 7) and "message" in inter:   # DEFERRED_UPDATE / UPDATE_MESSAGE
        msg = f.messages.get(int(inter["message"]["id"]), inter["message"])
        if rtype == 7:
            msg.update({k: v for k, v in data.items() if k in ("content", "components", "embeds")},
                       edited_timestamp=_now_iso())
            _attach(f, r, msg, data)
        f.original[token] = int(msg["id"])
    f.deferred[token] = rtype
    if msg is not None:
        resp["interaction"]["response_message_id"] = msg["id"]
        resp["resource"] = {"type": rtype, "message": msg}
    return resp


def _invalid_token(f: FakeDiscord, token: str) -> web.Response | None:
    if not f.token_expired(token):
        return None
    f.expired.append(token)
    return _json({"message": "Invalid Webhook Token", "code": 50027}, 401)


def _followup(f: FakeDiscord, r: Req, app_id: str, token: str) -> Any:
    if (late := _invalid_token(f, token)) is not None:
        return late
    d = r.json or {}
    if (refused := _body_refusal(f, r, d)) is not None:
        return refused
    if f.deferred.get(token) == 5 and token in f.original:
        # As Discord does: the first follow-up after a "thinking" defer replaces the loading message
        # (keeping its ephemeral flag); later ones are new messages.
        f.deferred[token] = -5
        msg = f.messages[f.original[token]]
        msg.update({k: v for k, v in d.items() if k in ("content", "components", "embeds")},
                   edited_timestamp=_now_iso())
        msg["flags"] = msg.get("flags", 0) & ~128
        _attach(f, r, msg, d)
        return msg
    msg = f.message(content=d.get("content") or "", flags=d.get("flags", 0),
                    components=d.get("components"), embeds=d.get("embeds"),
                    webhook_id=app_id, application_id=app_id)
    _attach(f, r, msg, d)
    return msg


def _webhook_msg(f: FakeDiscord, r: Req, app_id: str, token: str, mid: str) -> Any:
    if (late := _invalid_token(f, token)) is not None:
        return late
    msg_id = f.original.get(token) if mid == "@original" else int(mid)
    msg = f.messages.get(msg_id) if msg_id else None
    if msg is None:
        msg = f.message(webhook_id=app_id)
    if r.method == "PATCH":
        d = r.json or {}
        if (refused := _body_refusal(f, r, d)) is not None:
            return refused
        msg.update({k: v for k, v in d.items() if k in ("content", "components", "embeds")},
                   edited_timestamp=_now_iso())
        msg["flags"] = msg.get("flags", 0) & ~128       # no longer "loading"
        _attach(f, r, msg, d)
    return msg


def _delete_webhook_msg(f: FakeDiscord, r: Req, app_id: str, token: str, mid: str) -> web.Response:
    if (late := _invalid_token(f, token)) is not None:
        return late
    msg_id = f.original.get(token) if mid == "@original" else int(mid)
    if mid == "@original":
        f.original.pop(token, None)
        f.deferred[token] = 0  # still acknowledged; follow-ups from now on are new messages
    f.messages.pop(msg_id or 0, None)
    return web.Response(status=204)


def _channel_msg(f: FakeDiscord, r: Req, channel_id: str) -> Any:
    d = r.json or {}
    if int(channel_id) in f.dm_channels and f.dm_channels[int(channel_id)] in f.dm_closed:
        return _json({"message": "Cannot send messages to this user", "code": 50007}, 403)
    if (refused := _body_refusal(f, r, d)) is not None:
        return refused
    msg = f.message(content=d.get("content") or "", components=d.get("components"),
                    embeds=d.get("embeds"), channel_id=int(channel_id))
    _attach(f, r, msg, d)
    return msg


def _edit_channel_msg(f: FakeDiscord, r: Req, channel_id: str, mid: str) -> Any:
    if int(channel_id) in f.dm_channels and f.dm_channels[int(channel_id)] in f.dm_closed:
        return _json({"message": "Cannot send messages to this user", "code": 50007}, 403)
    msg = f.messages.get(int(mid))
    if msg is None:
        return _json({"message": "Unknown Message", "code": 10008}, 404)
    d = r.json or {}
    if (refused := _body_refusal(f, r, d)) is not None:
        return refused
    msg.update({k: v for k, v in d.items() if k in ("content", "components", "embeds")}, edited_timestamp=_now_iso())
    _attach(f, r, msg, d)
    return msg


def _delete_channel_msg(f: FakeDiscord, r: Req, channel_id: str, mid: str) -> web.Response:
    msg = f.messages.get(int(mid))
    if msg is None or msg.get("channel_id") != channel_id:
        return _json({"message": "Unknown Message", "code": 10008}, 404)
    del f.messages[int(mid)]
    return web.Response(status=204)


def _dm_channel(f: FakeDiscord, r: Req) -> JSON:
    uid = str((r.json or {}).get("recipient_id"))
    cid = next((c for c, u in f.dm_channels.items() if u == uid), None) or f.snowflake()
    f.dm_channels[cid] = uid
    return {"id": str(cid), "type": 1, "recipients": [f.user(int(uid), f"user{uid}")], "flags": 0,
            "last_message_id": None}


def _thread(f: FakeDiscord, r: Req, channel_id: str) -> JSON:
    tid = f.snowflake()
    f.threads.append(tid)
    return {"id": str(tid), "type": 11, "guild_id": str(f.guild_id), "parent_id": channel_id,
            "name": (r.json or {}).get("name", "thread"), "owner_id": str(f.app_id), "flags": 0,
            "rate_limit_per_user": 0, "last_message_id": None, "member_count": 1, "message_count": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": _now_iso(),
                                "locked": False}}


_ROUTES: dict[tuple[str, str], Callable[..., Any]] = {
    ("GET", r"/users/@me"): _me,
    ("GET", r"/oauth2/applications/@me"): _app_info,
    ("GET", r"/applications/@me"): _app_info,
    ("GET", r"/gateway/bot"): _gateway_bot,
    ("GET", r"/gateway"): lambda f, r: {"url": f.gateway_url},
    ("PUT", r"/applications/(\d+)/commands"): _put_commands,
    ("PUT", r"/applications/(\d+)/guilds/(\d+)/commands"): _put_commands,
    ("GET", r"/applications/(\d+)/commands"): lambda f, r, a: f.commands.get(None, []),
    ("POST", r"/interactions/(\d+)/([^/]+)/callback"): _callback,
    ("POST", r"/webhooks/(\d+)/([^/]+)"): _followup,
    ("GET", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)"): _webhook_msg,
    ("PATCH", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)"): _webhook_msg,
    ("DELETE", r"/webhooks/(\d+)/([^/]+)/messages/([^/]+)"): _delete_webhook_msg,
    ("POST", r"/channels/(\d+)/messages"): _channel_msg,
    ("PATCH", r"/channels/(\d+)/messages/(\d+)"): _edit_channel_msg,
    ("DELETE", r"/channels/(\d+)/messages/(\d+)"): _delete_channel_msg,
    ("POST", r"/users/@me/channels"): _dm_channel,
    ("POST", r"/channels/(\d+)/threads"): _thread,
}
