"""From the presenter's updates to Discord: the table message, the match's result, the turn ping, hands by
DM (`/rummy dm on`) and the seat of a player the bot cannot reach. Hands otherwise go only as answers
to their owner's interactions (ephemeral), since nothing else can reach an ephemeral message."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, TypedDict

import discord

from bot.core.i18n import t
from bot.core.models import Outcome, Player
from bot.core.presenter import HandPanel, Updates
from bot.core.presenter.games import turn_of, view_of
from bot.core.presenter.panels import LangOf
from bot.core.text import display_name
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.common import PLATFORM
from bot.discord.context import DcContext
from bot.discord.delivery import SHOWN_PREFIX
from bot.discord.hand_pictures import HandPictures
from bot.discord.interactions import Interactions
from bot.discord.looks import Looks
from bot.discord.safe import plain
from storage import TableRecord

log = logging.getLogger(__name__)

CANNOT_DM = 50007  # Discord's "Cannot send messages to this user": DMs closed, or the bot blocked


class Attached(TypedDict, total=False):
    """A new message's picture as `send`'s keyword: `file`, or nothing."""

    file: discord.File


def mention(rec: TableRecord, seat: int) -> str:
    """A seat's name outside a code block: a mention pill for a member, the escaped name otherwise."""
    s = rec.seats[seat]
    return f"<@{int(s.user_id)}>" if s.kind == "human" and s.user_id else plain(display_name(s.name))


class Render:
    def __init__(self, ctx: DcContext, ia: Interactions, looks: Looks) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.presenter = ctx.presenter
        self.uis = ctx.uis
        self.delivery = ctx.delivery
        self.ia = ia
        self.looks = looks
        self.hand_pictures = HandPictures()  # what each hand message shows: an unchanged picture is kept

    def langs(self, rec: TableRecord, seat: int | None = None, lang: str | None = None) -> LangOf:
        """The table's language for the channel; for a hand, its player's: `lang` for `seat` (the one
        acting, from their interaction's locale), else the Discord language the player had when they
        asked for hands by DM, else the table's."""
        async def lang_of(which: int | None) -> str:
            if which is None:
                return await self.ia.table_lang(rec)
            if lang is not None and which == seat:
                return lang
            s = rec.seats[which]
            own = await self.ia.user_lang(s.user_id) if s.kind == "human" and s.user_id else None
            return own or await self.ia.table_lang(rec)
        return lang_of

    async def hand_panel(self, rec: TableRecord, seat: int, lang: str) -> HandPanel:
        panel = await self.presenter.hand(rec, seat, lang)
        assert panel is not None, "a seated human's hand"
        return panel

    async def hand_parts(self, panel: HandPanel) -> tuple[discord.Embed, discord.ui.View, bytes | None]:
        """The hand's embed and controls (with the web table on, the seat's private link), and its
        picture (drawn from the seat's own view) when the table's channel shows pictures."""
        data = await self.looks.picture(panel.table, panel.view, panel.seat, panel.lang, panel.ui.by_number)
        web = self.looks.web_link(panel.table, panel.seat, panel.lang) if panel.table.status == "playing" else None
        embed, view = ui.hand_message(panel, data is not None, web)
        return embed, view, data

    @staticmethod
    def attached(data: bytes | None) -> Attached:
        """A new message's `file=`, when there is a picture."""
        return {"file": ui.png(ui.HAND_PNG, data)} if data is not None else {}

    async def show_hand_here(self, interaction: discord.Interaction, rec: TableRecord, seat: int, lang: str,
                             content: str | None = None) -> None:
        """The hand, edited in place on the message whose component was pressed."""
        embed, view, data = await self.hand_parts(await self.hand_panel(rec, seat, lang))
        await self.edit_hand_here(interaction, data, content=content, embed=embed, view=view)

    async def edit_hand_here(self, interaction: discord.Interaction, data: bytes | None, **kwargs: Any) -> None:
        """Edit the pressed hand message; its picture is uploaded only when it is not the one shown."""
        mid = interaction.message.id if interaction.message is not None else None
        await answer.edit_here(interaction, **kwargs, **self.hand_pictures.edit_kwargs(mid, data))
        self.hand_pictures.shown(mid, data)

    # ---- the table message -----------------------------------------------------------------------------

    async def render_lobby(self, rec: TableRecord, interaction: discord.Interaction | None = None) -> None:
        lang = await self.ia.table_lang(rec)
        await self.delivery.table(rec, ui.lobby_embed(rec, lang), ui.lobby_view(rec, lang), interaction)

    async def render_closed(self, rec: TableRecord, key: str, interaction: discord.Interaction | None = None) -> None:
        lang = await self.ia.table_lang(rec)
        panel = self.presenter.table(rec, lang)  # the last table (if a game was dealt), then why it closed
        body = "\n\n".join(x for x in (panel.body, t(key, lang)) if x)
        await self.delivery.table(rec, ui.embed(panel.title, body), None, interaction, files=())
        await self.delivery.finished(rec)
        self.forget_table(rec.id)

    async def render_record(self, rec: TableRecord, prev_turn: int | None = None) -> None:
        """A change outside a move (away, back): the table again, and a ping if the turn moved."""
        if rec.status == "lobby":
            await self.render_lobby(rec)
            return
        await self.render_outcome(Outcome(rec, public_view=view_of(rec, None)), prev_turn=prev_turn)

    async def render_outcomes(self, outcomes: list[Outcome]) -> None:
        """What the scheduler produced: timeouts and expired lobbies."""
        for outcome in outcomes:
            if outcome.table.platform != PLATFORM:
                continue
            try:
                if outcome.table.status == "abandoned" and outcome.table.state is None:
                    await self.render_closed(outcome.table, "dc.lobby_expired")
                else:
                    await self.render_outcome(outcome, prev_turn=None)
            except discord.HTTPException:
                log.exception("rendering table %s failed", outcome.table.id)

    async def render_outcome(self, outcome: Outcome, prev_turn: int | None = None, restored: bool = False,
                             interaction: discord.Interaction | None = None) -> None:
        rec = outcome.table
        if rec.status == "lobby":
            await self.render_lobby(rec, interaction)
            return
        self.delivery.seen(rec)
        dm = await self.dm_seats(rec)
        await self.deliver(await self.presenter.outcome(outcome, self.langs(rec), prev_turn, restored, seats=dm),
                           dm, interaction)

    async def behind(self, rec: TableRecord) -> set[str]:
        """The messages of a table in play behind it (or never sent): the table message and the DM
        hands (`/rummy dm on`). A restart shows again only these (`render_restored`)."""
        refs = await self.delivery.refs(rec.id)
        keys = ["message", *(f"dm:{rec.seats[seat].user_id}" for seat in sorted(await self.dm_seats(rec)))]
        return {key for key in keys if not refs.get(key) or refs.get(SHOWN_PREFIX + key, -1) < rec.version}

    async def render_restored(self, outcome: Outcome, behind: set[str]) -> None:
        """A resumed table after a start: only the messages `behind` it ("game restored" on the table
        message when it is one of them)."""
        rec = outcome.table
        self.delivery.seen(rec)
        dm = {seat for seat in await self.dm_seats(rec) if f"dm:{rec.seats[seat].user_id}" in behind}
        await self.deliver(await self.presenter.outcome(outcome, self.langs(rec), None, True, seats=dm), dm,
                           show_table="message" in behind)

    async def dm_seats(self, rec: TableRecord) -> set[int]:
        """The seats whose hands live in a DM (`/rummy dm on`): the only hands an outcome edits; the
        others are shown when their owner asks (an ephemeral message cannot be reached later)."""
        return {seat for seat, s in enumerate(rec.seats)
                if s.kind == "human" and s.user_id and await self.ia.dm_on(s.user_id)}

    async def deliver(self, updates: Updates, dm: set[int], interaction: discord.Interaction | None = None,
                      show_table: bool = True) -> None:
        """The table (one edit at most, holding the last round's result) and, alongside it, the DM
        hands, and the ping or, at match end, the result and the clean-up."""
        panel = updates.table
        if panel is None:
            return
        rec = panel.table
        turn = mention(rec, panel.turn) if panel.turn is not None and panel.playing else None
        view = ui.table_view(rec, panel.lang, self.looks.web_link(rec, None, panel.lang)) if panel.playing else None
        if not panel.playing:
            self.looks.forget_links(rec.id)
        said = "\n\n".join(plain(line) for line in updates.announcements) or None
        # While the match goes on a round's result is shown in the table message; at its end the
        # result is a message of its own (the last ping edited into it), and the table drops it.
        last_round = None if updates.finished else await self.delivery.round_result(rec, said)

        async def the_rest() -> None:
            for hand in updates.hands:
                if hand.seat in dm:
                    await self._dm_hand(hand)
            if updates.finished:
                await self.delivery.match_end(rec, said)
            elif updates.notice is not None:
                await self.delivery.notice(updates.notice, panel.lang)

        if not show_table:  # a restart's render: the table message shows this version already
            await the_rest()
            return
        picture = await self.looks.picture(rec, panel.view, None, panel.lang)
        embed = ui.table_embed(panel, turn, last_round, picture is not None)
        files = ((ui.TABLE_PNG, picture),) if picture is not None else ()
        # Independent requests (another message, another route): neither waits for the other.
        await asyncio.gather(self.delivery.table(rec, embed, view, interaction, files), the_rest())
        if updates.finished:
            self.forget_table(rec.id)

    def forget_table(self, table_id: str) -> None:
        """An ended table's state leaves memory once its last messages are out."""
        self.delivery.forget(table_id)
        self.uis.forget(table_id)
        self.looks.forget_links(table_id)

    # ---- hands by DM, and players the bot cannot reach ----------------------------------------------------

    async def _dm_hand(self, panel: HandPanel) -> None:
        """With `/rummy dm on`, the hand lives in one DM message, edited after each move."""
        assert self.ctx.client is not None
        rec = panel.table
        embed, view, data = await self.hand_parts(panel)
        key = f"dm:{panel.user_id}"
        refs = await self.delivery.refs(rec.id)
        try:
            if refs.get(key):
                channel_id, mid = refs[key].split(":")
                await self.ctx.client.get_partial_messageable(int(channel_id)).get_partial_message(int(mid)).edit(
                    embed=embed, view=view, **self.hand_pictures.edit_kwargs(int(mid), data))
                self.hand_pictures.shown(int(mid), data)
            else:
                channel = await self.ctx.client.create_dm(discord.Object(int(panel.user_id)))
                msg = await channel.send(embed=embed, view=view, **self.attached(data))
                self.hand_pictures.shown(msg.id, data)
                await self.delivery.set_ref(rec.id, key, f"{msg.channel.id}:{msg.id}")
            await self.delivery.shows(rec.id, key, rec.version)
        except discord.Forbidden as err:
            log.info("DM hand for %s not delivered (%s)", panel.user_id, err.code)
            if err.code == CANNOT_DM:
                await self._unreachable(rec, panel.seat)
        except discord.HTTPException:
            log.info("DM hand for %s not delivered", panel.user_id)

    async def _unreachable(self, rec: TableRecord, seat: int) -> None:
        """The player's DMs refuse the bot (50007): hands go back to ephemeral messages, the seat goes
        `/away` so the AI stands in (a table without a turn timer would wait forever), and the channel
        is told once (a note deleted at match end). Moving again takes the seat back."""
        s = rec.seats[seat]
        assert s.user_id is not None
        key = f"user:{s.user_id}"
        await self.store.set_chat_settings(PLATFORM, key, {**await self.store.chat_settings(PLATFORM, key), "dm": False})
        rec = await self.service.get(rec.id)  # the newest state: this may run after the move that found it out
        s = rec.seats[seat]
        if rec.status != "playing" or s.away:
            return  # already stood in for (and already announced)
        before = turn_of(rec)
        rec = await self.service.set_away(rec.id, Player(PLATFORM, s.user_id or "", s.name), True)
        await self.delivery.temporary(rec, t("dc.dm_blocked", await self.ia.table_lang(rec), name=mention(rec, seat)),
                                      ping=s.user_id)
        await self.render_record(rec, prev_turn=before)
