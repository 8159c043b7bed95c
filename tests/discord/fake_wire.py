"""What the fake Discord speaks and refuses: the request record, JSON answers, and the message
limits it enforces as Discord does (400, code 50035 "Invalid Form Body") on every message the bot
sends or edits: content ≤ 2000, ≤ 10 embeds, embed title ≤ 256, description ≤ 4096, ≤ 25 fields,
field name ≤ 256 and value ≤ 1024, footer ≤ 2048, author ≤ 256, all embed text together ≤ 6000;
button labels ≤ 80, custom ids ≤ 100, link urls ≤ 512, ≤ 5 action rows, ≤ 5 buttons in a row or one
select alone, ≤ 25 select options with labels and values ≤ 100, placeholders ≤ 150; autocomplete
≤ 25 choices, name and value ≤ 100. Inbound, a string option holds ≤ 6000.

REST quirk: discord.py only JSON-decodes a body when the Content-Type header is exactly
"application/json" (aiohttp's web.json_response adds "; charset=utf-8", which makes every response a
str and breaks login) -> see json_response().
"""
from __future__ import annotations

import datetime as dt
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

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


def json_response(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    return web.Response(body=json.dumps(data).encode(), status=status,
                        content_type="application/json", headers=headers)


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat()


def command_options(data: JSON) -> list[JSON]:
    out = []
    for opt in data.get("options") or []:
        out.append(opt)
        out += command_options(opt)
    return out


def _max_length(limit: int) -> JSON:
    """Discord's error for a string or a list longer than `limit`."""
    return {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]}


def _too_long(errors: JSON, where: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        errors[where] = _max_length(limit)


def _too_many(errors: JSON, where: str, items: list[Any], limit: int) -> None:
    if len(items) > limit:
        errors[where] = _max_length(limit)


def message_errors(body: JSON | None) -> JSON:
    """What Discord would refuse in a message body (create or edit), as its `errors` object."""
    errors: JSON = {}
    d = body or {}
    _too_long(errors, "content", d.get("content"), CONTENT_MAX)
    embeds = d.get("embeds") or []
    _too_many(errors, "embeds", embeds, 10)
    total = 0
    for i, e in enumerate(embeds):
        for key, limit in _EMBED_LIMITS.items():
            _too_long(errors, f"embeds.{i}.{key}", e.get(key), limit)
        fields = e.get("fields") or []
        _too_many(errors, f"embeds.{i}.fields", fields, 25)
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
    _too_many(errors, "components", rows, 5)
    for r, row in enumerate(rows):
        inner = row.get("components") or []
        if row.get("type") != 1:
            errors[f"components.{r}"] = {"_errors": [{"code": "UNION_TYPE_CHOICES",
                                                      "message": "Value of field \"type\" must be one of (1,)."}]}
        elif len(inner) > 5 or (len(inner) > 1 and any(c.get("type") != 2 for c in inner)):
            # a row holds up to five buttons, or one select menu alone
            errors[f"components.{r}.components"] = _max_length(5)
        for c, comp in enumerate(inner):
            where = f"components.{r}.components.{c}"
            _too_long(errors, f"{where}.label", comp.get("label"), 80)
            _too_long(errors, f"{where}.custom_id", comp.get("custom_id"), 100)
            _too_long(errors, f"{where}.url", comp.get("url"), 512)  # a link button's address
            _too_long(errors, f"{where}.placeholder", comp.get("placeholder"), 150)
            options = comp.get("options") or []
            _too_many(errors, f"{where}.options", options, 25)
            for k, o in enumerate(options):
                _too_long(errors, f"{where}.options.{k}.label", o.get("label"), 100)
                _too_long(errors, f"{where}.options.{k}.value", o.get("value"), 100)
    return errors


def choice_errors(data: JSON) -> JSON:
    errors: JSON = {}
    choices = data.get("choices") or []
    _too_many(errors, "choices", choices, 25)
    for i, ch in enumerate(choices):
        _too_long(errors, f"choices.{i}.name", ch.get("name"), 100)
        _too_long(errors, f"choices.{i}.value", ch.get("value"), 100)
    return errors

