"""Everything the bot sends to chats goes through here, one worker per chat.

* A *slot* is a message edited in place (the table message, a player's hand). Putting new content
  for a slot that is still waiting replaces it, so a burst of changes costs one edit with the
  newest state (edits coalesced per chat). Content equal to what the message shows is not sent.
  Content rendered from an older table version than the slot was last given is dropped: updates of
  different chats run concurrently, so two players' moves on one table may render out of order.
* A *post* is a new message that stays (a round result), sent in order after what came before.
* A *notice* is a new message that replaces the one of the same key (a turn notice: it notifies,
  an edit would not); the previous one is deleted. A notice still waiting when it is retracted or
  replaced is dropped, never sent late. A *temporary* post is remembered (`tmp:<id>`) so that it
  can be deleted when the match ends.
* Group chats get a true sliding window (window.py): at most `group_limit` messages in any
  `group_period` seconds. The worker waits for the window *before* taking the next message off the
  queue, so the table state that goes out after a wait is the newest one put meanwhile.
* `RetryAfter` is obeyed: the worker sleeps as told (injected sleep) and tries again.

Message ids of slots and notices are kept in the store (`table_refs`), so a restarted bot edits the
same messages instead of posting new ones, and deletes the notices it sent before.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, Message
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError

from bot.telegram.keyboards import markup_key
from bot.telegram.limits import fit_html
from bot.telegram.window import SlidingWindow
from storage import Store

log = logging.getLogger(__name__)
T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
# Told when a private chat refuses a slot (the user blocked the bot or never opened the chat):
# (user id, table id, slot key).
Unreachable = Callable[[int, str, str], Awaitable[None]]


def retry_seconds(err: RetryAfter) -> float:
    value: Any = err._retry_after  # a timedelta; the public property warns while PTB migrates its type
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


async def obey_retry_after(call: Callable[[], Awaitable[T]], sleep: Sleep, retries: int = 3) -> T:
    """Run a Bot API call; on `RetryAfter` wait the time Telegram asks for and try again."""
    for attempt in range(retries + 1):
        try:
            return await call()
        except RetryAfter as err:
            if attempt == retries:
                raise
            await sleep(retry_seconds(err))
    raise AssertionError("unreachable")


TEMP_PREFIX = "tmp:"


@dataclass
class _Op:
    kind: str  # "slot" | "post" | "notice" | "temp" | "drop"
    text: str
    markup: InlineKeyboardMarkup | None
    table_id: str = ""
    key: str = ""
    thread_id: int | None = None


class Outbox:
    def __init__(self, bot: Bot, store: Store, sleep: Sleep = asyncio.sleep, retries: int = 3,
                 group_limit: int = 20, group_period: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.store = store
        self.sleep = sleep
        self.retries = retries
        self.group_limit = group_limit
        self.group_period = group_period
        self.clock = clock
        self._queues: dict[int, list[_Op]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._windows: dict[int, SlidingWindow] = {}
        self._shown: dict[tuple[int, int], tuple[str, str]] = {}  # (chat, message) -> what it shows
        self._refs: dict[tuple[str, str], int | None] = {}  # None: known to be gone (see forget)
        self._versions: dict[tuple[str, str], int] = {}  # (table, slot) -> newest table version put
        self.sent = 0  # Bot API calls made by the outbox (for the bench)
        self.waited = 0.0  # seconds spent waiting for group windows (for the bench)
        self.on_unreachable: Unreachable | None = None

    # ---- queueing -------------------------------------------------------------------------------

    def put(self, chat_id: int, table_id: str, key: str, text: str, markup: InlineKeyboardMarkup | None,
            thread_id: int | None = None, version: int | None = None) -> None:
        if version is not None:
            if version < self._versions.get((table_id, key), version):
                return  # a newer state of this table is already on its way (or shown)
            self._versions[(table_id, key)] = version
        queue = self._queues.setdefault(chat_id, [])
        for op in queue:
            if op.kind == "slot" and op.table_id == table_id and op.key == key:
                op.text, op.markup = text, markup  # coalesce: only the newest state goes out
                break
        else:
            queue.append(_Op("slot", text, markup, table_id, key, thread_id))
        self._wake(chat_id)

    def post(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
             thread_id: int | None = None) -> None:
        self._queues.setdefault(chat_id, []).append(_Op("post", text, markup, thread_id=thread_id))
        self._wake(chat_id)

    def post_temporary(self, chat_id: int, table_id: str, text: str, thread_id: int | None = None) -> None:
        """A new message that goes when the match ends (see `temporary`)."""
        self._queues.setdefault(chat_id, []).append(_Op("temp", text, None, table_id, thread_id=thread_id))
        self._wake(chat_id)

    def notify(self, chat_id: int, table_id: str, key: str, text: str, markup: InlineKeyboardMarkup | None = None,
               thread_id: int | None = None, version: int | None = None) -> None:
        """A new message under `key` (it notifies) that replaces the previous one of that key."""
        if version is not None:
            if version < self._versions.get((table_id, key), version):
                return  # a newer notice (or its retraction) was given already: this one is stale
            self._versions[(table_id, key)] = version
        queue = self._queues.setdefault(chat_id, [])
        queue[:] = [op for op in queue if not (op.kind == "notice" and op.table_id == table_id and op.key == key)]
        queue.append(_Op("notice", text, markup, table_id, key, thread_id))
        self._wake(chat_id)

    async def retract(self, chat_id: int, table_id: str, key: str, version: int | None = None) -> None:
        """The notice under `key` is no longer true: one still waiting is dropped unsent, one shown is
        deleted. Costs no call when there is none."""
        if version is not None:
            if version < self._versions.get((table_id, key), version):
                return
            self._versions[(table_id, key)] = version
        queue = self._queues.setdefault(chat_id, [])
        waiting = [op for op in queue if op.table_id == table_id and op.key == key and op.kind == "notice"]
        queue[:] = [op for op in queue if op not in waiting]
        # A notice being sent right now stores its ref once sent: the drop queued behind it sees it.
        shown = await self.ref(table_id, key) is not None  # read first: the same reads whatever the timing
        busy = self._workers.get(chat_id) is not None and not self._workers[chat_id].done()
        if busy or shown:
            queue.append(_Op("drop", "", None, table_id, key))
            self._wake(chat_id)

    async def refs(self, table_id: str) -> dict[str, int]:
        """Every message id kept for the table, by key: the store's (another process may have sent
        some) and this process's own."""
        stored = {k: v for k, v in (await self.store.table_refs(table_id)).items()
                  if isinstance(v, int) and not isinstance(v, bool)}
        mine = {k: v for (t, k), v in self._refs.items() if t == table_id}
        return {k: v for k, v in {**stored, **mine}.items() if v is not None}

    def _wake(self, chat_id: int) -> None:
        worker = self._workers.get(chat_id)
        if worker is None or worker.done():
            self._workers[chat_id] = asyncio.create_task(self._work(chat_id), name=f"outbox-{chat_id}")

    async def idle(self) -> None:
        """Wait until every queued message has been sent (tests and the bench use it)."""
        while True:
            busy = [w for w in self._workers.values() if not w.done()]
            if not busy:
                return
            await asyncio.gather(*busy, return_exceptions=True)

    async def close(self) -> None:
        for worker in self._workers.values():
            worker.cancel()
        for worker in self._workers.values():
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await worker
        self._workers.clear()

    # ---- sending --------------------------------------------------------------------------------

    def _window(self, chat_id: int) -> SlidingWindow | None:
        if chat_id >= 0 or self.group_limit <= 0:
            return None  # private chats: only the overall limit (AIORateLimiter) applies
        if chat_id not in self._windows:
            self._windows[chat_id] = SlidingWindow(self.group_limit, self.group_period, self.clock)
        return self._windows[chat_id]

    async def _room(self, chat_id: int) -> None:
        window = self._window(chat_id)
        if window is not None:
            self.waited += await window.acquire(self.sleep)

    async def _work(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        while queue:
            if queue[0].kind == "slot" and await self._unchanged(chat_id, queue[0]):
                queue.pop(0)  # shows that already: no call, so no room in the window needed
                continue
            if queue[0].kind != "drop":  # deleting does not count against the group's limit
                await self._room(chat_id)  # before popping: what waits may still be replaced by newer
                if not queue:
                    break
            op = queue.pop(0)
            try:
                if op.kind == "slot":
                    await self._slot(chat_id, op)
                elif op.kind == "notice":
                    await self._notice(chat_id, op)
                elif op.kind == "drop":
                    await self._drop(chat_id, op.table_id, op.key)
                elif op.kind == "temp":
                    msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
                    await self._keep(op.table_id, f"{TEMP_PREFIX}{msg.message_id}", msg.message_id)
                else:
                    await self.send(chat_id, op.text, op.markup, op.thread_id)
            except Forbidden:
                log.info("chat %s does not accept messages from the bot", chat_id)
                if chat_id > 0 and op.kind in ("slot", "notice") and self.on_unreachable is not None:
                    try:
                        await self.on_unreachable(chat_id, op.table_id, op.key)
                    except Exception:  # the worker must go on sending to this chat
                        log.exception("handling the unreachable chat %s failed", chat_id)
            except TelegramError:
                log.exception("sending to chat %s failed", chat_id)

    async def call(self, fn: Callable[[], Awaitable[T]], chat_id: int | None = None) -> T:
        """One Bot API call; `chat_id` when it puts a message into that chat (a group's window applies)."""
        if chat_id is not None:
            await self._room(chat_id)
        self.sent += 1
        return await obey_retry_after(fn, self.sleep, self.retries)

    async def send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
                   thread_id: int | None = None) -> Message:
        text = fit_html(text)  # over 4096 Telegram drops the message: cut it, tags kept whole
        msg = await self.call(lambda: self.bot.send_message(  # HTML, no link preview: the bot's Defaults
            chat_id, text, reply_markup=markup, message_thread_id=thread_id))
        self._shown[(chat_id, msg.message_id)] = (text, markup_key(markup))
        return msg

    async def ref(self, table_id: str, key: str) -> int | None:
        """The message kept under `key`. A miss reads the store again: another process serving the
        same table (webhook workers, a claim taken over) may have sent it."""
        if (table_id, key) not in self._refs:
            refs = await self.store.table_refs(table_id)
            for k, v in refs.items():
                if isinstance(v, int) and not isinstance(v, bool):
                    self._refs.setdefault((table_id, k), v)
        return self._refs.get((table_id, key))

    async def forget(self, table_id: str, key: str) -> None:
        """The slot's next content goes out as a new message (e.g. a hand asked for again). Marked gone
        rather than dropped from the cache: a miss meanwhile would read the store before this write
        lands, bring the old id back, and have it deleted twice."""
        self._refs[(table_id, key)] = None
        await self.store.set_table_ref(table_id, key, None)

    async def _keep(self, table_id: str, key: str, message_id: int) -> None:
        self._refs[(table_id, key)] = message_id
        await self.store.set_table_ref(table_id, key, message_id)

    async def _notice(self, chat_id: int, op: _Op) -> None:
        await self._drop(chat_id, op.table_id, op.key)
        msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
        await self._keep(op.table_id, op.key, msg.message_id)

    async def _drop(self, chat_id: int, table_id: str, key: str) -> None:
        message_id = await self.ref(table_id, key)
        if message_id is None:
            return
        await self.forget(table_id, key)
        try:
            await self.call(lambda: self.bot.delete_message(chat_id, message_id))
        except BadRequest as err:  # already gone (deleted by a user, or older than 48 h): nothing to do
            log.info("deleting message %s in %s: %s", message_id, chat_id, err)
        self._shown.pop((chat_id, message_id), None)

    async def _unchanged(self, chat_id: int, op: _Op) -> bool:
        message_id = await self.ref(op.table_id, op.key)
        shown = (fit_html(op.text), markup_key(op.markup))
        return message_id is not None and self._shown.get((chat_id, message_id)) == shown

    async def _slot(self, chat_id: int, op: _Op) -> None:
        message_id = await self.ref(op.table_id, op.key)
        op.text = fit_html(op.text)  # what the message will show, so the not-modified check compares that
        shown = (op.text, markup_key(op.markup))
        if message_id is not None:
            if self._shown.get((chat_id, message_id)) == shown:
                return
            try:
                await self.call(lambda: self.bot.edit_message_text(op.text, chat_id, message_id, reply_markup=op.markup))
                self._shown[(chat_id, message_id)] = shown
                return
            except BadRequest as err:
                if "not modified" in str(err).lower():
                    self._shown[(chat_id, message_id)] = shown
                    return
                if "not found" not in str(err).lower():
                    raise
                # The message is gone (deleted by someone): post a fresh one below.
        msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
        await self._keep(op.table_id, op.key, msg.message_id)


