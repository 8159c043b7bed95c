"""A fake Discord (REST v10 + Gateway) on 127.0.0.1 for end-to-end tests of the adapter.

Adapted from shared/reference/botlab: adds channel message edits, DM channels (closable),
per-member permissions, threads, and a per-request view of which messages are ephemeral.

Pointing discord.py at it (both are process-global class attributes; use
pytest's monkeypatch so they are restored):
    discord.http.Route.BASE = fake.api_base                 # "http://127.0.0.1:PORT/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
(`Client` does NOT call GET /gateway/bot in 2.7 - it connects straight to
DEFAULT_GATEWAY; only AutoShardedClient asks /gateway/bot.)

Message limits are enforced as Discord does (tests/discord/fake_wire.py); each refusal is kept in
`rejected` so the harness fails a test in which the bot sent what Discord drops. Attachments are
kept on their messages (see fake_attachments): their bytes in `files` by attachment id, and an embed
image naming no attachment of its message in `missing_images`. REST handlers: fake_routes.py.

Time limits, on the injectable `clock`: the initial response to an interaction within 3 s (else
404 10062 "Unknown interaction"); follow-ups and edits or deletes of its messages through the
interaction token within 15 minutes (else 401 50027 "Invalid Webhook Token"). Both kinds of lateness
are kept in `expired`.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
import zlib
from collections.abc import Callable
from typing import Any

from aiohttp import WSMsgType, web

from tests.discord.fake_routes import ROUTES
from tests.discord.fake_wire import (
    DISCORD_EPOCH_MS,
    JSON,
    OPTION_VALUE_MAX,
    PLAIN_MEMBER,
    Req,
    command_options,
    json_response,
    now_iso,
)


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
        self.locale = "en-US"  # the user's Discord language, sent with each interaction
        self.guild_locale = "en-US"  # the server's (its community language): what a table in it speaks
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
        return {"user": user, "roles": [], "joined_at": now_iso(), "deaf": False, "mute": False,
                "flags": 0, "pending": False, "nick": None, "avatar": None,
                "permissions": str(perms)}

    def guild(self) -> JSON:
        gid = str(self.guild_id)
        return {"id": gid, "name": "Test Guild", "icon": None, "owner_id": self.owner["id"],
                "unavailable": False, "member_count": 2, "large": False, "joined_at": now_iso(),
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
               "author": author or self.bot_user, "content": content, "timestamp": now_iso(),
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
            p.update(guild_id=str(self.guild_id), guild_locale=self.guild_locale, context=0,
                     guild={"id": str(self.guild_id), "locale": self.guild_locale, "features": []},
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
        """To the sessions whose shard has the event's guild, as Discord routes events (a DM's to shard 0)."""
        guild = data.get("guild_id") if isinstance(data, dict) else None
        for s in list(self._sockets):
            if s.has_guild(int(guild) if guild is not None else None):
                await s.dispatch(event, data)

    async def send_interaction(self, payload: JSON) -> JSON:
        for opt in command_options(payload.get("data") or {}):
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
                return json_response({"message": "You are being rate limited.", "retry_after": retry_after, "global": False},
                             status, headers={"Via": "1.1 google", "X-RateLimit-Scope": "user"})
        is_webhook = path.startswith(("/interactions/", "/webhooks/"))
        if not is_webhook and request.headers.get("Authorization") != f"Bot {self.token}":
            return json_response({"message": "401: Unauthorized", "code": 0}, 401)
        for (m, pattern), fn in ROUTES.items():
            if m == request.method and (mt := re.fullmatch(pattern, path)):
                out = fn(self, req, *mt.groups())
                return out if isinstance(out, web.Response) else json_response(out)
        return json_response({"message": "404: Not Found", "code": 0}, 404)


class _GatewaySession:
    HELLO, IDENTIFY, HEARTBEAT, HEARTBEAT_ACK, RESUME, DISPATCH = 10, 2, 1, 11, 6, 0

    def __init__(self, fake: FakeDiscord, ws: web.WebSocketResponse, zlib_on: bool) -> None:
        self.fake, self.ws, self.seq = fake, ws, 0
        self.shard: tuple[int, int] | None = None  # [shard_id, shard_count] from IDENTIFY
        self._z = zlib.compressobj() if zlib_on else None
        self._lock = asyncio.Lock()

    def has_guild(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the guild's events: (guild_id >> 22) % count == id."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_id == (0 if guild_id is None else (guild_id >> 22) % count)

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
                if "shard" in d:
                    self.shard = (int(d["shard"][0]), int(d["shard"][1]))
                mine = self.has_guild(self.fake.guild_id)
                await self.dispatch("READY", {**ready_extra,
                    "v": 10, "user": self.fake.bot_user, "session_id": "fake-session",
                    "resume_gateway_url": self.fake.gateway_url,
                    "guilds": [{"id": str(self.fake.guild_id), "unavailable": True}] if mine else [],
                    "application": {"id": str(self.fake.app_id), "flags": 0},
                    "private_channels": [], "relationships": []})
                if mine:
                    await self.dispatch("GUILD_CREATE", self.fake.guild())
                self.fake.ready.set()
            elif op == self.RESUME:
                await self.dispatch("RESUMED", {})


