"""`/rummy …` on Discord: the command group (guild only, names and descriptions from the catalogs)
and the commands outside the lobby: hands, moves typed with `/rummy play` (autocompleted from the
legal moves), end, away/back, help, rules, DMs, pictures or text (`look`), and the standings."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.core.grammar import hand_items
from bot.core.guides import RulesRequest, guide_chunks, guide_text, rules_reply, rules_request
from bot.core.i18n import t
from bot.core.presenter import HandUI, hand_controls
from bot.core.presenter.games import games as game_names
from bot.core.presenter.games import moves_of, turn_of, view_of
from bot.core.presses import Command, decoded
from bot.core.render import render_help
from bot.core.stats import StatsError
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.common import PLATFORM, interaction_key, is_admin, player_of
from bot.discord.context import DcContext
from bot.discord.hints import hint_line
from bot.discord.interactions import Interactions
from bot.discord.limits import CONTENT_MAX, fit_content
from bot.discord.looks import Looks
from bot.discord.moves import Moves
from bot.discord.render import Render
from bot.discord.safe import NOBODY
from bot.discord.translator import lang_of
from storage import TableRecord

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)


class Commands:
    def __init__(self, ctx: DcContext, ia: Interactions, looks: Looks, render: Render, moves: Moves) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.ia = ia
        self.looks = looks
        self.render = render
        self.moves = moves

    async def cmd_stats(self, interaction: discord.Interaction, command: str, text: str) -> None:
        async def work() -> None:
            lang = self.ia.ulang(interaction)
            chat = str(interaction.channel_id)
            me = player_of(interaction.user)
            args = text.split()
            standings = self.service.standings
            extra: dict[str, Any] = {}
            try:
                if command == "leaderboard":
                    reply = await standings.leaderboard(PLATFORM, chat, args, lang, me)
                elif command == "stats":
                    reply = await standings.stats(PLATFORM, chat, me, args, lang)
                elif command == "teams":
                    reply = await standings.teams(PLATFORM, chat, args, lang)
                elif command == "team":
                    reply = await standings.name_team(PLATFORM, chat, me, args, lang)
                else:
                    results = await standings.history_results(PLATFORM, chat, args)
                    reply = standings.history_text(results, lang)
                    # With the web table on, each finished match's replay (public view) is a link
                    # button: an address inside the code block would not be clickable.
                    if self.ctx.web is not None:
                        links = [ui.link(standings.replay_label(r, lang), self.ctx.web.replay_url(r.table_id, lang))
                                 for r in results if r.status == "finished"]
                        extra = {"view": ui.new_view(links)} if links else {}
            except StatsError as err:
                # The defer was public (standings are for the channel): bad input replaces it privately.
                await interaction.delete_original_response()
                await interaction.followup.send(fit_content(err.render(lang)), ephemeral=True, allowed_mentions=NOBODY)
                return
            await interaction.followup.send(ui.code_block(reply, 1900), allowed_mentions=NOBODY, **extra)
        await self.ia.guarded(interaction, work(), public=True)

    async def cmd_hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            await self.show_hand(interaction, rec)
        await self.ia.guarded(interaction, work(), direct=True)  # the answer is the hand: one call

    async def show_hand(self, interaction: discord.Interaction, rec: TableRecord) -> None:
        lang = self.ia.ulang(interaction)
        seat = self.service.playing_seat(rec, player_of(interaction.user))
        embed, view, data = await self.render.hand_parts(await self.render.hand_panel(rec, seat, lang))
        if await self.ia.dm_on(str(interaction.user.id)):
            try:
                await interaction.user.send(embed=embed, view=view, **self.render.attached(data))
            except discord.Forbidden:
                await answer.say(interaction, t("dc.dm_closed", lang), embed=embed, view=view, **self.render.attached(data))
                return
            await answer.say(interaction, t("dc.dm_sent", lang))
            return
        await answer.say(interaction, embed=embed, view=view, **self.render.attached(data))

    async def cmd_hint(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            await answer.say(interaction, await hint_line(self.service, rec.id, player_of(interaction.user),
                                                          self.ia.ulang(interaction)))
        await self.ia.guarded(interaction, work(), direct=True)  # one call: the hint or why there is none

    async def cmd_play(self, interaction: discord.Interaction, text: str) -> None:
        if (request := rules_request(text)) is not None:  # `help rules` typed as a move: the guide
            await self.ia.guarded(interaction, self._rules(interaction, request))
            return

        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            me = player_of(interaction.user)
            seat = self.service.playing_seat(rec, me)
            await self.moves.act(interaction, rec, me, seat, text.strip(), None, update=False)
        await self.ia.guarded(interaction, work(), direct=True)  # the answer is the new hand: one call

    async def complete_play(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggestions from the seat's legal moves now: whole moves that need no pick (`draw`,
        `take 3`), the verbs of the others, and after a verb the seat's own hand items."""
        rec = await self.ia.table_here(interaction)
        if rec is None or rec.status != "playing" or rec.state is None:
            return []
        seat = self.service.seat_of(rec, player_of(interaction.user))
        if seat is None:
            return []
        view = view_of(rec, seat)
        templates = moves_of(rec, view)
        controls = hand_controls(rec.game, view, seat, HandUI(), "en", True, templates, suggest=False)
        whole = [str(decoded(rec.game, view, templates, HandUI(), Command(a.index, "0", a.option)))
                 for a in controls.actions if not a.with_items]
        typed = current.lstrip().lower()
        found = [w for w in whole if w.startswith(typed)]
        words = current.lstrip().split(" ")
        if len(words) <= 1:
            found += [m.verb for m in templates if m.available is not False and m.verb.startswith(typed)]
        else:
            head, last = " ".join(words[:-1]), words[-1].lower()
            items = hand_items(view)
            used = [w.lower() for w in words[1:-1]]
            seen: set[str] = set()
            for item in items:
                if item.lower().startswith(last) and (used.count(item.lower()) < items.count(item)) and item not in seen:
                    seen.add(item)
                    found.append(f"{head} {item}")
        found = list(dict.fromkeys(found)) or [current]
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in found[:25]]

    async def cmd_end(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            rec = await self.service.end_table(rec.id, player_of(interaction.user),
                                               is_admin=is_admin(interaction, rec), key=interaction_key(interaction))
            await answer.say(interaction, t("lobby.abandoned", self.ia.ulang(interaction)))
            await self.render.render_closed(rec, "lobby.abandoned")
        await self.ia.guarded(interaction, work())

    async def cmd_away(self, interaction: discord.Interaction, away: bool) -> None:
        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            before = turn_of(rec)
            rec = await self.service.set_away(rec.id, player_of(interaction.user), away, key=interaction_key(interaction))
            await answer.say(interaction, t("dc.away_on" if away else "dc.away_off", self.ia.ulang(interaction)))
            await self.render.render_record(rec, prev_turn=before)  # a ping only if the AI moved the turn on
        await self.ia.guarded(interaction, work())

    async def cmd_help(self, interaction: discord.Interaction, game: str | None) -> None:
        await self.ia.guarded(interaction, self._help(interaction, game))

    async def _help(self, interaction: discord.Interaction, game: str | None) -> None:
        lang = self.ia.ulang(interaction)
        text = t("dc.help", lang, games=", ".join(game_names()))
        if game is None:
            rec = await self.ia.table_here(interaction)
            game = rec.game if rec is not None else None
        if game is not None:
            text += "\n" + ui.code_block(render_help(game, lang), 1800)
        await answer.say(interaction, text)

    async def cmd_rules(self, interaction: discord.Interaction, game: str | None) -> None:
        await self.ia.guarded(interaction, self._rules(interaction, RulesRequest(game)))

    async def _rules(self, interaction: discord.Interaction, request: RulesRequest) -> None:
        """The player's guide (the channel's game when none is named), as ephemeral messages within 2000."""
        lang = self.ia.ulang(interaction)
        rec = await self.ia.table_here(interaction) if request.game is None else None
        shown, problem = rules_reply(request, rec.game if rec is not None else None, lang)
        if shown is None:
            await answer.say(interaction, problem)
            return
        for chunk in guide_chunks(guide_text(shown, lang), CONTENT_MAX):
            await answer.say(interaction, chunk)

    async def cmd_look(self, interaction: discord.Interaction, pictures: bool) -> None:
        """The channel's look (a thread's table keeps its channel's): stored with the channel's chat
        settings, and the table in play shown the new way at once."""
        async def work() -> None:
            rec = await self.ia.table_here(interaction)
            await self.looks.set_look(rec.chat_id if rec is not None else str(interaction.channel_id), pictures)
            await answer.say(interaction, t("dc.look_pictures" if pictures else "dc.look_text", self.ia.ulang(interaction)))
            if rec is not None and rec.status == "playing":
                await self.render.render_record(rec)
        await self.ia.guarded(interaction, work())

    async def cmd_dm(self, interaction: discord.Interaction, on: bool) -> None:
        await self.ia.guarded(interaction, self._dm(interaction, on))

    async def _dm(self, interaction: discord.Interaction, on: bool) -> None:
        lang = self.ia.ulang(interaction)
        key = f"user:{interaction.user.id}"
        settings = dict(await self.store.chat_settings(PLATFORM, key))
        if on:
            try:
                await interaction.user.send(t("dc.dm_hello", lang))
            except discord.Forbidden:
                await answer.say(interaction, t("dc.dm_closed", lang))
                return
        settings["dm"] = on
        if (own := lang_of(interaction.locale)) is not None:  # what their DM hands speak
            settings["lang"] = own
        await self.store.set_chat_settings(PLATFORM, key, settings)
        await answer.say(interaction, t("dc.dm_on" if on else "dc.dm_off", lang))

