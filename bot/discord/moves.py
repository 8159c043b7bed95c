"""A move played on Discord, pressed or typed with `/rummy play`: applied through the service, the
mover answered with the fresh hand (in place for a button), then the channel and the DM hands."""

from __future__ import annotations

import discord

from bot.core.models import Outcome, Player, ServiceError
from bot.core.presenter.games import IllegalAction, turn_of
from bot.discord import answer
from bot.discord.common import error_text, interaction_key
from bot.discord.context import DcContext
from bot.discord.interactions import Interactions
from bot.discord.render import Render
from bot.discord.safe import plain
from storage import TableRecord


def _inert(text: str) -> str:
    """Typed text echoed in inline code: a backtick would end it early."""
    return text.replace("`", "'")


class Moves:
    def __init__(self, ctx: DcContext, ia: Interactions, render: Render) -> None:
        self.service = ctx.service
        self.uis = ctx.uis
        self.delivery = ctx.delivery
        self.presenter = ctx.presenter
        self.ia = ia
        self.render = render

    async def act(self, interaction: discord.Interaction, rec: TableRecord, me: Player, seat: int, command: str,
                  version: int | None, *, update: bool) -> None:
        """Apply a typed move; answer the mover with the fresh hand, then the channel."""
        lang = self.ia.ulang(interaction)
        prev_turn = turn_of(rec)
        try:
            outcome = await self.service.act(rec.id, me, command, expected_version=version,
                                             key=interaction_key(interaction))
        except (IllegalAction, ServiceError) as err:
            text = error_text(err, lang, rec.game)
            if update:
                await self.render.show_hand_here(interaction, await self.service.get(rec.id), seat, lang, content=text)
            else:
                await answer.say(interaction, text)
            return
        await self.uis.moved(rec.id, seat)
        await self.shown(interaction, outcome, me, seat, command, prev_turn, update=update)

    async def shown(self, interaction: discord.Interaction, outcome: Outcome, me: Player, seat: int, command: str,
                    prev_turn: int | None, *, update: bool) -> None:
        """An applied move (typed, or a press the service decoded): the mover answered with the fresh
        hand (in place for a button), then the channel and the DM hands."""
        lang = self.ia.ulang(interaction)
        outcome = await outcome.settled()
        new = outcome.table
        self.delivery.seen(new)
        dm = await self.render.dm_seats(new)
        updates = await self.presenter.outcome(outcome, self.render.langs(new, seat, lang), prev_turn, seats=dm | {seat})
        on_dm_hand = False
        if update and interaction.message is not None and seat in dm:
            kept = (await self.delivery.refs(new.id)).get(f"dm:{me.user_id}") or ""
            if kept.endswith(f":{interaction.message.id}"):
                dm.discard(seat)  # pressed on the DM hand itself: the answer below is its edit
                on_dm_hand = True
        mine = next((h for h in updates.hands if h.seat == seat), None) or await self.render.hand_panel(new, seat, lang)
        note = "\n".join([f"✓ `{_inert(command)}`", *(plain(line) for line in mine.events)])
        embed, view, data = await self.render.hand_parts(mine)
        if update:
            await self.render.edit_hand_here(interaction, data, content=note, embed=embed, view=view)
            if on_dm_hand:
                await self.delivery.shows(new.id, f"dm:{me.user_id}", new.version)
        else:
            await answer.say(interaction, note, embed=embed, view=view, **self.render.attached(data))
        await self.render.deliver(updates, dm)
