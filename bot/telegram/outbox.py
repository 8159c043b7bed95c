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
* The worker paces a group: its next message goes no sooner than `group_pace` seconds (by default
  `group_period / group_limit`, 3 s) after the group's previous one. At full speed the window is so
  spent evenly instead of in a burst of 20 followed by a frozen table for the rest of the minute:
  the table is a few seconds behind at most, showing the newest state each time. (A command's
  reply is not paced, only counted.)
* `RetryAfter` is obeyed: the worker sleeps as told (injected sleep) and tries again.

Message ids of slots and notices are kept in the store (`table_refs`), so a restarted bot edits the
same messages instead of posting new ones, and deletes the notices it sent before. Beside a slot's
id the table version it shows is kept (`shown:<key>`, written once the message shows it, sent or found
unchanged): a restart re-renders only the slots behind their table (`shown_versions`), not every one.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dtm
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from telegram import Bot, InlineKeyboardMarkup, InputMediaPhoto, Message
from telegram.constants import ParseMode
from telegram.error import BadRequest, ChatMigrated, Forbidden, RetryAfter, TelegramError

from bot.core import metrics
from bot.telegram.keyboards import markup_key
from bot.telegram.limits import CAPTION_MAX, TEXT_MAX, fit_html
from bot.telegram.window import SlidingWindow
from storage import Store

log = logging.getLogger(__name__)
T = TypeVar("T")
Sleep = Callable[[float], Awaitable[None]]
# Told when a private chat refuses a slot (the user blocked the bot or never opened the chat):
# (user id, table id, slot key).
Unreachable = Callable[[int, str, str], Awaitable[None]]
# Told when a group refuses the bot (removed from it: `Forbidden`): (chat id).
GroupGone = Callable[[int], Awaitable[None]]
# Told when a send finds the group became a supergroup (`ChatMigrated`): (old chat id, new chat id).
Migrated = Callable[[int, int], Awaitable[None]]
GONE_KEPT = 4096  # groups remembered as gone (the newest): enough for whatever is still queued for them


def retry_seconds(err: RetryAfter) -> float:
    value: Any = err._retry_after  # a timedelta; the public property warns while PTB migrates its type
    return value.total_seconds() if isinstance(value, dtm.timedelta) else float(value)


async def obey_retry_after(call: Callable[[], Awaitable[T]], sleep: Sleep, retries: int = 3) -> T:
    """Run a Bot API call; on `RetryAfter` wait the time Telegram asks for and try again."""
    for attempt in range(retries + 1):
        try:
            return await call()
        except RetryAfter as err:
            metrics.RATE_LIMITED.labels("telegram").inc()
            if attempt == retries:
                raise
            await sleep(retry_seconds(err))
    raise AssertionError("unreachable")


class Leaving(Exception):
    """The bot is shutting down (`Outbox.stop_waiting`): a message that would have to wait for its
    group's window or a `RetryAfter` is not sent. The restored render shows the table again at the
    next start; a command's reply is given up."""


TEMP_PREFIX = "tmp:"
SHOWN_PREFIX = "shown:"  # table_refs key of the table version a slot's message shows
# What a message shows: (text or caption, keyboard, digest of its picture or None for a text message).
Shown = tuple[str, str, str | None]
# Telegram's answers when an edit asks a text message to become a photo or the other way round.
_WRONG_KIND = ("no text in the message", "no media in the message", "there is no caption")


def _is_ref(key: str, value: object) -> bool:
    """A message id kept in table_refs (the shown versions beside them are ints too)."""
    return isinstance(value, int) and not isinstance(value, bool) and not key.startswith(SHOWN_PREFIX)


def shown_versions(refs: dict[str, Any]) -> dict[str, int]:
    """The table version each slot's message shows, by slot key, from a table's stored refs."""
    return {k.removeprefix(SHOWN_PREFIX): v for k, v in refs.items()
            if k.startswith(SHOWN_PREFIX) and isinstance(v, int) and not isinstance(v, bool)}


def digest(photo: bytes | None) -> str | None:
    return hashlib.sha256(photo).hexdigest() if photo is not None else None


@dataclass
class _Op:
    kind: str  # "slot" | "post" | "notice" | "temp" | "drop" | "end"
    text: str
    markup: InlineKeyboardMarkup | None
    table_id: str = ""
    key: str = ""
    thread_id: int | None = None
    photo: bytes | None = None  # a slot shown as a picture (PNG) with `text` as its caption
    version: int | None = None  # the table version a slot's content was rendered from

    def shown(self) -> Shown:
        """What the message will show: the text cut to the limit of its kind."""
        text = fit_html(self.text, CAPTION_MAX if self.photo is not None else TEXT_MAX)
        return text, markup_key(self.markup), digest(self.photo)


class Outbox:
    def __init__(self, bot: Bot, store: Store, sleep: Sleep = asyncio.sleep, retries: int = 3,
                 group_limit: int = 20, group_period: float = 60.0,
                 clock: Callable[[], float] = time.monotonic, group_pace: float | None = None) -> None:
        self.bot = bot
        self.store = store
        self.sleep = sleep
        self.retries = retries
        self.group_limit = group_limit
        self.group_period = group_period
        # Seconds between a group's queued messages: the window's budget spread evenly (0: a burst).
        self.group_pace = group_period / group_limit if group_pace is None and group_limit > 0 else group_pace or 0.0
        self.clock = clock
        self._queues: dict[int, list[_Op]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}
        self._windows: dict[int, SlidingWindow] = {}
        self._shown: dict[tuple[int, int], Shown] = {}  # (chat, message) -> what it shows
        self._refs: dict[tuple[str, str], int | None] = {}  # None: known to be gone (see forget)
        self._versions: dict[tuple[str, str], int] = {}  # (table, slot) -> newest table version put
        self._shown_versions: dict[tuple[str, str], int] = {}  # (table, slot) -> version stored as shown
        self._messages: dict[str, set[tuple[int, int]]] = {}  # table -> (chat, message) of _shown kept for it
        self._ending: dict[str, int] = {}  # ended table -> its chats whose queues have not reached its end yet
        self.sent = 0  # Bot API calls made by the outbox (for the bench)
        self.uploaded = 0  # bytes of pictures uploaded (for the bench)
        self.waited = 0.0  # seconds spent waiting for group windows (for the bench)
        self.on_unreachable: Unreachable | None = None
        self.on_group_gone: GroupGone | None = None
        self.on_migrated: Migrated | None = None
        self._gone: dict[int, None] = {}  # groups the bot is no longer in (or that moved): nothing goes there
        self._leaving = False
        self._sleepers: set[asyncio.Future[None]] = set()

    def gone(self, chat_id: int) -> None:
        """The bot is no longer in this group, or it moved to a new id: what is queued for it is
        dropped and nothing more is sent there (no call made only to be refused)."""
        self._gone[chat_id] = None
        while len(self._gone) > GONE_KEPT:
            del self._gone[next(iter(self._gone))]
        queue = self._queues.get(chat_id)
        if queue:
            queue[:] = [op for op in queue if op.kind == "end"]

    def back_in(self, chat_id: int) -> None:
        """The bot was added to the group again."""
        self._gone.pop(chat_id, None)

    def queued(self) -> int:
        """Messages waiting to go out, over every chat (the `rummy_outbox_queued` metric)."""
        return sum(len(queue) for queue in self._queues.values())

    # ---- queueing -------------------------------------------------------------------------------

    def put(self, chat_id: int, table_id: str, key: str, text: str, markup: InlineKeyboardMarkup | None,
            thread_id: int | None = None, version: int | None = None, photo: bytes | None = None) -> None:
        """The slot's newest content; with `photo` a picture whose caption is `text`."""
        if chat_id in self._gone:
            return
        if version is not None:
            if version < self._versions.get((table_id, key), version):
                return  # a newer state of this table is already on its way (or shown)
            self._versions[(table_id, key)] = version
        queue = self._queues.setdefault(chat_id, [])
        for op in queue:
            if op.kind == "slot" and op.table_id == table_id and op.key == key:
                # coalesce: only the newest state goes out
                op.text, op.markup, op.photo, op.version = text, markup, photo, version
                break
        else:
            queue.append(_Op("slot", text, markup, table_id, key, thread_id, photo, version))
        self._wake(chat_id)

    def post(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
             thread_id: int | None = None) -> None:
        if chat_id in self._gone:
            return
        self._queues.setdefault(chat_id, []).append(_Op("post", text, markup, thread_id=thread_id))
        self._wake(chat_id)

    def post_temporary(self, chat_id: int, table_id: str, text: str, thread_id: int | None = None) -> None:
        """A new message that goes when the match ends (see `temporary`)."""
        if chat_id in self._gone:
            return
        self._queues.setdefault(chat_id, []).append(_Op("temp", text, None, table_id, thread_id=thread_id))
        self._wake(chat_id)

    def notify(self, chat_id: int, table_id: str, key: str, text: str, markup: InlineKeyboardMarkup | None = None,
               thread_id: int | None = None, version: int | None = None) -> None:
        """A new message under `key` (it notifies) that replaces the previous one of that key."""
        if chat_id in self._gone:
            return
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
        queue = self._queues.get(chat_id, [])
        queue[:] = [op for op in queue if not (op.table_id == table_id and op.key == key and op.kind == "notice")]
        # A notice being sent right now stores its ref once sent: the drop queued behind it sees it.
        shown = await self.ref(table_id, key) is not None  # read first: the same reads whatever the timing
        busy = self._workers.get(chat_id) is not None and not self._workers[chat_id].done()
        if busy or shown:
            # The chat's queue again: its worker may have finished (and let go of it) meanwhile.
            self._queues.setdefault(chat_id, []).append(_Op("drop", "", None, table_id, key))
            self._wake(chat_id)

    async def refs(self, table_id: str) -> dict[str, int]:
        """Every message id kept for the table, by key: the store's (another process may have sent
        some) and this process's own."""
        stored = {k: v for k, v in (await self.store.table_refs(table_id)).items() if _is_ref(k, v)}
        mine = {k: v for (t, k), v in self._refs.items() if t == table_id}
        return {k: v for k, v in {**stored, **mine}.items() if v is not None}

    def end_table(self, table_id: str, chats: Iterable[int]) -> None:
        """The table's match is over: once what is queued for it in each of its chats has gone out,
        everything this process keeps for it (message ids, versions, what its messages show) is
        dropped, so a process running for weeks keeps only its live tables. Its ids stay in the
        store: a later press on an old message reads them again."""
        chats = set(chats)
        if not chats or table_id in self._ending:
            return
        self._ending[table_id] = len(chats)
        for chat_id in chats:
            self._queues.setdefault(chat_id, []).append(_Op("end", "", None, table_id))
            self._wake(chat_id)

    def _forget_table(self, table_id: str) -> None:
        for key in [k for k in self._refs if k[0] == table_id]:
            del self._refs[key]
        for key in [k for k in self._versions if k[0] == table_id]:
            del self._versions[key]
        for key in [k for k in self._shown_versions if k[0] == table_id]:
            del self._shown_versions[key]
        for shown in self._messages.pop(table_id, ()):
            self._shown.pop(shown, None)

    def tables_kept(self) -> int:
        """How many tables this process keeps anything for (the soak bench and tests watch it)."""
        return len({k[0] for k in self._refs} | {k[0] for k in self._versions} | set(self._messages)
                   | {k[0] for k in self._shown_versions})

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

    async def close(self, grace_s: float | None = None) -> None:
        """Send what is queued (within `grace_s` when given), then stop every chat's worker."""
        if grace_s is None:
            await self.idle()
        elif grace_s > 0 and (busy := [w for w in self._workers.values() if not w.done()]):
            await asyncio.wait(busy, timeout=grace_s)
        workers = list(self._workers.values())
        for worker in workers:
            worker.cancel()
        for worker in workers:
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

    async def _room(self, chat_id: int, paced: bool = False) -> None:
        window = self._window(chat_id)
        if window is not None:
            self.waited += await window.acquire(self._sleep, self.group_pace if paced else 0.0)

    async def _sleep(self, seconds: float) -> None:
        """The injected sleep, cut short by `stop_waiting` (then `Leaving`)."""
        if self._leaving:
            raise Leaving
        sleeper = asyncio.ensure_future(self.sleep(seconds))
        self._sleepers.add(sleeper)
        try:
            await sleeper
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if self._leaving and task is not None and not task.cancelling():
                raise Leaving from None  # our own cancel of the sleep, not of the caller
            raise
        finally:
            self._sleepers.discard(sleeper)

    def stop_waiting(self) -> None:
        """Shutting down: no group window or `RetryAfter` is waited out any more — what waits, and
        what would have to, raises `Leaving`. What can go out at once still does."""
        self._leaving = True
        for sleeper in self._sleepers:
            sleeper.cancel()

    async def _work(self, chat_id: int) -> None:
        try:
            await self._send_queued(chat_id)
        except Leaving:
            queue = self._queues[chat_id]
            log.info("shutting down: %d message(s) for chat %s not sent", len(queue) + 1, chat_id)
            queue.clear()

    async def _send_queued(self, chat_id: int) -> None:
        queue = self._queues[chat_id]
        while queue:
            if chat_id in self._gone and queue[0].kind != "end":
                queue.pop(0)
                continue
            if queue[0].kind == "slot" and await self._unchanged(chat_id, queue[0]):
                # shows that already: no call, so no room in the window needed
                await self._shows_version(queue.pop(0))
                continue
            if queue[0].kind == "end":
                self._ended(queue.pop(0).table_id)
                continue
            if queue[0].kind != "drop":  # deleting does not count against the group's limit
                await self._room(chat_id, paced=True)  # before popping: what waits may still be replaced by newer
                if not queue:
                    break
            op = queue.pop(0)
            try:
                if op.kind == "slot":
                    await self._slot(chat_id, op)
                    await self._shows_version(op)
                elif op.kind == "notice":
                    await self._notice(chat_id, op)
                elif op.kind == "drop":
                    await self._drop(chat_id, op.table_id, op.key)
                elif op.kind == "temp":
                    msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
                    await self._keep(chat_id, op.table_id, f"{TEMP_PREFIX}{msg.message_id}", msg.message_id)
                else:  # a message never edited: nothing of it is kept
                    msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
                    self._shown.pop((chat_id, msg.message_id), None)
            except Forbidden:
                log.info("chat %s does not accept messages from the bot", chat_id)
                if chat_id < 0 and self.on_group_gone is not None:
                    await self._tell(self.on_group_gone(chat_id), chat_id)
                elif chat_id > 0 and op.kind in ("slot", "notice") and self.on_unreachable is not None:
                    await self._tell(self.on_unreachable(chat_id, op.table_id, op.key), chat_id)
            except ChatMigrated as err:
                log.info("chat %s is the supergroup %s now", chat_id, err.new_chat_id)
                if self.on_migrated is not None:
                    await self._tell(self.on_migrated(chat_id, err.new_chat_id), chat_id)
            except TelegramError:
                log.exception("sending to chat %s failed", chat_id)
        # Done with this chat (no await since the queue was found empty, so nothing was queued in
        # between): a chat written to once a month costs nothing meanwhile.
        del self._queues[chat_id]
        del self._workers[chat_id]

    @staticmethod
    async def _tell(handling: Awaitable[None], chat_id: int) -> None:
        try:
            await handling
        except Exception:  # the worker must go on with this chat's queue
            log.exception("handling the refusal of chat %s failed", chat_id)

    def _ended(self, table_id: str) -> None:
        self._ending[table_id] -= 1
        if not self._ending[table_id]:
            del self._ending[table_id]
            self._forget_table(table_id)

    async def call(self, fn: Callable[[], Awaitable[T]], chat_id: int | None = None) -> T:
        """One Bot API call; `chat_id` when it puts a message into that chat (a group's window applies)."""
        if chat_id is not None:
            await self._room(chat_id)
        self.sent += 1
        return await obey_retry_after(fn, self._sleep, self.retries)

    async def send(self, chat_id: int, text: str, markup: InlineKeyboardMarkup | None = None,
                   thread_id: int | None = None) -> Message:
        text = fit_html(text)  # over 4096 Telegram drops the message: cut it, tags kept whole
        msg = await self.call(lambda: self.bot.send_message(  # HTML, no link preview: the bot's Defaults
            chat_id, text, reply_markup=markup, message_thread_id=thread_id))
        self._shown[(chat_id, msg.message_id)] = (text, markup_key(markup), None)
        return msg

    async def send_photo(self, chat_id: int, photo: bytes, caption: str, markup: InlineKeyboardMarkup | None = None,
                         thread_id: int | None = None) -> Message:
        caption = fit_html(caption, CAPTION_MAX)  # over 1024 Telegram refuses the photo
        msg = await self.call(lambda: self.bot.send_photo(
            chat_id, photo, caption=caption, parse_mode=ParseMode.HTML, reply_markup=markup,
            message_thread_id=thread_id))
        self.uploaded += len(photo)
        self._shown[(chat_id, msg.message_id)] = (caption, markup_key(markup), digest(photo))
        return msg

    async def ref(self, table_id: str, key: str) -> int | None:
        """The message kept under `key`. A miss reads the store again: another process serving the
        same table (webhook workers, a claim taken over) may have sent it."""
        if (table_id, key) not in self._refs:
            refs = await self.store.table_refs(table_id)
            for k, v in refs.items():
                if _is_ref(k, v):
                    self._refs.setdefault((table_id, k), v)
        return self._refs.get((table_id, key))

    async def _shows_version(self, op: _Op) -> None:
        """The slot's message shows `op.version` now: stored beside its id, once per version."""
        if op.version is None or self._shown_versions.get((op.table_id, op.key), -1) >= op.version:
            return
        self._shown_versions[(op.table_id, op.key)] = op.version
        try:
            await self.store.set_table_ref(op.table_id, SHOWN_PREFIX + op.key, op.version)
        except Exception as err:  # only a restart's shortcut is lost (it edits this slot once more): go on sending
            log.warning("the version shown in table %s's %s not stored: %s", op.table_id, op.key, err)

    async def forget(self, table_id: str, key: str) -> None:
        """The slot's next content goes out as a new message (e.g. a hand asked for again). Marked gone
        rather than dropped from the cache: a miss meanwhile would read the store before this write
        lands, bring the old id back, and have it deleted twice."""
        self._refs[(table_id, key)] = None
        await self.store.set_table_ref(table_id, key, None)

    async def _keep(self, chat_id: int, table_id: str, key: str, message_id: int) -> None:
        self._refs[(table_id, key)] = message_id
        self._messages.setdefault(table_id, set()).add((chat_id, message_id))
        await self.store.set_table_ref(table_id, key, message_id)

    async def _notice(self, chat_id: int, op: _Op) -> None:
        await self._drop(chat_id, op.table_id, op.key)
        msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
        await self._keep(chat_id, op.table_id, op.key, msg.message_id)

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
        return message_id is not None and self._shown.get((chat_id, message_id)) == op.shown()

    async def _slot(self, chat_id: int, op: _Op) -> None:
        message_id = await self.ref(op.table_id, op.key)
        shown = op.shown()
        op.text = shown[0]  # what the message will show, so the not-modified check compares that
        if message_id is not None:
            before = self._shown.get((chat_id, message_id))
            if before == shown:
                return
            # A text message cannot become a photo nor a photo text: the switch (a `/look`) replaces
            # the message once. After a restart what it shows is unknown: the edit's refusal says so.
            same_kind = before is None or (before[2] is None) == (op.photo is None)
            gone = False
            try:
                if same_kind:
                    await self._edit(chat_id, message_id, op, before)
                    self._shown[(chat_id, message_id)] = shown
                    return
            except BadRequest as err:
                reason = str(err).lower()
                if "not modified" in reason:
                    self._shown[(chat_id, message_id)] = shown
                    return
                gone = "not found" in reason  # deleted by someone: post a fresh one below
                if not gone and not any(x in reason for x in _WRONG_KIND):
                    raise
            if not gone:
                await self._drop(chat_id, op.table_id, op.key)
        if op.photo is not None:
            msg = await self.send_photo(chat_id, op.photo, op.text, op.markup, op.thread_id)
        else:
            msg = await self.send(chat_id, op.text, op.markup, op.thread_id)
        await self._keep(chat_id, op.table_id, op.key, msg.message_id)

    async def _edit(self, chat_id: int, message_id: int, op: _Op, before: Shown | None) -> None:
        """One call: the text; or the picture with its caption and keyboard (only the caption when the
        picture is the one shown, so nothing is uploaded again)."""
        if op.photo is None:
            await self.call(lambda: self.bot.edit_message_text(op.text, chat_id, message_id, reply_markup=op.markup))
        elif before is not None and before[2] == digest(op.photo):
            await self.call(lambda: self.bot.edit_message_caption(
                chat_id, message_id, caption=op.text, parse_mode=ParseMode.HTML, reply_markup=op.markup))
        else:
            photo = op.photo
            media = InputMediaPhoto(photo, caption=op.text, parse_mode=ParseMode.HTML)
            await self.call(lambda: self.bot.edit_message_media(media, chat_id, message_id, reply_markup=op.markup))
            self.uploaded += len(photo)
