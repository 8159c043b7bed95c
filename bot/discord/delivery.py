"""What reaches the channel, under issue 13's delivery policy.

- The table message is one message, edited in place: at most one edit per accepted action, none
  when nothing it shows changed (its deadline is a live `<t:…:R>`, so time passing changes nothing),
  and when several states queue up behind an edit in flight only the newest is sent.
- The turn notice is one ping per table: the new one (with a button to the hand, able to notify only
  its player) replaces the previous, which is deleted; a notice already stale when its turn to be
  sent comes (a newer state of the table was seen) is dropped.
- A round's result, while the match goes on, is shown in the table message (no message of its
  own); at match end the last ping is edited into the match's result, the other temporary messages
  ("cannot reach" notes) are deleted: the table message and the result stay. So a human turn costs
  at most three channel calls: the table edit, the new ping and the old one's deletion (at match
  end: the table edit and the ping edited into the result).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import discord

from bot.core.i18n import t
from bot.core.presenter import TurnNotice
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.limits import fit_content
from bot.discord.safe import only
from storage import Store, TableRecord

log = logging.getLogger(__name__)


# table_refs key of the table version a message shows, beside its id (`shows`): a restart shows
# again only what is behind its table (render.py's `behind`).
SHOWN_PREFIX = "shown:"


# The table message's attachments: (name, bytes) each; None leaves them as they are (the lobby has
# none), () removes them (a closed table, or a channel switched to text).
Files = tuple[tuple[str, bytes], ...] | None


@dataclass
class _Table:
    """One table's channel state in this process."""

    edit: asyncio.Lock = field(default_factory=asyncio.Lock)  # one table edit in flight
    notices: asyncio.Lock = field(default_factory=asyncio.Lock)
    pending: tuple[int, discord.Embed, discord.ui.View | None, Files, str] | None = None  # the newest unsent state
    shown: str | None = None  # fingerprint of what the table message shows
    sent_version: int = -1
    seen_version: int = -1  # the newest table version an outcome brought


def fingerprint(embed: discord.Embed, view: discord.ui.View | None, files: Files = None) -> str:
    pictures = [(name, hashlib.sha256(data).hexdigest()) for name, data in files] if files is not None else None
    return json.dumps([embed.to_dict(), view.to_components() if view is not None else None, pictures],
                      sort_keys=True, default=str)


def attachments(files: Files) -> dict[str, Any]:
    """The edit's `attachments=`: the pictures (new Files each time, a File is read once), if any."""
    return {} if files is None else {"attachments": [ui.png(name, data) for name, data in files]}


@dataclass
class Delivery:
    store: Store
    client: discord.Client | None = None
    _refs: dict[str, dict[str, Any]] = field(default_factory=dict)
    _tables: dict[str, _Table] = field(default_factory=dict)

    # ---- references (message ids, language) kept with the table ----------------------------------

    async def refs(self, table_id: str) -> dict[str, Any]:
        if table_id not in self._refs:
            self._refs[table_id] = dict(await self.store.table_refs(table_id))
        return self._refs[table_id]

    async def set_ref(self, table_id: str, key: str, value: Any) -> None:
        (await self.refs(table_id))[key] = value
        await self.store.set_table_ref(table_id, key, value)

    async def shows(self, table_id: str, key: str, version: int) -> None:
        """The message under `key` shows this table version now: stored beside its id (once a version)."""
        if (await self.refs(table_id)).get(SHOWN_PREFIX + key, -1) < version:
            await self.set_ref(table_id, SHOWN_PREFIX + key, version)

    def _table(self, table_id: str) -> _Table:
        return self._tables.setdefault(table_id, _Table())

    def seen(self, rec: TableRecord) -> None:
        """An outcome of this table version is being delivered: older notices are stale from now."""
        state = self._table(rec.id)
        state.seen_version = max(state.seen_version, rec.version)

    def stale(self, rec: TableRecord) -> bool:
        return rec.version < self._table(rec.id).seen_version

    async def _channel(self, rec: TableRecord) -> discord.PartialMessageable:
        assert self.client is not None
        return self.client.get_partial_messageable(int((await self.refs(rec.id)).get("channel") or rec.chat_id))

    # ---- the table message ------------------------------------------------------------------------

    async def table(self, rec: TableRecord, embed: discord.Embed, view: discord.ui.View | None,
                    interaction: discord.Interaction | None = None, files: Files = None) -> None:
        """Show this state on the table message: through the interaction when a button on it was
        pressed (the press's one answer), else by id; sent (and remembered) the first time. Its
        picture rides on the same edit (the attachment replaced)."""
        state = self._table(rec.id)
        fp = fingerprint(embed, view, files)
        mid = (await self.refs(rec.id)).get("message")
        on_table = interaction is not None and interaction.message is not None and mid and interaction.message.id == int(mid)
        if interaction is not None and on_table:
            async with state.edit:
                if fp == state.shown or rec.version < state.sent_version:
                    await answer.settle(interaction)
                else:
                    await answer.edit_here(interaction, embed=embed, view=view, **attachments(files))
                    state.shown, state.sent_version = fp, rec.version
                if fp == state.shown:
                    await self.shows(rec.id, "message", rec.version)
            return
        if state.pending is None or state.pending[0] <= rec.version:
            state.pending = (rec.version, embed, view, files, fp)
        async with state.edit:
            if state.pending is None:
                return  # a newer state went out while this one waited: it is shown already
            version, embed, view, files, fp = state.pending
            state.pending = None
            if version < state.sent_version:
                return
            if fp != state.shown:
                await self._send_table(rec, embed, view, files)
                state.shown, state.sent_version = fp, version
            await self.shows(rec.id, "message", version)

    async def _send_table(self, rec: TableRecord, embed: discord.Embed, view: discord.ui.View | None,
                          files: Files) -> None:
        channel = await self._channel(rec)
        mid = (await self.refs(rec.id)).get("message")
        if mid:
            try:
                await channel.get_partial_message(int(mid)).edit(embed=embed, view=view, **attachments(files))
                return
            except discord.NotFound:
                pass  # deleted by someone: post it again
        kwargs: dict[str, Any] = {"files": [ui.png(name, data) for name, data in files]} if files else {}
        kwargs["view"] = view  # None: no buttons (send takes it at run time; its annotation says View)
        msg = await channel.send(embed=embed, **kwargs)
        await self.set_ref(rec.id, "message", str(msg.id))

    # ---- new messages -------------------------------------------------------------------------------

    async def post(self, rec: TableRecord, content: str, ping: str | None = None,
                   view: discord.ui.View | None = None) -> discord.Message:
        """A new channel message; it can notify only `ping` (a user id), whatever names it holds."""
        channel = await self._channel(rec)
        kwargs: dict[str, Any] = {"allowed_mentions": only(ping)}
        if view is not None:
            kwargs["view"] = view
        return await channel.send(fit_content(content), **kwargs)

    async def round_result(self, rec: TableRecord, content: str | None = None) -> str | None:
        """The last round's result while the match goes on: shown in the table message itself (a
        field of its embed), so a round's end costs no message of its own. Kept with the table, so
        it is still shown after a restart; `content` replaces it."""
        if content is not None:
            await self.set_ref(rec.id, "round", content)
        return (await self.refs(rec.id)).get("round")

    async def match_end(self, rec: TableRecord, content: str | None) -> None:
        """The match is over: the turn's ping becomes the result (one edit, notifying nobody), or the
        result is posted when there is no ping; the other temporary messages go. The table message
        and the result are what stays."""
        async with self._table(rec.id).notices:
            refs = await self.refs(rec.id)
            ping = refs.get("ping")
            if refs.get("round"):
                await self.set_ref(rec.id, "round", None)
            if content:
                kept = await self._edit_into_result(rec, ping, fit_content(content)) if ping else None
                if kept is None:
                    kept = str((await self.post(rec, content)).id)
                    if ping:
                        await self._delete(rec, ping)
                await self.set_ref(rec.id, "results", kept)
                ping = None
            await self._clear(rec, ping)

    async def _edit_into_result(self, rec: TableRecord, ping: str, content: str) -> str | None:
        try:
            await (await self._channel(rec)).get_partial_message(int(ping)).edit(
                content=content, view=None, allowed_mentions=only(None))
        except discord.HTTPException:
            return None  # deleted by someone (or refused): the result is posted instead
        return ping

    async def temporary(self, rec: TableRecord, content: str, ping: str | None = None) -> None:
        """A message that goes when the match ends (a "cannot reach" note)."""
        msg = await self.post(rec, content, ping)
        refs = await self.refs(rec.id)
        await self.set_ref(rec.id, "temp", [*(refs.get("temp") or []), str(msg.id)])

    async def notice(self, notice: TurnNotice, lang: str) -> None:
        """The turn's ping, replacing the table's previous one; dropped when already stale."""
        rec = notice.table
        state = self._table(rec.id)
        if self.stale(rec):
            return
        async with state.notices:
            if self.stale(rec):
                return
            text = t("dc.your_turn", lang, name=f"<@{int(notice.user_id)}>")
            if notice.deadline is not None:
                text += " " + ui.relative_time(notice.deadline)
            msg = await self.post(rec, text, ping=notice.user_id, view=ui.table_view(rec, lang))
            previous = (await self.refs(rec.id)).get("ping")
            # Kept with the table (a restart still deletes it), written while the old one is deleted.
            await asyncio.gather(self.set_ref(rec.id, "ping", str(msg.id)),
                                 *([self._delete(rec, previous)] if previous else []))

    async def finished(self, rec: TableRecord) -> None:
        """The table ended without a result (ended, expired): every temporary message of it goes."""
        async with self._table(rec.id).notices:
            await self._clear(rec, (await self.refs(rec.id)).get("ping"))

    async def _clear(self, rec: TableRecord, ping: str | None) -> None:
        refs = await self.refs(rec.id)
        ids = ([ping] if ping else []) + (refs.get("temp") or [])
        if refs.get("ping"):
            await self.set_ref(rec.id, "ping", None)
        if refs.get("temp"):
            await self.set_ref(rec.id, "temp", None)
        for mid in ids:
            await self._delete(rec, mid)

    def forget(self, table_id: str) -> None:
        """The table ended and its last messages went out: nothing of it stays in memory (its ids
        stay stored; a later press on an old message reads them again)."""
        self._refs.pop(table_id, None)
        self._tables.pop(table_id, None)

    def tables_kept(self) -> int:
        """How many tables this process keeps anything for (the soak bench and tests watch it)."""
        return len(self._refs.keys() | self._tables.keys())

    async def _delete(self, rec: TableRecord, mid: str) -> None:
        try:
            await (await self._channel(rec)).get_partial_message(int(mid)).delete()
        except discord.NotFound:
            pass  # already gone (deleted by a moderator)
        except discord.HTTPException:
            log.info("could not delete message %s of table %s", mid, rec.id)
