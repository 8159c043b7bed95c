"""The fake Discord's REST handlers: one function per route, each given the fake and the request,
answering JSON (or a Response for a refusal), and the refusals shared by every message route."""
from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from tests.discord.fake_attachments import attach, attachment_errors, too_large
from tests.discord.fake_wire import (
    EPHEMERAL,
    JSON,
    Req,
    choice_errors,
    json_response,
    message_errors,
    now_iso,
)

if TYPE_CHECKING:
    from tests.discord.fake_discord import FakeDiscord

def _refuse(f: FakeDiscord, r: Req, errors: JSON) -> web.Response | None:
    if not errors:
        return None
    f.rejected.append((r.path, errors))
    return json_response({"message": "Invalid Form Body", "code": 50035, "errors": errors}, 400)


def _body_refusal(f: FakeDiscord, r: Req, d: JSON | None) -> web.Response | None:
    refused = _refuse(f, r, message_errors(d))
    if refused is not None:  # (a Response is falsy: no `or`)
        return refused
    too_many = attachment_errors(d, r.files)
    if too_many:
        return _refuse(f, r, too_many)
    if too_large(r.files):
        f.rejected.append((r.path, {"files": "Request entity too large"}))
        return json_response({"message": "Request entity too large", "code": 40005}, 413)
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
        return json_response({"message": "Unknown interaction", "code": 10062}, 404)
    if token in f.deferred:
        return json_response({"message": "Interaction has already been acknowledged.", "code": 40060}, 400)
    rtype = r.json["type"]
    data = r.json.get("data") or {}
    refused = _refuse(f, r, choice_errors(data) if rtype == 8 else message_errors(data))
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
                       edited_timestamp=now_iso())
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
    return json_response({"message": "Invalid Webhook Token", "code": 50027}, 401)


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
                   edited_timestamp=now_iso())
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
                   edited_timestamp=now_iso())
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
        return json_response({"message": "Cannot send messages to this user", "code": 50007}, 403)
    if (refused := _body_refusal(f, r, d)) is not None:
        return refused
    msg = f.message(content=d.get("content") or "", components=d.get("components"),
                    embeds=d.get("embeds"), channel_id=int(channel_id))
    _attach(f, r, msg, d)
    return msg


def _edit_channel_msg(f: FakeDiscord, r: Req, channel_id: str, mid: str) -> Any:
    if int(channel_id) in f.dm_channels and f.dm_channels[int(channel_id)] in f.dm_closed:
        return json_response({"message": "Cannot send messages to this user", "code": 50007}, 403)
    msg = f.messages.get(int(mid))
    if msg is None:
        return json_response({"message": "Unknown Message", "code": 10008}, 404)
    d = r.json or {}
    if (refused := _body_refusal(f, r, d)) is not None:
        return refused
    msg.update({k: v for k, v in d.items() if k in ("content", "components", "embeds")}, edited_timestamp=now_iso())
    _attach(f, r, msg, d)
    return msg


def _delete_channel_msg(f: FakeDiscord, r: Req, channel_id: str, mid: str) -> web.Response:
    msg = f.messages.get(int(mid))
    if msg is None or msg.get("channel_id") != channel_id:
        return json_response({"message": "Unknown Message", "code": 10008}, 404)
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
            "thread_metadata": {"archived": False, "auto_archive_duration": 1440, "archive_timestamp": now_iso(),
                                "locked": False}}


ROUTES: dict[tuple[str, str], Callable[..., Any]] = {
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
