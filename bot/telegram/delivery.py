"""Delivery: the presenter's Updates laid out as Telegram messages and handed to the outbox.

The policy (issue 13, item 3; written on bot.core.presenter's Updates and TurnNotice):
* the group's table message is edited in place, at most once per accepted action (the outbox's
  slot coalesces whatever arrives while one waits) and only once a turn is over (`mid_turn`); its
  text has no countdown, the deadline is shown as a clock time, so no edit is ever made only
  because time passed;
* a hand is one message in the player's DM, edited in place;
* with pictures on (`/look`, pictures.py) both are a picture with a short caption, edited with one
  editMessageMedia (the keyboard in the same call); switching the look replaces the message once;
* the turn notice is a new DM message (it notifies; an edit does not), and the player's previous
  notice is deleted once their turn is over, so a DM holds one hand and at most one notice;
* the group gets a turn message only for a player the bot cannot reach privately; it goes as soon
  as that turn is over;
* a round's result is shown in the table message until the next round ends; the match's result is
  a message that stays in the group; everything temporary (notices, group turn messages, "cannot
  reach" notes) is deleted when the match ends, so the table and the result are what is left.
"""

from __future__ import annotations

import html
from dataclasses import replace

from bot.core.i18n import t
from bot.core.models import Outcome
from bot.core.presenter import HandPanel, TablePanel, TurnNotice, Updates, staging_lines, turn_notice
from bot.core.presenter.games import max_seats, turn_of
from bot.core.presenter.panels import TABLE_LINES, LangOf
from bot.core.render import render_lobby
from bot.core.text import excerpt
from bot.telegram import keyboards as kb
from bot.telegram.common import (
    GROUP_TURN_KEY,
    PLATFORM,
    ROUND_RESULT_KEY,
    TABLE_KEY,
    deadline_html,
    hand_key,
    mention,
    notice_key,
    pre,
)
from bot.telegram.context import TgContext
from bot.telegram.outbox import TEMP_PREFIX, shown_versions
from bot.telegram.pictures import Pictures, table_caption
from bot.telegram.web_links import WebLinks
from storage import TableRecord


def mid_turn(updates: Updates, prev_turn: int | None) -> bool:
    """An action after which the same player goes on (a draw before the discard, a meld, a draft
    step) and nothing is announced: the group's table waits for the end of the turn, so a turn costs
    the group one edit however many steps it takes. The newest state goes out with that edit."""
    panel = updates.table
    return panel is not None and prev_turn is not None and panel.playing and panel.turn == prev_turn \
        and updates.notice is None and not updates.announcements and not updates.finished and not panel.restored


class Delivery:
    """What each table shows, and the memory of it that saves edits: the lines a hand shows, a turn's
    steps held back from the group, the last round's result, the lobbies showing their options."""

    def __init__(self, ctx: TgContext, pictures: Pictures, links: WebLinks) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.outbox = ctx.outbox
        self.chats = ctx.chats
        self.uis = ctx.uis
        self.presenter = ctx.presenter
        self.pictures = pictures
        self.links = links
        self.options_open: set[str] = set()  # lobbies showing their options keyboard (lobby.py toggles it)
        self._info: dict[str, dict[str, object]] = {}
        self._hand_lines: dict[tuple[str, int], tuple[str, tuple[str, ...]]] = {}  # see _event_lines
        self._held_lines: dict[str, tuple[str, ...]] = {}  # table -> event lines of steps not shown yet
        self._round_results: dict[str, str | None] = {}  # table -> the last round's result

    # ---- what the service and the scheduler produced -------------------------------------------

    async def render_outcomes(self, outcomes: list[Outcome]) -> None:
        """What the scheduler produced: timeouts and expired lobbies."""
        for outcome in outcomes:
            if outcome.table.platform != PLATFORM:
                continue
            if outcome.table.status == "abandoned" and outcome.table.state is None:
                await self.render_closed(outcome.table, "tg.lobby_expired")
            else:
                await self.render_outcome(outcome)

    async def render_outcome(self, outcome: Outcome, prev_turn: int | None = None, restored: bool = False) -> None:
        rec = outcome.table
        if rec.state is None:
            await self.render_record(rec)
            return
        updates = await self.presenter.outcome(outcome, self._lang_of(rec), prev_turn, restored)
        await self.deliver(updates, hold_table=mid_turn(updates, prev_turn))

    async def behind(self, rec: TableRecord) -> set[str]:
        """The slots of a table in play whose message is behind the table (or was never sent): the
        table message and each human's hand. A restart shows again only these (`render_restored`)."""
        refs = await self.store.table_refs(rec.id)
        shown = shown_versions(refs)
        slots = [TABLE_KEY, *(hand_key(s.user_id) for s in rec.seats if s.kind == "human" and s.user_id)]
        return {key for key in slots if not isinstance(refs.get(key), int) or shown.get(key, -1) < rec.version}

    async def render_restored(self, outcome: Outcome, slots: set[str]) -> None:
        """A resumed table after a start: only the `slots` behind it ("game restored" on the table
        message when it is one of them); the hands of the others are not even built."""
        rec = outcome.table
        seats = {seat for seat, s in enumerate(rec.seats) if s.user_id and hand_key(s.user_id) in slots}
        updates = await self.presenter.outcome(outcome, self._lang_of(rec), None, True, seats=seats)
        notice = turn_notice(rec, turn_of(rec)) if TABLE_KEY in slots else None
        if notice is not None and await self.outbox.ref(rec.id, notice_key(notice.user_id)) is None \
                and await self.outbox.ref(rec.id, GROUP_TURN_KEY) is None:
            # The table moved on unseen (a process died before showing it): whoever's turn it is now
            # was never told. A turn already told (its notice still there) is not told again.
            updates = replace(updates, notice=notice)
        await self.deliver(updates, show_table=TABLE_KEY in slots)

    async def render_record(self, rec: TableRecord, restored: bool = False) -> None:
        """A change outside play (away, back, a language) or a restart: the table and every hand again."""
        if rec.status == "lobby":
            await self.render_lobby(rec)
            return
        await self.deliver(await self.presenter.record(rec, self._lang_of(rec), restored))

    async def render_change(self, rec: TableRecord, before: tuple[int, int | None]) -> None:
        """A change outside an outcome (away, back, a blocked player): when the AI played a seat in it
        (`before`: log length and turn), whoever's turn it is now is notified."""
        updates = await self.presenter.record(rec, self._lang_of(rec))
        turn = turn_of(rec)
        if (rec.log_seq, turn) != before:
            updates = replace(updates, notice=turn_notice(rec, turn))
        await self.deliver(updates)

    async def deliver(self, updates: Updates, hold_table: bool = False, show_table: bool = True) -> None:
        """`hold_table`: a step inside a turn; the group sees the table once the turn is over.
        `show_table` False: the table message shows this version already (a restart's render)."""
        if updates.table is None:
            return
        rec, panel = updates.table.table, updates.table
        if updates.announcements or updates.finished:
            # While the match goes on a round's result is part of the table message (its edit carries
            # it: no group message of its own), until the next round ends; at match end the result is
            # the one message that stays beside the table, and the table drops it.
            await self._set_round_result(rec.id, None if updates.finished else "\n\n".join(updates.announcements))
        held = self._held_lines.pop(rec.id, ())
        if hold_table:  # its event lines wait with it, so the group still reads every step of the turn
            self._held_lines[rec.id] = (held + panel.lines)[-TABLE_LINES:]
        elif show_table:
            await self._put_table(replace(panel, lines=(held + panel.lines)[-TABLE_LINES:]))
        for hand in updates.hands:
            if not hand.controls.my_turn and hand.ui != hand.ui.after_move():
                await self.uis.moved(rec.id, hand.seat)  # the turn went (a timeout, the AI): picks mean nothing now
            await self.show_hand(hand)
        said = "\n\n".join(updates.announcements)
        if updates.finished and said:
            self.outbox.post(int(rec.chat_id), html.escape(said), thread_id=await self.thread(rec))
        await self._notices(rec, updates.table.turn, updates.notice)
        if updates.finished:
            await self.clear_temporary(rec)

    # ---- the table message ---------------------------------------------------------------------

    async def render_lobby(self, rec: TableRecord) -> None:
        lang = await self.chats.chat_lang(rec.chat_id)
        if rec.status != "lobby":
            await self.render_closed(rec, "lobby.abandoned")
            return
        lines = [render_lobby(rec, lang, max_seats(rec.game))]
        if not any(s.platform == rec.host_platform and s.user_id == rec.host_user_id for s in rec.seats):
            lines.append(t("tg.host_not_seated", lang))
        lines.append(t("tg.lobby_hint", lang))
        markup = kb.options_keyboard(rec, lang) if rec.id in self.options_open else kb.lobby_keyboard(rec, lang)
        self.outbox.put(int(rec.chat_id), rec.id, TABLE_KEY, pre("\n".join(lines)), markup, await self.thread(rec),
                        rec.version)

    async def render_closed(self, rec: TableRecord, key: str) -> None:
        """The table ended outside play (/end, an expired lobby): its last state and why, for good."""
        lang = await self.chats.chat_lang(rec.chat_id)
        await self._put_table(self.presenter.table(rec, lang, note=t(key, lang)))
        for seat, s in enumerate(rec.seats):
            if s.kind == "human" and s.user_id and await self.outbox.ref(rec.id, hand_key(s.user_id)):
                own = await self.chats.player_lang(s.user_id, rec.chat_id)
                hand = await self.presenter.hand(rec, seat, own, note=t(key, own))
                if hand is not None:
                    await self.show_hand(hand)
        await self.clear_temporary(rec)

    async def _round_result(self, table_id: str) -> str | None:
        """The last round's result shown in the table message (stored: a restart shows it too)."""
        if table_id not in self._round_results:
            value = (await self.store.table_refs(table_id)).get(ROUND_RESULT_KEY)
            self._round_results[table_id] = value if isinstance(value, str) else None
        return self._round_results[table_id]

    async def _set_round_result(self, table_id: str, text: str | None) -> None:
        if await self._round_result(table_id) != text:
            self._round_results[table_id] = text
            await self.store.set_table_ref(table_id, ROUND_RESULT_KEY, text)

    async def _put_table(self, panel: TablePanel) -> None:
        rec, lang = panel.table, panel.lang
        if rec.status == "lobby":
            await self.render_lobby(rec)
            return
        markup = kb.table_keyboard(rec, self.ctx.bot_username, lang, self.links.app_link(rec)) if panel.playing else None
        last_round = await self._round_result(rec.id) if rec.status == "playing" else None
        photo = await self.pictures.picture(rec, panel.view, None, lang) if await self.pictures.shows_pictures(rec.chat_id) else None
        if photo is not None:
            caption = table_caption(panel, last_round)
            self.outbox.put(int(rec.chat_id), rec.id, TABLE_KEY, caption, markup, await self.thread(rec),
                            rec.version, photo)
            return
        if rec.state is None:
            text = html.escape(panel.note or panel.body)
        else:
            text = pre(panel.body + (f"\n\n{panel.note}" if panel.note else ""))
        if last_round:
            text += "\n" + html.escape(last_round)
        if panel.lines:
            text += "\n" + html.escape("\n".join(panel.lines))
        if panel.deadline is not None:
            text += "\n" + deadline_html(panel.deadline, lang)
        if panel.restored:
            text = html.escape(t("lobby.restored", lang)) + "\n" + text
        self.outbox.put(int(rec.chat_id), rec.id, TABLE_KEY, text, markup, await self.thread(rec), rec.version)

    # ---- hands ---------------------------------------------------------------------------------

    async def put_hand(self, rec: TableRecord, seat: int, fresh: bool = False) -> None:
        """The seat's hand from the stored table (a press that changed only the screen, a stale one)."""
        s = rec.seats[seat]
        if s.user_id is None:
            return
        hand = await self.presenter.hand(rec, seat, await self.chats.player_lang(s.user_id, rec.chat_id))
        if hand is not None:
            await self.show_hand(hand, fresh)

    async def show_hand(self, hand: HandPanel, fresh: bool = False) -> None:
        if not await self.chats.dm_ok(hand.user_id):
            return  # blocked us (see _unreachable): nothing goes out until they write again
        rec, lang = hand.table, hand.lang
        header = t("tg.hand_header", lang, game=hand.title, chat=excerpt(await self._chat_title(rec.id), 64))
        photo = await self.pictures.picture(rec, hand.view, hand.seat, lang, hand.ui.by_number) \
            if await self.pictures.shows_pictures(hand.user_id) else None
        # With a picture the caption is the header and the lines: the rack itself is in the picture.
        text = f"<b>{html.escape(header)}</b>" + ("" if photo is not None else "\n" + pre(hand.body))
        if hand.picked:
            text += "\n" + html.escape(t("tg.selected", lang, items=" ".join(hand.picked)))
        if staged := staging_lines(hand.controls.staging, lang):
            text += "\n" + html.escape("\n".join(staged))
        note = "\n" + html.escape(hand.note) if hand.note else ""
        markup = kb.hand_keyboard(rec, hand.seat, hand.controls, lang, self.links.hand_web_url(rec, lang))
        text += self._event_lines(rec.id, hand.seat, text + note + kb.markup_key(markup), hand.events) + note
        if fresh:
            # Asked for again: a new message at the bottom of the DM replaces the old one.
            await self.outbox.forget(rec.id, hand_key(hand.user_id))
        self.outbox.put(int(hand.user_id), rec.id, hand_key(hand.user_id), text, markup, version=rec.version,
                        photo=photo)

    def _event_lines(self, table_id: str, seat: int, base: str, events: tuple[str, ...]) -> str:
        """The hand's private event lines ("You got: b13."). An outcome carries only its own, so a
        hand that nothing else changed keeps the lines it shows: dropping them alone would cost an
        edit of every other player's hand on every turn. They go with the hand's next real change."""
        shown_base, shown = self._hand_lines.get((table_id, seat), ("", ()))
        if not events and base == shown_base:
            events = shown
        self._hand_lines[(table_id, seat)] = (base, events)
        return "\n" + html.escape("\n".join(events)) if events else ""

    # ---- turn notices and temporary messages ----------------------------------------------------

    async def _notices(self, rec: TableRecord, turn: int | None, notice: TurnNotice | None) -> None:
        """Retract every notice whose turn is over, then send the new one (privately when possible)."""
        for seat, s in enumerate(rec.seats):
            if s.kind == "human" and s.user_id is not None and seat != turn:
                await self.outbox.retract(int(s.user_id), rec.id, notice_key(s.user_id), rec.version)
        on_turn = rec.seats[turn] if turn is not None else None
        still_theirs = notice is None and on_turn is not None and on_turn.kind == "human" and not on_turn.away \
            and not await self.chats.dm_ok(on_turn.user_id or "")
        if not still_theirs:  # the group's turn message is over (or a new notice replaces it below)
            await self.outbox.retract(int(rec.chat_id), rec.id, GROUP_TURN_KEY, rec.version)
        if notice is None:
            return
        if await self.chats.dm_ok(notice.user_id):
            lang = await self.chats.player_lang(notice.user_id, rec.chat_id)
            text = t("tg.notice", lang, game=t(f"game.{rec.game}", lang), chat=excerpt(await self._chat_title(rec.id), 64))
            text = html.escape(text)
            if notice.deadline is not None:
                text += " · " + deadline_html(notice.deadline, lang)
            self.outbox.notify(int(notice.user_id), rec.id, notice_key(notice.user_id), text, version=rec.version)
            return
        # Not reachable in private (never opened the DM, or blocked it): a mention in the group.
        lang = await self.chats.chat_lang(rec.chat_id)
        link = html.escape(kb.deep_link(self.ctx.bot_username, f"h{rec.id}"))
        self.outbox.notify(int(rec.chat_id), rec.id, GROUP_TURN_KEY,
                           t("tg.turn_for", lang, name=mention(notice.user_id, notice.name), link=link),
                           thread_id=await self.thread(rec), version=rec.version)

    async def clear_temporary(self, rec: TableRecord) -> None:
        """The match is over: delete its notices and temporary group messages, keeping the table
        message, the results and the hands."""
        for key in await self.outbox.refs(rec.id):
            if key.startswith("notice:"):
                await self.outbox.retract(int(key.removeprefix("notice:")), rec.id, key)
            elif key == GROUP_TURN_KEY or key.startswith(TEMP_PREFIX):
                await self.outbox.retract(int(rec.chat_id), rec.id, key)
        for s in rec.seats:  # notices still queued have no ref yet
            if s.user_id is not None:
                await self.outbox.retract(int(s.user_id), rec.id, notice_key(s.user_id))
        self._forget_table(rec)

    def _forget_table(self, rec: TableRecord) -> None:
        """Nothing of an ended table stays in memory: the outbox drops its part once its last
        messages are out; what a later press on an old message needs is read from the store again."""
        self._info.pop(rec.id, None)
        self._held_lines.pop(rec.id, None)
        self._round_results.pop(rec.id, None)
        self.options_open.discard(rec.id)
        for seat in range(len(rec.seats)):
            self._hand_lines.pop((rec.id, seat), None)
        self.uis.forget(rec.id)
        humans = [int(s.user_id) for s in rec.seats if s.kind == "human" and s.user_id is not None]
        self.outbox.end_table(rec.id, [int(rec.chat_id), *humans])

    def tables_kept(self) -> dict[str, int]:
        """The sizes of what is kept per table (the soak bench and tests watch them level off)."""
        return {"outbox": self.outbox.tables_kept(), "info": len(self._info), "held": len(self._held_lines),
                "round_results": len(self._round_results), "hand_lines": len(self._hand_lines),
                "hand_uis": self.uis.tables_kept()}

    # ---- per-table facts -----------------------------------------------------------------------

    def _lang_of(self, rec: TableRecord) -> LangOf:
        async def lang_of(seat: int | None) -> str:
            if seat is None:
                return await self.chats.chat_lang(rec.chat_id)
            user_id = rec.seats[seat].user_id
            return await self.chats.player_lang(user_id, rec.chat_id) if user_id else await self.chats.chat_lang(rec.chat_id)
        return lang_of

    async def table_info(self, table_id: str) -> dict[str, object]:
        """The group's title and forum thread of a table: written once at /new, so cached."""
        if table_id not in self._info:
            refs = await self.store.table_refs(table_id)
            self._info[table_id] = {"chat_title": refs.get("chat_title", ""), "thread": refs.get("thread")}
        return self._info[table_id]

    async def _chat_title(self, table_id: str) -> str:
        title = (await self.table_info(table_id))["chat_title"]
        return title if isinstance(title, str) else ""

    async def thread(self, rec: TableRecord) -> int | None:
        value = (await self.table_info(rec.id))["thread"]
        return int(value) if isinstance(value, int | str) else None


__all__ = ["Delivery"]
