"""The Discord adapter: `/rummy …` slash commands and codec buttons in, table service calls, embeds out.

One message per table in the channel (lobby, then the game: an embed plus buttons), edited in place;
hands as ephemeral replies (or by DM on request) with a Refresh button, since interaction tokens
expire after 15 minutes and another player's move cannot reach an ephemeral message; a short new
channel message only when a turn passes to a human and at round or match end. Nothing here knows a
game rule: texts come from the renderers, buttons from the view and the engine grammar (views.py),
moves are engine text commands.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable
from dataclasses import dataclass
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.core.codec import ButtonData, CodecError, decode, indices_of
from bot.core.grammar import command as grammar_command
from bot.core.grammar import hand_items, move_command, move_template, ordered_pick
from bot.core.guides import RulesRequest, guide_chunks, guide_text, rules_reply, rules_request
from bot.core.i18n import has, t
from bot.core.models import Outcome, Player, ServiceError
from bot.core.options_text import options_from_text
from bot.core.options_ui import option_choices
from bot.core.render import render_error, render_events, render_hand, render_help, render_lobby, render_table
from bot.core.scheduler import Scheduler
from bot.core.service import TableService
from bot.core.stats import StatsError
from bot.core.text import display_name
from bot.discord import views as ui
from bot.discord.limits import fit_content
from bot.discord.safe import NOBODY, only, plain
from bot.discord.sync import sync_if_changed
from bot.discord.translator import CatalogTranslator, lang_of, ls
from rules import IllegalAction, engine_names, get_engine
from storage import Store, TableRecord

log = logging.getLogger(__name__)

PLATFORM = "discord"
T = TypeVar("T")
_ANNOUNCED = {"RoundScored", "MatchEnded", "TieBreakNeeded", "RoundEnded", "MatchOver"}
MESSAGE_MAX = 2000  # Discord's limit on a message's content
CANNOT_DM = 50007  # Discord's "Cannot send messages to this user": DMs closed, or the bot blocked
_LOBBY_VERBS = ("join", "leave", "addai", "rmai", "start", "cancel")
_SEAT_VERBS = ("hand", "sort", "pick", "cmd", "mvt", "mv", "back")  # their first argument is the seat


@dataclass
class DiscordConfig:
    default_lang: str = "en"
    tick_interval_s: float = 1.0
    run_scheduler: bool = True
    ack_after_s: float = 2.0  # Discord wants an answer within 3 s: defer when the work is not done by then
    sync_commands: bool = True
    sharded: bool = False
    guild_ready_timeout: float = 2.0


def player_of(user: discord.abc.User) -> Player:
    # Display names are free text (control and bidi characters): stored clean and short.
    return Player(PLATFORM, str(user.id), display_name(user.display_name or user.name or "", str(user.id)))


def _key(interaction: discord.Interaction) -> str:
    """The idempotency key of a command or press: its interaction id, unique and never reused."""
    return f"{PLATFORM}:i:{interaction.id}"


def _mention(user_id: str | None, name: str) -> str:
    return f"<@{int(user_id)}>" if user_id else plain(display_name(name))


class DiscordBot:
    """The adapter: owns the command tree of one client and renders outcomes into Discord."""

    def __init__(self, service: TableService, store: Store, config: DiscordConfig | None = None) -> None:
        self.service = service
        self.store = store
        self.config = config or DiscordConfig()
        self.scheduler = Scheduler(service, self.config.tick_interval_s, self.render_outcomes)
        self.client: discord.Client | None = None
        self.tree: app_commands.CommandTree[Any] | None = None
        self._selection: dict[tuple[str, int], list[int]] = {}
        self._by_number: dict[tuple[str, int], bool] = {}
        self._moving: dict[tuple[str, int], int] = {}  # (table, seat) -> table item (move option) picked to move
        self._refs: dict[str, dict[str, Any]] = {}
        self.errors: deque[BaseException] = deque(maxlen=100)  # recent handler failures, for tests and logs
        self.processed: deque[int] = deque(maxlen=4096)  # recent interactions fully handled (replies and edits sent)
        self._processed_cond = asyncio.Condition()

    # ---- wiring ---------------------------------------------------------------------------------

    def attach(self, client: discord.Client) -> None:
        self.client = client
        client.rummy = self  # type: ignore[attr-defined]  # dynamic items find the adapter through the client
        self.tree = app_commands.CommandTree(client)
        self.tree.add_command(self._group())
        self.tree.on_error = self._on_tree_error  # type: ignore[method-assign]
        client.add_dynamic_items(ui.CodecItem)

    async def setup(self) -> None:
        """From the client's setup_hook: translations, command sync, restore every table, start the clock."""
        assert self.tree is not None
        await self.tree.set_translator(CatalogTranslator())
        if self.config.sync_commands:
            await sync_if_changed(self.tree, self.store)
        for outcome in await self.service.resume_all():
            if outcome.table.platform == PLATFORM:
                try:
                    await self.render_outcome(outcome, restored=True)
                except discord.HTTPException:
                    log.exception("restoring table %s failed", outcome.table.id)
        if self.config.run_scheduler:
            self.scheduler.start()

    async def shutdown(self) -> None:
        await self.scheduler.stop()

    async def _on_tree_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        self.errors.append(error)
        log.error("command failed: %s", error, exc_info=error)
        await self._refuse(interaction, t("dc.error", self._ulang(interaction)))
        await self._mark_processed(interaction)

    async def _mark_processed(self, interaction: discord.Interaction) -> None:
        async with self._processed_cond:
            self.processed.append(interaction.id)
            self._processed_cond.notify_all()

    async def wait_processed(self, interaction_id: int, timeout: float = 10.0) -> None:
        async def _wait() -> None:
            async with self._processed_cond:
                await self._processed_cond.wait_for(lambda: interaction_id in self.processed)
        await asyncio.wait_for(_wait(), timeout)

    # ---- languages, references -----------------------------------------------------------------

    def _ulang(self, interaction: discord.Interaction) -> str:
        return lang_of(interaction.locale) or self.config.default_lang

    async def _refs_of(self, table_id: str) -> dict[str, Any]:
        if table_id not in self._refs:
            self._refs[table_id] = dict(await self.store.table_refs(table_id))
        return self._refs[table_id]

    async def _set_ref(self, table_id: str, key: str, value: Any) -> None:
        (await self._refs_of(table_id))[key] = value
        await self.store.set_table_ref(table_id, key, value)

    async def _table_lang(self, rec: TableRecord) -> str:
        return (await self._refs_of(rec.id)).get("lang") or self.config.default_lang

    async def _dm_on(self, user_id: str) -> bool:
        return bool((await self.store.chat_settings(PLATFORM, f"user:{user_id}")).get("dm"))

    # ---- interaction replies -------------------------------------------------------------------

    @staticmethod
    async def _ack(interaction: discord.Interaction, *, update: bool, ephemeral: bool = True) -> None:
        """Acknowledge at entry, before any storage or network work, so no path can miss Discord's
        3 s: a component that edits its own message defers as an update (type 6, then edited via the
        token); anything that answers with a new message defers "thinking" (type 5, then a follow-up)."""
        if interaction.response.is_done():
            return
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=ephemeral, thinking=True)

    async def _within(self, interaction: discord.Interaction, work: Awaitable[T], *, update: bool) -> T:
        """Run the work; if it is not done in `ack_after_s`, acknowledge first (a component update
        is deferred as an update, a command as an ephemeral "thinking")."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=self.config.ack_after_s)
        if not done and not interaction.response.is_done():
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        return await task

    async def _say(self, interaction: discord.Interaction, content: str | None = None, *,
                   embed: discord.Embed | None = None, view: discord.ui.View | None = None) -> None:
        """An ephemeral answer to whoever acted (over 2000 characters Discord refuses it: cut)."""
        kwargs: dict[str, Any] = {"content": fit_content(content) if content else content, "ephemeral": True,
                                  "allowed_mentions": NOBODY}
        if embed is not None:
            kwargs["embed"] = embed
        if view is not None:
            kwargs["view"] = view
        if not interaction.response.is_done():
            await interaction.response.send_message(**kwargs)
        else:
            await interaction.followup.send(**kwargs)

    async def _refuse(self, interaction: discord.Interaction, text: str) -> None:
        try:
            await self._say(interaction, text)
        except discord.HTTPException:
            log.exception("could not answer an interaction")

    async def _edit_here(self, interaction: discord.Interaction, **kwargs: Any) -> None:
        """Edit the message a component sits on (type 7, or the original after a deferred update)."""
        if kwargs.get("content"):
            kwargs["content"] = fit_content(kwargs["content"])
        if not interaction.response.is_done():
            await interaction.response.edit_message(**kwargs)
        else:
            await interaction.edit_original_response(**kwargs)

    # ---- slash commands -------------------------------------------------------------------------

    def _group(self) -> app_commands.Group:
        # guild_only: tables live in a server's channels; a DM or a user-installed context gets no /rummy.
        group = app_commands.Group(name=ls("rummy", "dc.cmd.rummy.name"), guild_only=True,
                                   description=ls("Rummy Club: rummy games for this channel", "dc.cmd.rummy.desc"))
        games = [app_commands.Choice(name=ls(t(f"game.{g}"), f"game.{g}"), value=g) for g in engine_names()]

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
                    reply = await standings.history(PLATFORM, chat, args, lang)
            except StatsError as err:
                # The defer was public (standings are for the channel): bad input replaces it privately.
                await interaction.delete_original_response()
                await interaction.followup.send(fit_content(err.render(lang)), ephemeral=True, allowed_mentions=NOBODY)
                return
            await interaction.followup.send(ui.code_block(reply, 1900), allowed_mentions=NOBODY)
        await self._guarded(interaction, work(), public=True)

    async def cmd_rematch(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            lang = self._ulang(interaction)
            rec = await self.service.rematch(PLATFORM, str(interaction.channel_id), player_of(interaction.user),
                                             key=_key(interaction))
            await self._set_ref(rec.id, "lang", lang_of(interaction.guild_locale) or lang)
            await self._say(interaction, t("stats.rematch_opened", lang))
            await self._set_ref(rec.id, "channel", str(interaction.channel_id))
            await self.render_lobby(rec)
        await self._guarded(interaction, work())

    async def _table_here(self, interaction: discord.Interaction) -> TableRecord | None:
        """The channel's active table; inside a table's thread, the table of its parent channel."""
        if interaction.channel_id is None:
            return None
        rec = await self.store.active_table_for_chat(PLATFORM, str(interaction.channel_id))
        parent = getattr(interaction.channel, "parent_id", None)
        if rec is None and parent:
            rec = await self.store.active_table_for_chat(PLATFORM, str(parent))
        return rec

    async def _need_table(self, interaction: discord.Interaction) -> TableRecord:
        rec = await self._table_here(interaction)
        if rec is None:
            raise ServiceError("E_NO_TABLE")
        return rec

    async def _guarded(self, interaction: discord.Interaction, work: Awaitable[None], game: str | None = None,
                       public: bool = False) -> None:
        """A slash command: deferred at entry (ephemeral unless `public`), run, its errors answered."""
        try:
            await self._ack(interaction, update=False, ephemeral=not public)
            await work
        except (ServiceError, IllegalAction) as err:
            await self._refuse(interaction, _error_text(err, self._ulang(interaction), game))
        except discord.HTTPException as err:
            self.errors.append(err)
            log.exception("a command's reply failed")
        finally:
            await self._mark_processed(interaction)

    async def cmd_new(self, interaction: discord.Interaction, game: str, thread: bool, options: str = "") -> None:
        async def work() -> None:
            lang = self._ulang(interaction)
            if interaction.guild_id is None or interaction.channel_id is None:
                await self._say(interaction, t("dc.guild_only", lang))
                return
            opts = options_from_text(options)  # turn_timer_s=120 match_games=3, as Telegram's /new takes them
            rec = await self.service.open_table(game, PLATFORM, str(interaction.channel_id), player_of(interaction.user),
                                                options=opts, key=_key(interaction))
            await self._set_ref(rec.id, "lang", lang_of(interaction.guild_locale) or lang)
            await self._say(interaction, t("dc.opened", lang, game=t(f"game.{rec.game}", lang)))  # answer first
            target = interaction.channel_id
            if thread and isinstance(interaction.channel, discord.TextChannel):
                created = await interaction.channel.create_thread(
                    name=t("dc.thread_name", lang, game=t(f"game.{rec.game}", lang)),
                    type=discord.ChannelType.public_thread, auto_archive_duration=1440)
                target = created.id
            await self._set_ref(rec.id, "channel", str(target))
            await self.render_lobby(rec)
        await self._guarded(interaction, work())

    async def cmd_lobby(self, interaction: discord.Interaction, verb: str) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            await self._lobby_action(interaction, rec, verb, from_button=False)
        await self._guarded(interaction, work())

    async def _lobby_action(self, interaction: discord.Interaction, rec: TableRecord, verb: str,
                            from_button: bool) -> None:
        me = player_of(interaction.user)
        lang = self._ulang(interaction)
        if rec.status != "lobby":
            raise ServiceError("E_NOT_PLAYING" if verb == "cancel" else "E_NOT_IN_LOBBY")
        note: str | None = None
        key = _key(interaction)
        if verb == "join":
            rec = await self.service.join(rec.id, me, key=key)
            note = t("dc.joined", lang)
        elif verb == "leave":
            rec = await self.service.leave(rec.id, me, key=key)
            note = t("dc.left", lang)
        elif verb == "addai":
            rec = await self.service.add_ai(rec.id, me, key=key)
        elif verb == "rmai":
            rec = await self.service.remove_ai(rec.id, me, key=key)
        elif verb == "cancel":
            rec = await self.service.end_table(rec.id, me, is_admin=self._is_admin(interaction, rec), key=key)
            await self.render_closed(rec, "lobby.abandoned", interaction if from_button else None)
            if not from_button:
                await self._say(interaction, t("lobby.abandoned", lang))
            return
        elif verb == "start":
            outcome = await self._within(interaction, self.service.start(rec.id, me, key=key), update=from_button)
            if not from_button:
                await self._say(interaction, t("dc.started", lang))
            await self.render_outcome(outcome, interaction=interaction if from_button else None)
            return
        if from_button:
            await self.render_lobby(rec, interaction)
        else:
            await self._say(interaction, note or "✓")
            await self.render_lobby(rec)

    async def _options_action(self, interaction: discord.Interaction, rec: TableRecord, data: ButtonData,
                              values: list[str], lang: str) -> None:
        """The host's option screen: Options opens it (only the host sees it), the first select picks an
        option, the second sets its value through the service (which validates it)."""
        me = player_of(interaction.user)
        if rec.status != "lobby":
            raise ServiceError("E_NOT_IN_LOBBY")
        if not self.service.is_host(rec, me):
            raise ServiceError("E_NOT_HOST")
        if data.version != rec.version:
            raise ServiceError("E_STALE")
        engine = get_engine(rec.game)
        keys = list(engine.options_model.model_fields)[:25]
        if data.verb == "options":
            await self._say(interaction, t("dc.options_title", lang), view=ui.options_view(rec, lang, None))
            return
        if len(values) != 1 or not values[0].isdigit():
            raise CodecError("bad option choice")
        if data.verb == "optkey":
            index = int(values[0])
            if index >= len(keys):
                raise CodecError("bad option")
            await self._edit_here(interaction, view=ui.options_view(rec, lang, index))
            return
        if not data.args or not data.args[0].isdigit() or int(data.args[0]) >= len(keys):
            raise CodecError("bad option")
        index = int(data.args[0])
        choices = option_choices(engine.options_model, rec.options, keys[index], engine.max_seats)[:25]
        if int(values[0]) >= len(choices):
            raise CodecError("bad option value")
        rec = await self.service.set_option(rec.id, me, keys[index], choices[int(values[0])], key=_key(interaction))
        await self._edit_here(interaction, view=ui.options_view(rec, lang, index))
        await self.render_lobby(rec)

    @staticmethod
    def _is_admin(interaction: discord.Interaction, rec: TableRecord) -> bool:
        perms = interaction.permissions
        return rec.host_user_id != str(interaction.user.id) and bool(perms.manage_guild or perms.administrator)

    async def cmd_hand(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            await self._show_hand(interaction, rec)
        await self._guarded(interaction, work())

    async def _show_hand(self, interaction: discord.Interaction, rec: TableRecord) -> None:
        lang = self._ulang(interaction)
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        seat = self.service.seat_of(rec, player_of(interaction.user))
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        embed, view = self.hand_payload(rec, seat, lang)
        if await self._dm_on(str(interaction.user.id)):
            try:
                await self._within(interaction, interaction.user.send(embed=embed, view=view), update=False)
            except discord.Forbidden:
                await self._say(interaction, t("dc.dm_closed", lang), embed=embed, view=view)
                return
            await self._say(interaction, t("dc.dm_sent", lang))
            return
        await self._say(interaction, embed=embed, view=view)

    async def cmd_play(self, interaction: discord.Interaction, text: str) -> None:
        if (request := rules_request(text)) is not None:  # `help rules` typed as a move: the guide
            await self._guarded(interaction, self._rules(interaction, request))
            return

        async def work() -> None:
            rec = await self._need_table(interaction)
            if rec.status != "playing":
                raise ServiceError("E_NOT_PLAYING")
            me = player_of(interaction.user)
            seat = self.service.seat_of(rec, me)
            if seat is None:
                raise ServiceError("E_NOT_SEATED")
            await self._act(interaction, rec, me, seat, text.strip(), None, update=False)
        await self._guarded(interaction, work())

    async def complete_play(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """Suggestions from the legal verbs of the game and the player's own hand."""
        rec = await self._table_here(interaction)
        if rec is None or rec.status != "playing" or rec.state is None:
            return []
        seat = self.service.seat_of(rec, player_of(interaction.user))
        if seat is None:
            return []
        engine = get_engine(rec.game)
        words = current.lstrip().split(" ")
        if len(words) <= 1:
            verbs = sorted({example.split()[0] for example, _ in engine.help_text()})
            found = [v for v in verbs if v.startswith(words[0].lower())]
        else:
            head, last = " ".join(words[:-1]), words[-1].lower()
            items = hand_items(engine.view(rec.state, seat))
            used = [w.lower() for w in words[1:-1]]
            found, seen = [], set()
            for item in items:
                if item.lower().startswith(last) and (used.count(item.lower()) < items.count(item)) and item not in seen:
                    seen.add(item)
                    found.append(f"{head} {item}")
            if not found:
                found = [current]
        return [app_commands.Choice(name=s[:100], value=s[:100]) for s in found[:25]]

    async def cmd_end(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            rec = await self.service.end_table(rec.id, player_of(interaction.user),
                                               is_admin=self._is_admin(interaction, rec), key=_key(interaction))
            await self._say(interaction, t("lobby.abandoned", self._ulang(interaction)))
            await self.render_closed(rec, "lobby.abandoned")
        await self._guarded(interaction, work())

    async def cmd_away(self, interaction: discord.Interaction, away: bool) -> None:
        async def work() -> None:
            rec = await self._need_table(interaction)
            engine = get_engine(rec.game)
            before = (rec.log_seq, engine.current_seat(rec.state) if rec.state is not None else None)
            rec = await self._within(interaction, self.service.set_away(rec.id, player_of(interaction.user), away,
                                                                        key=_key(interaction)), update=False)
            await self._say(interaction, t("dc.away_on" if away else "dc.away_off", self._ulang(interaction)))
            await self.render_record(rec)
            turn = engine.current_seat(rec.state) if rec.state is not None and rec.status == "playing" else None
            if turn is not None and (rec.log_seq, turn) != before:
                await self._ping(rec, turn)
        await self._guarded(interaction, work())

    async def cmd_help(self, interaction: discord.Interaction, game: str | None) -> None:
        await self._guarded(interaction, self._help(interaction, game))

    async def _help(self, interaction: discord.Interaction, game: str | None) -> None:
        lang = self._ulang(interaction)
        text = t("dc.help", lang, games=", ".join(engine_names()))
        if game is None:
            rec = await self._table_here(interaction)
            game = rec.game if rec is not None else None
        if game is not None:
            text += "\n" + ui.code_block(render_help(game, lang), 1800)
        await self._say(interaction, text)

    async def cmd_rules(self, interaction: discord.Interaction, game: str | None) -> None:
        await self._guarded(interaction, self._rules(interaction, RulesRequest(game)))

    async def _rules(self, interaction: discord.Interaction, request: RulesRequest) -> None:
        """The player's guide (the channel's game when none is named), as ephemeral messages within 2000."""
        lang = self._ulang(interaction)
        rec = await self._table_here(interaction) if request.game is None else None
        shown, problem = rules_reply(request, rec.game if rec is not None else None, lang)
        if shown is None:
            await self._say(interaction, problem)
            return
        for chunk in guide_chunks(guide_text(shown, lang), MESSAGE_MAX):
            await self._say(interaction, chunk)

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
                await self._say(interaction, t("dc.dm_closed", lang))
                return
        settings["dm"] = on
        await self.store.set_chat_settings(PLATFORM, key, settings)
        await self._say(interaction, t("dc.dm_on" if on else "dc.dm_off", lang))

    # ---- components -----------------------------------------------------------------------------

    async def owns(self, interaction: discord.Interaction, custom_id: str) -> bool:
        """The items' interaction_check: a seat's button pressed by someone else is answered here
        (acknowledged first, then told privately) and never reaches on_component."""
        try:
            data = decode(custom_id)
            if not data.args or not data.args[0].isdigit() or data.verb not in _SEAT_VERBS:
                return True
            await self._ack(interaction, update=not _opens_message(data))
            rec = await self.store.get_table(data.table_id)
            seat = self.service.seat_of(rec, player_of(interaction.user)) if rec is not None else None
            if seat is None or int(data.args[0]) == seat:
                return True  # unseated or unknown: on_component gives the precise refusal
            await self._refuse(interaction, t("dc.not_your_buttons", self._ulang(interaction)))
        except Exception as err:  # a failing check must still let the press be answered
            self.errors.append(err)
            log.exception("ownership check failed for %s", custom_id)
            return True
        await self._mark_processed(interaction)
        return False

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        lang = self._ulang(interaction)
        game: str | None = None
        try:
            data = decode(custom_id)
            await self._ack(interaction, update=not _opens_message(data))
            rec = await self.store.get_table(data.table_id)
            if rec is None or rec.platform != PLATFORM:
                raise ServiceError("E_NO_TABLE")
            game = rec.game
            await self._component(interaction, rec, data, values, lang)
        except (ServiceError, IllegalAction) as err:
            await self._refuse(interaction, _error_text(err, lang, game))
        except CodecError:
            await self._refuse(interaction, t("error.E_BAD_BUTTON", lang))
        except Exception as err:  # a broken handler must still answer, or Discord shows "failed"
            self.errors.append(err)
            log.exception("component %s failed", custom_id)
            await self._refuse(interaction, t("dc.error", lang))
        finally:
            await self._mark_processed(interaction)

    async def _component(self, interaction: discord.Interaction, rec: TableRecord, data: ButtonData,
                         values: list[str], lang: str) -> None:
        verb = data.verb
        if verb in _LOBBY_VERBS:
            await self._lobby_action(interaction, rec, verb, from_button=True)
            return
        if verb in ("options", "optkey", "setopt"):
            await self._options_action(interaction, rec, data, values, lang)
            return
        if verb not in ("hand", "sort", "pick", "cmd", "mvt", "mv", "back"):
            raise CodecError("unknown action")
        if rec.status != "playing":
            raise ServiceError("E_NOT_PLAYING")
        me = player_of(interaction.user)
        seat = self.service.seat_of(rec, me)
        if seat is None:
            raise ServiceError("E_NOT_SEATED")
        if verb == "hand" and not data.args:  # "My hand" on the table message: a new ephemeral hand
            await self._show_hand(interaction, rec)
            return
        if not data.args or not data.args[0].isdigit():
            raise CodecError("bad seat")
        if int(data.args[0]) != seat:
            await self._say(interaction, t("dc.not_your_buttons", lang))
            return
        if verb == "hand":
            await self.update_hand(interaction, rec, seat, lang)
            return
        if verb == "sort":
            self._by_number[(rec.id, seat)] = not self._by_number.get((rec.id, seat), False)
            await self.update_hand(interaction, rec, seat, lang)
            return
        if data.version != rec.version:
            await self.update_hand(interaction, rec, seat, lang, content=_error_text(ServiceError("E_STALE"), lang))
            return
        view = get_engine(rec.game).view(rec.state or {}, seat)
        items = hand_items(view)
        if verb in ("mvt", "mv", "back"):
            await self._move_component(interaction, rec, me, seat, view, data, values, lang)
            return
        if verb == "pick":
            # pick <seat> [<part>]: one select per 25 items, so a press changes only its own part.
            part = int(data.args[1]) if len(data.args) > 1 and data.args[1].isdigit() else 0
            span = range(part * ui.MAX_OPTIONS, (part + 1) * ui.MAX_OPTIONS)
            chosen = list(dict.fromkeys(int(v) for v in values if v.isdigit()))
            if len(chosen) != len(values) or any(i >= len(items) or i not in span for i in chosen):
                raise CodecError("bad pick")
            previous = self._selection.get((rec.id, seat), [])
            others = [i for i in previous if i not in span]
            self._selection[(rec.id, seat)] = ordered_pick(previous, others + chosen)
            await self.update_hand(interaction, rec, seat, lang)
            return
        # cmd <seat> <move index> <mask> [<option>]: the move of `engine.moves(view)`, filled by compose
        if len(data.args) < 3 or not data.args[1].isdigit():
            raise CodecError("bad command")
        mask = set(indices_of(data.args[2], len(items)))
        order = [i for i in self._selection.get((rec.id, seat), []) if i in mask]
        picked_items = [items[i] for i in order + sorted(mask - set(order))]
        option = int(data.args[3]) if len(data.args) > 3 and data.args[3].isdigit() else None
        try:
            command = grammar_command(get_engine(rec.game).moves(view), int(data.args[1]), option, picked_items)
        except ValueError as err:
            raise CodecError("bad command") from err
        await self._act(interaction, rec, me, seat, command, data.version, update=True)

    async def _move_component(self, interaction: discord.Interaction, rec: TableRecord, me: Player, seat: int,
                              view: dict[str, Any], data: ButtonData, values: list[str], lang: str) -> None:
        """Moving a table item (the engine's two-step move): pick it in the select, then its target."""
        key = (rec.id, seat)
        found = move_template(get_engine(rec.game).moves(view))
        if data.verb == "back":
            self._moving.pop(key, None)
        elif found is None:
            raise CodecError("bad move")
        elif data.verb == "mvt":
            text = values[0] if len(values) == 1 else ""
            if not text.isdigit() or int(text) >= len(found[1].open_slots()[0].options):
                raise CodecError("bad move")
            self._moving[key] = int(text)
        else:  # mv <seat> <move index> <table item option> <destination option>
            nums = [int(a) for a in data.args[1:] if a.isdigit()]
            if len(nums) != 3 or len(data.args) != 4 or nums[0] != found[0]:
                raise CodecError("bad move")
            try:
                command = move_command(found[1], nums[1], nums[2])
            except ValueError as err:
                raise CodecError("bad move") from err
            self._moving.pop(key, None)
            await self._act(interaction, rec, me, seat, command, data.version, update=True)
            return
        await self.update_hand(interaction, rec, seat, lang)

    async def _act(self, interaction: discord.Interaction, rec: TableRecord, me: Player, seat: int, command: str,
                   version: int | None, *, update: bool) -> None:
        """Apply a move; answer the mover with the fresh hand (in place for a button), then the table."""
        lang = self._ulang(interaction)
        engine = get_engine(rec.game)
        prev_turn = engine.current_seat(rec.state) if rec.state is not None else None
        try:
            outcome = await self._within(interaction, self.service.act(rec.id, me, command, expected_version=version,
                                                                       key=_key(interaction)), update=update)
        except (IllegalAction, ServiceError) as err:
            text = _error_text(err, lang, rec.game)
            if update:
                await self.update_hand(interaction, await self.service.get(rec.id), seat, lang, content=text)
            else:
                await self._say(interaction, text)
            return
        self._selection.pop((rec.id, seat), None)
        self._moving.pop((rec.id, seat), None)
        new = outcome.table
        lines = render_events(new, [e for e in outcome.events if e.seat == seat or e.seat is None], seat, lang)
        note = "\n".join([f"✓ `{_inert(command)}`", *(plain(line) for line in lines[-4:])])
        mine = outcome.private_views.get(seat)
        if update:
            await self.update_hand(interaction, new, seat, lang, content=note, seat_view=mine)
        else:
            embed, view = self.hand_payload(new, seat, lang, mine)
            await self._say(interaction, note, embed=embed, view=view)
        await self.render_outcome(outcome, prev_turn=prev_turn)

    # ---- hands ----------------------------------------------------------------------------------

    def hand_payload(self, rec: TableRecord, seat: int, lang: str,
                     view: dict[str, Any] | None = None) -> tuple[discord.Embed, discord.ui.View]:
        """The hand message; `view` is the seat's view when the caller has it (an outcome's)."""
        engine = get_engine(rec.game)
        view = view if view is not None else engine.view(rec.state or {}, seat)
        items = hand_items(view)
        selected = [i for i in self._selection.get((rec.id, seat), []) if i < len(items)]
        extra = t("dc.selected", lang, items=" ".join(items[i] for i in selected)) if selected else ""
        if rec.status == "finished":
            extra = (extra + "\n" + t("dc.match_over", lang)).strip()
        body = render_hand(rec, view, lang, self._by_number.get((rec.id, seat), False))
        title = t("dc.hand_header", lang, game=t(f"game.{rec.game}", lang))
        moving = self._moving.get((rec.id, seat))
        if moving is not None:
            meld, _, item = _item_at(view, moving).partition(":")
            extra = (extra + "\n" + t("dc.moving", lang, meld=meld, item=item or meld)).strip()
        return ui.embed(title, body, extra), ui.hand_view(rec, view, seat, selected, lang, moving)

    async def update_hand(self, interaction: discord.Interaction, rec: TableRecord, seat: int, lang: str,
                          content: str | None = None, seat_view: dict[str, Any] | None = None) -> None:
        embed, view = self.hand_payload(rec, seat, lang, seat_view)
        await self._edit_here(interaction, content=content, embed=embed, view=view)

    # ---- the table message ---------------------------------------------------------------------

    async def _put_table(self, rec: TableRecord, embed: discord.Embed, view: discord.ui.View | None,
                         interaction: discord.Interaction | None = None) -> None:
        """Edit the table's one message: through the interaction when a button on it was pressed
        (one request), else by id; send it (and remember it) the first time."""
        refs = await self._refs_of(rec.id)
        mid = refs.get("message")
        if interaction is not None and interaction.message is not None and mid and interaction.message.id == int(mid):
            await self._edit_here(interaction, embed=embed, view=view)
            return
        assert self.client is not None
        channel = self.client.get_partial_messageable(int(refs.get("channel") or rec.chat_id))
        if mid:
            try:
                await channel.get_partial_message(int(mid)).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass  # deleted by someone: post it again
        msg = await channel.send(embed=embed, view=view)
        await self._set_ref(rec.id, "message", str(msg.id))

    async def _post(self, rec: TableRecord, content: str, ping: str | None = None) -> None:
        """A new channel message; it can notify only `ping` (a user id), whatever names it holds."""
        assert self.client is not None
        refs = await self._refs_of(rec.id)
        channel = self.client.get_partial_messageable(int(refs.get("channel") or rec.chat_id))
        await channel.send(fit_content(content), allowed_mentions=only(ping))

    async def render_lobby(self, rec: TableRecord, interaction: discord.Interaction | None = None) -> None:
        lang = await self._table_lang(rec)
        engine = get_engine(rec.game)
        text = render_lobby(rec, lang, engine.max_seats)
        embed = ui.embed(t(f"game.{rec.game}", lang), text, t("dc.lobby_hint", lang))
        await self._put_table(rec, embed, ui.lobby_view(rec, lang), interaction)

    async def render_closed(self, rec: TableRecord, key: str, interaction: discord.Interaction | None = None) -> None:
        lang = await self._table_lang(rec)
        body = t(key, lang)
        if rec.state is not None:
            body = render_table(rec, get_engine(rec.game).view(rec.state, None), lang) + "\n\n" + body
        await self._put_table(rec, ui.embed(t(f"game.{rec.game}", lang), body), None, interaction)

    async def render_table_message(self, rec: TableRecord, view: dict[str, Any] | None, lines: list[str],
                                   restored: bool = False, interaction: discord.Interaction | None = None) -> None:
        if rec.status == "lobby":
            await self.render_lobby(rec, interaction)
            return
        if rec.state is None:
            return
        lang = await self._table_lang(rec)
        view = view or get_engine(rec.game).view(rec.state, None)
        body = render_table(rec, view, lang, now=self.service.clock.now())
        extra = "\n".join(lines[-6:])
        turn = view.get("turn")
        if rec.status == "playing" and turn is not None:
            s = rec.seats[turn]
            extra += "\n" + t("dc.turn_line", lang, name=_mention(s.user_id if s.kind == "human" else None, s.name))
        if restored:
            extra = t("lobby.restored", lang) + "\n" + extra
        markup = ui.table_view(rec, lang) if rec.status == "playing" else None
        await self._put_table(rec, ui.embed(t(f"game.{rec.game}", lang), body, extra.strip()), markup, interaction)

    async def render_record(self, rec: TableRecord) -> None:
        if rec.status == "lobby":
            await self.render_lobby(rec)
        else:
            await self.render_table_message(rec, None, [])

    async def render_outcomes(self, outcomes: list[Outcome]) -> None:
        """What the scheduler produced: timeouts and expired lobbies."""
        for outcome in outcomes:
            if outcome.table.platform != PLATFORM:
                continue
            try:
                if outcome.table.status == "abandoned" and outcome.table.state is None:
                    await self.render_closed(outcome.table, "dc.lobby_expired")
                else:
                    await self.render_outcome(outcome)
            except discord.HTTPException:
                log.exception("rendering table %s failed", outcome.table.id)

    async def render_outcome(self, outcome: Outcome, prev_turn: int | None = None, restored: bool = False,
                             interaction: discord.Interaction | None = None) -> None:
        rec = outcome.table
        if rec.state is None:
            await self.render_record(rec)
            return
        lang = await self._table_lang(rec)
        public = self._public_lines(rec, outcome, lang)
        summaries = [line for e, line in public if e in _ANNOUNCED]
        lines = [line for e, line in public if e not in _ANNOUNCED]
        await self.render_table_message(rec, outcome.public_view, lines, restored=restored, interaction=interaction)
        if summaries:
            await self._post(rec, "\n\n".join(summaries))
        for seat, s in enumerate(rec.seats):
            if s.kind == "human" and s.user_id and await self._dm_on(s.user_id):
                await self._dm_hand(rec, seat, outcome.private_views.get(seat))
        turn = (outcome.public_view or {}).get("turn")
        if rec.status == "playing" and turn is not None and not restored:
            others_moved = any(e.data.get("seat") not in (None, turn) for e in outcome.events)
            if turn != prev_turn or others_moved:
                await self._ping(rec, turn)

    async def _dm_hand(self, rec: TableRecord, seat: int, seat_view: dict[str, Any] | None = None) -> None:
        """With `/rummy dm on`, the hand lives in one DM message, edited after each move."""
        assert self.client is not None
        s = rec.seats[seat]
        assert s.user_id is not None
        embed, view = self.hand_payload(rec, seat, await self._table_lang(rec), seat_view)
        key = f"dm:{s.user_id}"
        refs = await self._refs_of(rec.id)
        try:
            if key in refs:
                channel_id, mid = refs[key].split(":")
                await self.client.get_partial_messageable(int(channel_id)).get_partial_message(int(mid)).edit(
                    embed=embed, view=view)
            else:
                channel = await self.client.create_dm(discord.Object(int(s.user_id)))
                msg = await channel.send(embed=embed, view=view)
                await self._set_ref(rec.id, key, f"{msg.channel.id}:{msg.id}")
        except discord.Forbidden as err:
            log.info("DM hand for %s not delivered (%s)", s.user_id, err.code)
            if err.code == CANNOT_DM:
                await self._unreachable(rec, seat)
        except discord.HTTPException:
            log.info("DM hand for %s not delivered", s.user_id)

    async def _unreachable(self, rec: TableRecord, seat: int) -> None:
        """The player's DMs refuse the bot (50007): hands go back to ephemeral messages, the seat goes
        `/away` so the AI stands in (a table without a turn timer would wait forever), and the channel
        is told once. Moving again takes the seat back."""
        s = rec.seats[seat]
        assert s.user_id is not None
        key = f"user:{s.user_id}"
        await self.store.set_chat_settings(PLATFORM, key, {**await self.store.chat_settings(PLATFORM, key), "dm": False})
        if rec.status != "playing" or s.away:
            return  # already stood in for (and already announced)
        engine = get_engine(rec.game)
        before = (rec.log_seq, engine.current_seat(rec.state) if rec.state is not None else None)
        rec = await self.service.set_away(rec.id, Player(PLATFORM, s.user_id, s.name), True)
        await self._post(rec, t("dc.dm_blocked", await self._table_lang(rec), name=_mention(s.user_id, s.name)),
                         ping=s.user_id)
        await self.render_record(rec)
        turn = engine.current_seat(rec.state) if rec.state is not None and rec.status == "playing" else None
        if turn is not None and (rec.log_seq, turn) != before:  # the AI played the seat: whose turn now?
            await self._ping(rec, turn)

    async def _ping(self, rec: TableRecord, turn: int) -> None:
        """A short new message, so a human whose turn starts gets notified (edits do not notify)."""
        s = rec.seats[turn]
        if s.kind != "human" or s.away:
            return
        await self._post(rec, t("dc.your_turn", await self._table_lang(rec), name=_mention(s.user_id, s.name)),
                         ping=s.user_id)

    @staticmethod
    def _public_lines(rec: TableRecord, outcome: Outcome, lang: str) -> list[tuple[str, str]]:
        from bot.core.render import renderer
        from bot.core.render.common import names

        mod = renderer(rec.game)
        out = []
        for event in outcome.events:
            if event.seat is not None:
                continue
            line = mod.render_event(event, names(rec), None, lang)
            if line:  # names are free text: shown literally (the lines go outside any code block)
                out.append((event.type, plain(line)))
        return out


def _error_text(err: Exception, lang: str, game: str | None = None) -> str:
    """The shared sentence for an error, in Discord's words where the shared one names Telegram's
    commands (`/new`, "type help"): `dc.error.<CODE>` wins, and the parse hint points at /rummy help."""
    code = getattr(err, "code", None)
    if code and has(f"dc.error.{code}", lang):
        return t(f"dc.error.{code}", lang)
    return render_error(err, lang, game).replace(t("parse.way.help", lang), t("dc.parse_help", lang))


def _inert(text: str) -> str:
    """Typed text echoed in inline code: a backtick would end it early."""
    return text.replace("`", "'")


def _opens_message(data: ButtonData) -> bool:
    """A press answered with a new ephemeral message (a hand from the table message, the host's
    options screen) rather than an edit of the message it sits on."""
    return data.verb == "options" or (data.verb == "hand" and not data.args)


def _item_at(view: dict[str, Any], at: int) -> str:
    """The label of the table item picked to move (an option of the engine's move)."""
    found = move_template(get_engine(view["game"]).moves(view))
    pieces = found[1].open_slots()[0] if found else None
    return pieces.label(pieces.options[at]) if pieces and 0 <= at < len(pieces.options) else "?"


def build_client(adapter: DiscordBot, *, intents: discord.Intents | None = None) -> discord.Client:
    """A Client (or an AutoShardedClient) whose setup hook installs the adapter."""
    base: type[discord.Client] = discord.AutoShardedClient if adapter.config.sharded else discord.Client

    class RummyClient(base):  # type: ignore[valid-type,misc]
        def __init__(self) -> None:
            # Nobody is pinged unless a message names its one user (bot.discord.safe.only).
            super().__init__(intents=intents or discord.Intents.default(), allowed_mentions=NOBODY,
                             guild_ready_timeout=adapter.config.guild_ready_timeout)
            self.ready_event = asyncio.Event()

        async def setup_hook(self) -> None:
            await adapter.setup()

        async def on_ready(self) -> None:
            self.ready_event.set()

        async def close(self) -> None:
            await adapter.shutdown()
            await super().close()

    client = RummyClient()
    adapter.attach(client)
    return client


__all__ = ["PLATFORM", "DiscordBot", "DiscordConfig", "build_client", "player_of"]
