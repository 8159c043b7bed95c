"""A fake Telegram Bot API server (aiohttp) on 127.0.0.1 for end-to-end tests of the real
python-telegram-bot. Adapted from shared/reference/botlab; it adds what the Rummy Club adapter
needs: private chats that only work once the user has started the bot (403 otherwise, as on
Telegram), chat admins for getChatMember, explicit update ids (to replay a duplicate update),
message threads, injected failures (429 with retry_after, 400), photos (sendPhoto,
editMessageCaption, editMessageMedia; uploads arrive multipart and are kept in `photos`, the bytes
counted in `uploaded`; a text message cannot become a photo nor a photo text, 400 as on Telegram),
editMessageReplyMarkup and deleteMessage (the message is gone from `messages`;
deleting it again is 400). Every call is kept in `calls` with the fake's clock (`at`) and the status
it was answered with, so a bench can count what reached a chat.

Limits are enforced as Telegram does (400 Bad Request; the checks are in bot_api_rules.py): sendMessage and editMessageText text at most
4096 UTF-16 units after the HTML entities are parsed (and, on the safe side the adapter keeps, at most
4096 characters raw), markup that parses (known tags, closed in order, `<`/`&` only as tags and
entities); photo captions at most 1024 after parsing; callback data of an inline button 1-64 bytes
(BUTTON_DATA_INVALID); answerCallbackQuery text at most 200. Each such refusal is also kept in
`rejected`, so the harness can fail any test in which the bot sent something Telegram would drop.

Flood control: the Bot FAQ says a bot "will not be able to send more than 20 messages per minute to
the same group". The fake counts every call that puts or changes a message in a group chat (negative
chat id): the send* methods, copy/forwardMessage and the editMessage* methods (Telegram's flood
control is known to count edits as well; deleteMessage, answerCallbackQuery, sendChatAction and
getChatMember are not counted). Over a sliding window of `GROUP_WINDOW_S` on the fake's `clock`, the
21st such call answers 429 with `retry_after` = the whole seconds until the oldest leaves the window;
a refused call is not counted. Each 429 is kept in `throttled`. `clock` is injectable (the harness
passes its fake time), `group_limit = None` turns the rule off.

The bot's profile is validated and kept: setMyCommands (at most 100 commands named [a-z0-9_]{1,32}
with descriptions of 1-256 characters, a known scope, an ISO 639-1 language code) in `commands` by
(scope, language), setMyDescription (512) and setMyShortDescription (120) by language, and
setChatMenuButton (a web_app button needs text and an https URL) in `menu_button`. Groups can drop the
bot (`remove_bot`: a my_chat_member update, then 403 to every call there) and become supergroups
(`migrate`: the two service messages, then 400 with `migrate_to_chat_id` for the old id, which PTB
raises as ChatMigrated; the old group's messages are not found under the new id).

Wire format (what PTB sends): POST /bot{token}/{method}, form-urlencoded; non-string values are
JSON inside the form field, so ids arrive as strings. Replies are {"ok": true, "result": ...}.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from tests.telegram.bot_api_rules import (
    CALLBACK_TEXT_MAX,
    DESCRIPTION_MAX,
    JSON,
    SHORT_DESCRIPTION_MAX,
    caption_error,
    commands_error,
    description_error,
    markup_error,
    menu_button_error,
    parse_html,
    text_error,
    utf16_len,
)

__all__ = ["JSON", "FakeTelegramBotAPI", "parse_html"]
GROUP_LIMIT = 20  # messages to one group ...
GROUP_WINDOW_S = 60.0  # ... in any 60 s
# Calls that put or change a message in a chat: what the group flood limit counts.
_MESSAGE_METHODS = {m.lower() for m in (
    "sendMessage", "sendPhoto", "sendDocument", "sendAnimation", "sendVideo", "sendAudio", "sendVoice",
    "sendSticker", "sendMediaGroup", "sendPoll", "sendDice", "sendLocation", "sendContact", "copyMessage",
    "forwardMessage", "editMessageText", "editMessageCaption", "editMessageMedia", "editMessageReplyMarkup")}


@dataclass
class Call:
    method: str
    params: JSON
    t: float = field(default_factory=time.perf_counter)
    at: float = 0.0  # the fake's clock when the call came (the flood window's time)
    status: int = 200  # what the fake answered: 200, or the error code (429, 400, 403)
    flooded: bool = False  # refused by the group flood limit (not by an injected failure)
    files: dict[str, bytes] = field(default_factory=dict)  # the multipart uploads, by field name

    @property
    def chat_id(self) -> int | None:
        raw = self.params.get("chat_id")
        return int(raw) if raw is not None else None


class FakeTelegramBotAPI:
    def __init__(self, token: str = "123456:TEST", *, bot_id: int = 123456, username: str = "rummy_test_bot") -> None:
        self.token = token
        self.bot_user = {"id": bot_id, "is_bot": True, "first_name": "Rummy Club", "username": username,
                         "can_join_groups": True, "can_read_all_group_messages": False,
                         "supports_inline_queries": False}
        self.calls: list[Call] = []
        self.updates: list[JSON] = []
        self.pushed: list[JSON] = []  # every update ever queued, for checks after the fact
        self.messages: dict[tuple[int, int], JSON] = {}
        self.photos: dict[tuple[int, int], bytes] = {}  # (chat, message) -> the picture it shows
        self.uploaded = 0  # bytes of every picture uploaded
        self.rejected: list[tuple[str, str]] = []  # (method, description) of every limit or markup refusal
        self.dm_open: set[int] = set()  # users who started the bot: only they can get DMs
        self.admins: dict[int, set[int]] = {}  # chat id -> admin user ids
        self._fail_next: dict[str, list[tuple[int, str, JSON | None, int | None]]] = {}
        # The bot's profile as set: command lists by (scope type, language code or ""), descriptions
        # and short descriptions by language code, the private chats' menu button.
        self.commands: dict[tuple[str, str], list[JSON]] = {}
        self.descriptions: dict[str, str] = {}
        self.short_descriptions: dict[str, str] = {}
        self.menu_button: JSON = {"type": "commands"}
        # Groups the bot was removed from (403 to every call there) and groups that became a
        # supergroup (400 with migrate_to_chat_id, which PTB raises as ChatMigrated).
        self.removed_from: set[int] = set()
        self.migrated: dict[int, int] = {}
        # Flood control (see the module doc): the clock the window is measured on, and what it let through.
        self.clock: Callable[[], float] = time.monotonic
        self.group_limit: int | None = GROUP_LIMIT
        self.group_window_s = GROUP_WINDOW_S
        self.group_sent: dict[int, list[float]] = {}  # group chat id -> clock() of each counted call
        self.throttled: list[tuple[str, int, int]] = []  # (method, chat id, retry_after) of every 429
        self._update_ids = itertools.count(1)
        self._msg_ids = itertools.count(1000)
        self._cbq_ids = itertools.count(1)
        self._new_update = asyncio.Event()
        self._new_call = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._closing = False
        self.port: int | None = None

    # ---- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> FakeTelegramBotAPI:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        self._closing = True  # release a pending long poll, else cleanup() waits for it
        self._new_update.set()
        if self._runner:
            await self._runner.cleanup()

    def reopen(self) -> None:
        """Serve polls again after a bot was stopped (a restart test keeps the same server)."""
        self._closing = False

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/bot"

    # ---- building updates -----------------------------------------------------------------------

    @staticmethod
    def user(user_id: int, first_name: str, lang: str = "en") -> JSON:
        return {"id": user_id, "is_bot": False, "first_name": first_name, "username": first_name.lower(),
                "language_code": lang}

    @staticmethod
    def group(chat_id: int = -100500, title: str = "Friends") -> JSON:
        return {"id": chat_id, "type": "supergroup", "title": title}

    @staticmethod
    def private_chat(user: JSON) -> JSON:
        return {"id": user["id"], "type": "private", "first_name": user["first_name"]}

    def push_update(self, update: JSON, update_id: int | None = None) -> JSON:
        update = {"update_id": next(self._update_ids) if update_id is None else update_id, **update}
        self.updates.append(update)
        self.pushed.append(update)
        self._new_update.set()
        return update

    def push_text(self, text: str, *, user: JSON, chat: JSON | None = None, thread: int | None = None) -> JSON:
        chat = chat or self.private_chat(user)
        if chat["type"] == "private":
            self.dm_open.add(user["id"])  # writing to the bot opens the DM, as on Telegram
        msg: JSON = {"message_id": next(self._msg_ids), "date": int(time.time()), "chat": chat, "from": user,
                     "text": text}
        if thread is not None:
            msg.update(message_thread_id=thread, is_topic_message=True)
        if text.startswith("/"):
            msg["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        self.messages[(chat["id"], msg["message_id"])] = msg
        return self.push_update({"message": msg})

    def push_callback(self, data: str, *, message: JSON, user: JSON) -> JSON:
        cbq = {"id": f"cbq{next(self._cbq_ids)}", "from": user, "chat_instance": f"ci{message['chat']['id']}",
               "data": data, "message": message}
        return self.push_update({"callback_query": cbq})

    def _bot_member(self, chat: JSON, user: JSON, old: str, new: str) -> JSON:
        def member(status: str) -> JSON:
            return {"status": status, "user": self.bot_user, **({"until_date": 0} if status == "kicked" else {})}
        return self.push_update({"my_chat_member": {"chat": chat, "from": user, "date": int(time.time()),
                                                    "old_chat_member": member(old), "new_chat_member": member(new)}})

    def remove_bot(self, chat: JSON, by: JSON, status: str = "left") -> JSON:
        """Someone removes the bot from the group (`left`) or bans it (`kicked`): every later call
        there is refused (403), and the bot is told by a my_chat_member update."""
        self.removed_from.add(chat["id"])
        return self._bot_member(chat, by, "member", status)

    def add_bot(self, chat: JSON, by: JSON) -> JSON:
        self.removed_from.discard(chat["id"])
        return self._bot_member(chat, by, "left", "member")

    def migrate(self, old: int, new: int, by: JSON, tell: bool = True) -> list[JSON]:
        """The group `old` becomes the supergroup `new`: calls to `old` answer 400 with
        migrate_to_chat_id; its messages stay behind (not editable with the new id). With `tell`,
        the two service messages Telegram sends (in the old chat and in the new)."""
        self.migrated[old] = new
        if not tell:
            return []
        updates = []
        for chat, field_ in (({"id": old, "type": "group", "title": "Friends"}, {"migrate_to_chat_id": new}),
                             (self.group(new), {"migrate_from_chat_id": old})):
            msg = {"message_id": next(self._msg_ids), "date": int(time.time()), "chat": chat, "from": by, **field_}
            updates.append(self.push_update({"message": msg}))
        return updates

    def _membership(self, params: JSON) -> web.Response | None:
        raw = params.get("chat_id")
        try:
            chat_id = int(raw) if raw is not None else None
        except ValueError:
            return None
        if chat_id in self.migrated:
            return self._err(400, "Bad Request: group chat was upgraded to a supergroup chat",
                             {"migrate_to_chat_id": self.migrated[chat_id]})
        if chat_id in self.removed_from:
            return self._err(403, "Forbidden: bot was kicked from the group chat")
        return None

    def fail_next(self, method: str, status: int = 400, description: str = "Bad Request: injected",
                  parameters: JSON | None = None, chat_id: int | None = None) -> None:
        """The next call of `method` (to `chat_id` only, when given) fails with this error."""
        self._fail_next.setdefault(method.lower(), []).append((status, description, parameters, chat_id))

    def clear_failures(self) -> None:
        """Drop injected failures that no call has met yet."""
        self._fail_next.clear()

    def _injected(self, method: str, params: JSON) -> tuple[int, str, JSON | None] | None:
        pending = self._fail_next.get(method, [])
        chat = params.get("chat_id")
        for i, (status, description, parameters, only) in enumerate(pending):
            if only is None or (chat is not None and int(chat) == only):
                del pending[i]
                return status, description, parameters
        return None

    def _flood_chat(self, method: str, params: JSON) -> int | None:
        """The group a call counts against under the flood limit, or None when it does not count."""
        raw = params.get("chat_id")
        if self.group_limit is None or method.lower() not in _MESSAGE_METHODS or raw is None:
            return None
        try:
            chat_id = int(raw)
        except ValueError:
            return None  # an @username: not a group id the fake knows
        return chat_id if chat_id < 0 else None

    def _flooded(self, method: str, chat_id: int) -> web.Response | None:
        """429 for the 21st message to one group within the sliding window."""
        assert self.group_limit is not None
        now = self.clock()
        sent = [t for t in self.group_sent.get(chat_id, []) if now - t < self.group_window_s]
        self.group_sent[chat_id] = sent
        if len(sent) < self.group_limit:
            return None
        wait = max(1, math.ceil(sent[-self.group_limit] + self.group_window_s - now))
        self.throttled.append((method, chat_id, wait))
        return self._err(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})

    # ---- inspecting -----------------------------------------------------------------------------

    def calls_to(self, method: str, after: int = 0) -> list[Call]:
        return [c for c in self.calls[after:] if c.method.lower() == method.lower()]

    def buttons(self, message: JSON) -> list[JSON]:
        markup = message.get("reply_markup") or {}
        return [b for row in markup.get("inline_keyboard", []) for b in row]

    def chat_messages(self, chat_id: int) -> list[JSON]:
        return [m for (c, _), m in sorted(self.messages.items()) if c == chat_id and m["from"]["is_bot"]]

    async def wait_for_call(self, method: str, pred: Callable[[Call], bool] = lambda c: True,
                            timeout: float = 5.0, after: int = 0) -> Call:
        async def _wait() -> Call:
            async with self._new_call:
                while True:
                    for c in self.calls[after:]:
                        if c.method.lower() == method.lower() and pred(c):
                            return c
                    await self._new_call.wait()
        return await asyncio.wait_for(_wait(), timeout)

    # ---- serving --------------------------------------------------------------------------------

    @staticmethod
    def _ok(result: Any) -> web.Response:
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    def _err(status: int, description: str, parameters: JSON | None = None) -> web.Response:
        body: JSON = {"ok": False, "error_code": status, "description": description}
        if parameters:
            body["parameters"] = parameters
        return web.json_response(body, status=status)

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != self.token:
            return self._err(401, "Unauthorized")
        method = request.match_info["method"]
        params: JSON = dict(request.query)
        if request.content_type == "application/json":
            params.update(await request.json())
        elif request.can_read_body:
            params.update(dict(await request.post()))
        files: dict[str, bytes] = {}
        for k, v in list(params.items()):  # a multipart upload: its bytes apart, a placeholder in params
            if isinstance(v, web.FileField):
                files[k] = v.file.read()
                params[k] = f"<upload {k}: {len(files[k])} bytes>"
        for k, v in list(params.items()):  # PTB JSON-encodes non-string values
            if isinstance(v, str) and v[:1] in "[{":
                with contextlib.suppress(ValueError):
                    params[k] = json.loads(v)
        m = method.lower()
        if m == "getupdates":  # polls are not calls the bot makes of its own accord: not recorded
            return await self._answer(method, params)
        call = Call(method, params, at=self.clock(), files=files)
        async with self._new_call:
            self.calls.append(call)
            self._new_call.notify_all()
        throttled = len(self.throttled)
        response = await self._answer(method, params, files)
        call.status, call.flooded = response.status, len(self.throttled) > throttled
        return response

    async def _answer(self, method: str, params: JSON, files: dict[str, bytes] | None = None) -> web.Response:
        m = method.lower()
        if (failure := self._injected(m, params)) is not None:
            return self._err(*failure)
        if (refused := self._membership(params)) is not None:
            return refused
        group = self._flood_chat(m, params)
        if group is not None and (flooded := self._flooded(method, group)) is not None:
            return flooded
        handler = getattr(self, f"_m_{m}", None)
        if handler is None:
            if m in _TRUE_METHODS:
                return self._ok(True)
            return self._err(404, "Not Found: method not found")
        result = handler(params, files or {}) if m in _UPLOADS else handler(params)
        if asyncio.iscoroutine(result):
            result = await result
        if isinstance(result, web.Response):
            return result  # a refused call: Telegram does not count it against the group
        if group is not None:
            self.group_sent[group].append(self.clock())
        return self._ok(result)

    def _m_getme(self, p: JSON) -> JSON:
        return self.bot_user

    async def _m_getupdates(self, p: JSON) -> list[JSON]:
        offset = int(p.get("offset") or 0)
        limit = int(p.get("limit") or 100)
        timeout = float(p.get("timeout") or 0)
        if offset:
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        deadline = time.monotonic() + timeout
        while not self.updates and not self._closing and time.monotonic() < deadline:
            self._new_update.clear()
            try:
                await asyncio.wait_for(self._new_update.wait(), deadline - time.monotonic())
            except TimeoutError:
                break
        if self._closing:
            return []
        return self.updates[:limit]

    def _chat(self, chat_id: int) -> JSON:
        if chat_id > 0:
            return {"id": chat_id, "type": "private", "first_name": f"user{chat_id}"}
        return self.group(chat_id)

    def _m_sendmessage(self, p: JSON) -> Any:
        chat_id = int(p["chat_id"])
        if chat_id > 0 and chat_id not in self.dm_open:
            return self._err(403, "Forbidden: bot can't initiate conversation with a user")
        if not p.get("text"):
            return self._err(400, "Bad Request: message text is empty")
        if (refused := self._check("sendMessage", text_error(p) or markup_error(p))) is not None:
            return refused
        msg: JSON = {"message_id": next(self._msg_ids), "date": int(time.time()), "chat": self._chat(chat_id),
                     "from": self.bot_user, "text": p["text"]}
        if isinstance(p.get("reply_markup"), dict) and "inline_keyboard" in p["reply_markup"]:
            msg["reply_markup"] = p["reply_markup"]
        if p.get("message_thread_id"):
            msg["message_thread_id"] = int(p["message_thread_id"])
        self.messages[(chat_id, msg["message_id"])] = msg
        return msg

    def block(self, user_id: int) -> None:
        """The user blocks the bot: every later message or edit to their chat is refused (403)."""
        self.dm_open.discard(user_id)

    def _m_editmessagetext(self, p: JSON) -> Any:
        found = self._edit_target(p)
        if isinstance(found, web.Response):
            return found
        key, msg = found
        if (refused := self._check("editMessageText", text_error(p) or markup_error(p))) is not None:
            return refused
        if "text" not in msg:
            return self._err(400, "Bad Request: there is no text in the message to edit")
        if msg.get("text") == p["text"] and msg.get("reply_markup") == p.get("reply_markup"):
            return self._err(400, "Bad Request: message is not modified")
        msg = {**msg, "text": p["text"], "edit_date": int(time.time())}
        msg.pop("reply_markup", None)
        if isinstance(p.get("reply_markup"), dict):
            msg["reply_markup"] = p["reply_markup"]
        self.messages[key] = msg
        return msg

    def _m_sendphoto(self, p: JSON, files: dict[str, bytes]) -> Any:
        chat_id = int(p["chat_id"])
        if chat_id > 0 and chat_id not in self.dm_open:
            return self._err(403, "Forbidden: bot can't initiate conversation with a user")
        if (refused := self._check("sendPhoto", caption_error(p) or markup_error(p))) is not None:
            return refused
        mid = next(self._msg_ids)
        msg: JSON = {"message_id": mid, "date": int(time.time()), "chat": self._chat(chat_id), "from": self.bot_user,
                     "photo": [{"file_id": f"photo{mid}", "file_unique_id": f"p{mid}", "width": 800, "height": 600}]}
        if p.get("caption"):
            msg["caption"] = p["caption"]
        if isinstance(p.get("reply_markup"), dict) and "inline_keyboard" in p["reply_markup"]:
            msg["reply_markup"] = p["reply_markup"]
        if "photo" in files:
            self.photos[(chat_id, mid)] = files["photo"]
            self.uploaded += len(files["photo"])
        self.messages[(chat_id, mid)] = msg
        return msg

    def _m_editmessagemedia(self, p: JSON, files: dict[str, bytes]) -> Any:
        found = self._edit_target(p)
        if isinstance(found, web.Response):
            return found
        key, msg = found
        media = p.get("media")
        if not isinstance(media, dict) or media.get("type") != "photo":
            return self._err(400, "Bad Request: unsupported media")
        if (refused := self._check("editMessageMedia", caption_error(media) or markup_error(p))) is not None:
            return refused
        if "photo" not in msg:
            return self._err(400, "Bad Request: there is no media in the message to edit")
        name = str(media.get("media", "")).removeprefix("attach://")
        if name not in files:
            return self._err(400, "Bad Request: wrong file identifier/HTTP URL specified")
        mid = key[1]
        msg = {**msg, "caption": media.get("caption") or "", "edit_date": int(time.time()),
               "photo": [{"file_id": f"photo{mid}e{len(self.calls)}", "file_unique_id": f"p{mid}e{len(self.calls)}",
                          "width": 800, "height": 600}]}
        msg.pop("reply_markup", None)
        if isinstance(p.get("reply_markup"), dict):
            msg["reply_markup"] = p["reply_markup"]
        self.messages[key] = msg
        self.photos[key] = files[name]
        self.uploaded += len(files[name])
        return msg

    def _edit_target(self, p: JSON) -> tuple[tuple[int, int], JSON] | web.Response:
        key = (int(p["chat_id"]), int(p["message_id"]))
        if key[0] > 0 and key[0] not in self.dm_open:
            return self._err(403, "Forbidden: bot was blocked by the user")
        msg = self.messages.get(key)
        if msg is None:
            return self._err(400, "Bad Request: message to edit not found")
        return key, msg

    def _m_editmessagecaption(self, p: JSON) -> Any:
        found = self._edit_target(p)
        if isinstance(found, web.Response):
            return found
        key, msg = found
        if (refused := self._check("editMessageCaption", caption_error(p) or markup_error(p))) is not None:
            return refused
        if "photo" not in msg:
            return self._err(400, "Bad Request: there is no caption in the message to edit")
        if msg.get("caption") == p.get("caption") and msg.get("reply_markup") == p.get("reply_markup"):
            return self._err(400, "Bad Request: message is not modified")
        msg = {**msg, "caption": p.get("caption") or "", "edit_date": int(time.time())}
        msg.pop("reply_markup", None)
        if isinstance(p.get("reply_markup"), dict):
            msg["reply_markup"] = p["reply_markup"]
        self.messages[key] = msg
        return msg

    def _m_editmessagereplymarkup(self, p: JSON) -> Any:
        found = self._edit_target(p)
        if isinstance(found, web.Response):
            return found
        key, msg = found
        if (refused := self._check("editMessageReplyMarkup", markup_error(p))) is not None:
            return refused
        if msg.get("reply_markup") == p.get("reply_markup"):
            return self._err(400, "Bad Request: message is not modified")
        msg = {**msg, "edit_date": int(time.time())}
        msg.pop("reply_markup", None)
        if isinstance(p.get("reply_markup"), dict):
            msg["reply_markup"] = p["reply_markup"]
        self.messages[key] = msg
        return msg

    def _m_deletemessage(self, p: JSON) -> Any:
        key = (int(p["chat_id"]), int(p["message_id"]))
        self.photos.pop(key, None)
        if self.messages.pop(key, None) is None:
            return self._err(400, "Bad Request: message to delete not found")
        return True

    def _m_answercallbackquery(self, p: JSON) -> Any:
        if utf16_len(p.get("text") or "") > CALLBACK_TEXT_MAX:
            return self._refuse("answerCallbackQuery", "Bad Request: MESSAGE_TOO_LONG")
        return True

    def _check(self, method: str, error: str | None) -> web.Response | None:
        return None if error is None else self._refuse(method, error)

    def _refuse(self, method: str, description: str) -> web.Response:
        self.rejected.append((method, description))
        return self._err(400, description)

    def _m_setmycommands(self, p: JSON) -> Any:
        if (refused := self._check("setMyCommands", commands_error(p))) is not None:
            return refused
        scope = (p.get("scope") or {"type": "default"})["type"]
        self.commands[(scope, p.get("language_code") or "")] = p["commands"]
        return True

    def _m_setmydescription(self, p: JSON) -> Any:
        if (refused := self._check("setMyDescription", description_error(p, "description", DESCRIPTION_MAX))):
            return refused
        self.descriptions[p.get("language_code") or ""] = p.get("description") or ""
        return True

    def _m_setmyshortdescription(self, p: JSON) -> Any:
        error = description_error(p, "short_description", SHORT_DESCRIPTION_MAX)
        if (refused := self._check("setMyShortDescription", error)) is not None:
            return refused
        self.short_descriptions[p.get("language_code") or ""] = p.get("short_description") or ""
        return True

    def _m_setchatmenubutton(self, p: JSON) -> Any:
        if (refused := self._check("setChatMenuButton", menu_button_error(p))) is not None:
            return refused
        self.menu_button = p.get("menu_button") or {"type": "default"}
        return True

    def _m_getchatmember(self, p: JSON) -> JSON:
        chat_id, user_id = int(p["chat_id"]), int(p["user_id"])
        status = "administrator" if user_id in self.admins.get(chat_id, set()) else "member"
        member: JSON = {"status": status, "user": self.user(user_id, f"user{user_id}")}
        if status == "administrator":
            member.update(can_be_edited=False, is_anonymous=False, can_manage_chat=True, can_delete_messages=True,
                          can_manage_video_chats=True, can_restrict_members=True, can_promote_members=False,
                          can_change_info=True, can_invite_users=True, can_post_stories=False,
                          can_edit_stories=False, can_delete_stories=False)
        return member


_UPLOADS = {"sendphoto", "editmessagemedia"}  # handlers that take the call's multipart files too
_TRUE_METHODS = {m.lower() for m in (
    "deleteWebhook", "setWebhook", "deleteMyCommands", "sendChatAction", "close", "logOut")}
