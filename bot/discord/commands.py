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
from bot.core.presenter import HandUI, hand_controls, press
from bot.core.presenter.games import games as game_names
from bot.core.presenter.games import moves_of, turn_of, view_of
from bot.core.render import render_help
from bot.core.stats import StatsError
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.base import PLATFORM, interaction_key, player_of
from bot.discord.hints import hint_line
from bot.discord.limits import CONTENT_MAX, fit_content
from bot.discord.lobby import Lobby
from bot.discord.safe import NOBODY
from bot.discord.translator import lang_of, ls
from storage import TableRecord

if TYPE_CHECKING:
    from bot.core.models import Player

log = logging.getLogger(__name__)


class Commands(Lobby):
    if TYPE_CHECKING:  # defined by Components, the next class of the chain: a typed move goes as a pressed one
        async def _act(self, interaction: discord.Interaction, rec: TableRecord, me: Player, seat: int,
                       command: str, version: int | None, *, update: bool) -> None: ...

    # ---- slash commands -------------------------------------------------------------------------

    def _group(self) -> app_commands.Group:
        # guild_only: tables live in a server's channels; a DM or a user-installed context gets no /rummy.
        group = app_commands.Group(name=ls("rummy", "dc.cmd.rummy.name"), guild_only=True,
                                   description=ls("Rummy Club: rummy games for this channel", "dc.cmd.rummy.desc"))
        games = [app_commands.Choice(name=ls(t(f"game.{g}"), f"game.{g}"), value=g) for g in game_names()]

        @group.command(name=ls("new", "dc.cmd.new.name"), description=ls("Open a table here", "dc.cmd.new.desc"))
        @app_commands.rename(game=ls("game", "dc.opt.game.name"), thread=ls("thread", "dc.opt.thread.name"),
                             options=ls("options", "dc.opt.options.name"))
        @app_commands.describe(game=ls("Which game", "dc.opt.game.desc"),
                               thread=ls("Play in a new thread", "dc.opt.thread.desc"),
                               options=ls("Table options, e.g. turn_timer_s=120 match_games=3", "dc.opt.options.desc"))
        @app_commands.choices(game=games)
        async def new(interaction: discord.Interaction, game: str, thread: bool = False, options: str = "") -> None:
            await self.cmd_new(interaction, game, thread, options)

        def simple(name: str, desc: str) -> Any:
            return group.command(name=ls(name, f"dc.cmd.{name}.name"), description=ls(desc, f"dc.cmd.{name}.desc"))

        @simple("join", "Take a seat at the table")
        async def join(interaction: discord.Interaction) -> None:
            await self.cmd_lobby(interaction, "join")

        @simple("leave", "Leave the table before it starts")
        async def leave(interaction: discord.Interaction) -> None:
            await self.cmd_lobby(interaction, "leave")

        @simple("start", "Start the game (host)")
        async def start(interaction: discord.Interaction) -> None:
            await self.cmd_lobby(interaction, "start")

        @simple("hand", "Show my hand (only you see it)")
        async def hand(interaction: discord.Interaction) -> None:
            await self.cmd_hand(interaction)

        @simple("hint", "The best move for your hand (when the table's hints are on)")
        async def hint(interaction: discord.Interaction) -> None:
            await self.cmd_hint(interaction)

        @group.command(name=ls("play", "dc.cmd.play.name"), description=ls("Make a move", "dc.cmd.play.desc"))
        @app_commands.rename(text=ls("text", "dc.opt.text.name"))
        @app_commands.describe(text=ls("The move, e.g. draw or discard r5", "dc.opt.text.desc"))
        async def play(interaction: discord.Interaction, text: str) -> None:
            await self.cmd_play(interaction, text)

        @play.autocomplete("text")
        async def play_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            try:
                return await self.complete_play(interaction, current)
            except Exception:  # a suggestion must never break the command: offer none
                log.exception("autocomplete failed")
                return []

        @simple("end", "End the table (host or Manage Server)")
        async def end(interaction: discord.Interaction) -> None:
            await self.cmd_end(interaction)

        @simple("away", "Let the AI play your seat")
        async def away(interaction: discord.Interaction) -> None:
            await self.cmd_away(interaction, True)

        @simple("back", "Take your seat back")
        async def back(interaction: discord.Interaction) -> None:
            await self.cmd_away(interaction, False)

        @simple("help", "How to play")
        async def help_(interaction: discord.Interaction) -> None:
            await self.cmd_help(interaction, None)

        @group.command(name=ls("rules", "dc.cmd.rules.name"), description=ls("A game's player's guide", "dc.cmd.rules.desc"))
        @app_commands.rename(game=ls("game", "dc.opt.game.name"))
        @app_commands.describe(game=ls("Which game", "dc.opt.game.desc"))
        @app_commands.choices(game=games)
        async def rules_(interaction: discord.Interaction, game: str | None = None) -> None:
            await self.cmd_rules(interaction, game)

        @group.command(name=ls("dm", "dc.cmd.dm.name"), description=ls("Get your hand by DM", "dc.cmd.dm.desc"))
        @app_commands.rename(mode=ls("mode", "dc.opt.mode.name"))
        @app_commands.describe(mode=ls("on or off", "dc.opt.mode.desc"))
        @app_commands.choices(mode=[app_commands.Choice(name=ls("on", "dc.on"), value="on"),
                                    app_commands.Choice(name=ls("off", "dc.off"), value="off")])
        async def dm(interaction: discord.Interaction, mode: str) -> None:
            await self.cmd_dm(interaction, mode == "on")

        @group.command(name=ls("look", "dc.cmd.look.name"),
                       description=ls("Tables and hands here as pictures or as text", "dc.cmd.look.desc"))
        @app_commands.rename(mode=ls("as", "dc.opt.look.name"))
        @app_commands.describe(mode=ls("pictures or text", "dc.opt.look.desc"))
        @app_commands.choices(mode=[app_commands.Choice(name=ls("pictures", "dc.look.pictures"), value="pictures"),
                                    app_commands.Choice(name=ls("text", "dc.look.text"), value="text")])
        async def look(interaction: discord.Interaction, mode: str) -> None:
            await self.cmd_look(interaction, mode == "pictures")

        self._stats_commands(group)
        return group

    def _stats_commands(self, group: app_commands.Group) -> None:
        """Issue 9's commands: the standings answer publicly in the channel; bad input privately."""

        def words(name: str, desc: str, arg: str, arg_desc: str) -> Any:
            def wrap(func: Any) -> Any:
                func = app_commands.describe(**{arg: ls(arg_desc, f"dc.opt.{name}_{arg}.desc")})(func)
                func = app_commands.rename(**{arg: ls(arg, f"dc.opt.{name}_{arg}.name")})(func)
                return group.command(name=ls(name, f"dc.cmd.{name}.name"),
                                     description=ls(desc, f"dc.cmd.{name}.desc"))(func)
            return wrap

        @words("leaderboard", "The chat's standings", "args", "[game] [all|month|week] [global]")
        async def leaderboard(interaction: discord.Interaction, args: str = "") -> None:
            await self.cmd_stats(interaction, "leaderboard", args)

        @words("stats", "A player's record per game", "player", "Whose (default: you)")
        async def stats(interaction: discord.Interaction, player: str = "") -> None:
            await self.cmd_stats(interaction, "stats", player)

        @words("teams", "Team records", "game", "Which game (default: the latest)")
        async def teams(interaction: discord.Interaction, game: str = "") -> None:
            await self.cmd_stats(interaction, "teams", game)

        @words("team", "Name your team: name <name>", "text", "name <name>")
        async def team(interaction: discord.Interaction, text: str) -> None:
            await self.cmd_stats(interaction, "team", text)

        @words("history", "Recent matches here", "count", "How many (default 10)")
        async def history(interaction: discord.Interaction, count: str = "") -> None:
            await self.cmd_stats(interaction, "history", count)

        @group.command(name=ls("rematch", "dc.cmd.rematch.name"),
                       description=ls("Same seats and options, new deal", "dc.cmd.rematch.desc"))
        async def rematch(interaction: discord.Interaction) -> None:
            await self.cmd_rematch(interaction)

    async def cmd_stats(self, interaction: discord.Interaction, command: str, text: str) -> None:
        async def work() -> None:
            lang = self._ulang(interaction)
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
                    if self.web is not None:
                        links = [ui.link(standings.replay_label(r, lang), self.web.replay_url(r.table_id, lang))
                                 for r in results if r.status == "finished"]
                        extra = {"view": ui.new_view(links)} if links else {}
            except StatsError as err:
                # The defer was public (standings are for the channel): bad input replaces it privately.
                await interaction.delete_original_response()
                await interaction.followup.send(fit_content(err.render(lang)), ephemeral=True, allowed_mentions=NOBODY)
                return
            await interaction.followup.send(ui.code_block(reply, 1900), allowed_mentions=NOBODY, **extra)
        await self._guarded(interaction, work(), public=True)

    async def cmd_hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            await self._show_hand(interaction, rec)
        await self._guarded(interaction, work(), direct=True)  # the answer is the hand: one call

    async def _show_hand(self, interaction: discord.Interaction, rec: TableRecord) -> None:
        lang = self._ulang(interaction)
        seat = self.service.playing_seat(rec, player_of(interaction.user))
        embed, view, data = await self.hand_parts(await self.hand_panel(rec, seat, lang))
        if await self._dm_on(str(interaction.user.id)):
            try:
                await interaction.user.send(embed=embed, view=view, **self.attached(data))
            except discord.Forbidden:
                await answer.say(interaction, t("dc.dm_closed", lang), embed=embed, view=view, **self.attached(data))
                return
            await answer.say(interaction, t("dc.dm_sent", lang))
            return
        await answer.say(interaction, embed=embed, view=view, **self.attached(data))

    async def cmd_hint(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            await answer.say(interaction, await hint_line(self.service, rec.id, player_of(interaction.user),
                                                          self._ulang(interaction)))
        await self._guarded(interaction, work(), direct=True)  # one call: the hint or why there is none

    async def cmd_play(self, interaction: discord.Interaction, text: str) -> None:
        if (request := rules_request(text)) is not None:  # `help rules` typed as a move: the guide
            await self._guarded(interaction, self._rules(interaction, request))
            return

        async def work() -> None:
            rec = await self._need_table(interaction)
            me = player_of(interaction.user)
            seat = self.service.playing_seat(rec, me)
            await self._act(interaction, rec, me, seat, text.strip(), None, update=False)
        await self._guarded(interaction, work(), direct=True)  # the answer is the new hand: one call

    async def complete_play(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggestions from the seat's legal moves now: whole moves that need no pick (`draw`,
        `take 3`), the verbs of the others, and after a verb the seat's own hand items."""
        rec = await self._table_here(interaction)
        if rec is None or rec.status != "playing" or rec.state is None:
            return []
        seat = self.service.seat_of(rec, player_of(interaction.user))
        if seat is None:
            return []
        view = view_of(rec, seat)
        templates = moves_of(rec, view)
        controls = hand_controls(rec.game, view, seat, HandUI(), "en", True, templates, suggest=False)
        whole = [press.command(HandUI(), view, templates, a.index, "0", a.option)
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
            rec = await self._need_table(interaction)
            rec = await self.service.end_table(rec.id, player_of(interaction.user),
                                               is_admin=self._is_admin(interaction, rec), key=interaction_key(interaction))
            await answer.say(interaction, t("lobby.abandoned", self._ulang(interaction)))
            await self.render_closed(rec, "lobby.abandoned")
        await self._guarded(interaction, work())

    async def cmd_away(self, interaction: discord.Interaction, away: bool) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            before = turn_of(rec)
            rec = await self.service.set_away(rec.id, player_of(interaction.user), away, key=interaction_key(interaction))
            await answer.say(interaction, t("dc.away_on" if away else "dc.away_off", self._ulang(interaction)))
            await self.render_record(rec, prev_turn=before)  # a ping only if the AI moved the turn on
        await self._guarded(interaction, work())

    async def cmd_help(self, interaction: discord.Interaction, game: str | None) -> None:
        await self._guarded(interaction, self._help(interaction, game))

    async def _help(self, interaction: discord.Interaction, game: str | None) -> None:
        lang = self._ulang(interaction)
        text = t("dc.help", lang, games=", ".join(game_names()))
        if game is None:
            rec = await self._table_here(interaction)
            game = rec.game if rec is not None else None
        if game is not None:
            text += "\n" + ui.code_block(render_help(game, lang), 1800)
        await answer.say(interaction, text)

    async def cmd_rules(self, interaction: discord.Interaction, game: str | None) -> None:
        await self._guarded(interaction, self._rules(interaction, RulesRequest(game)))

    async def _rules(self, interaction: discord.Interaction, request: RulesRequest) -> None:
        """The player's guide (the channel's game when none is named), as ephemeral messages within 2000."""
        lang = self._ulang(interaction)
        rec = await self._table_here(interaction) if request.game is None else None
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
            rec = await self._table_here(interaction)
            await self.set_look(rec.chat_id if rec is not None else str(interaction.channel_id), pictures)
            await answer.say(interaction, t("dc.look_pictures" if pictures else "dc.look_text", self._ulang(interaction)))
            if rec is not None and rec.status == "playing":
                await self.render_record(rec)
        await self._guarded(interaction, work())

    async def cmd_dm(self, interaction: discord.Interaction, on: bool) -> None:
        await self._guarded(interaction, self._dm(interaction, on))

    async def _dm(self, interaction: discord.Interaction, on: bool) -> None:
        lang = self._ulang(interaction)
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

