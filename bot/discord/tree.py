"""The `/rummy` command group on Discord (guild only; names and descriptions from the catalogs): each
subcommand registered here, flatly, on the method of the part that handles it (commands.py, lobby.py)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.core.i18n import t
from bot.core.presenter.games import games as game_names
from bot.discord.commands import Commands
from bot.discord.lobby import Lobby
from bot.discord.translator import ls

log = logging.getLogger(__name__)


def command_group(commands: Commands, lobby: Lobby) -> app_commands.Group:
    """`/rummy` and its subcommands, each handled by a part's method."""
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
        await lobby.cmd_new(interaction, game, thread, options)

    def simple(name: str, desc: str) -> Any:
        return group.command(name=ls(name, f"dc.cmd.{name}.name"), description=ls(desc, f"dc.cmd.{name}.desc"))

    @simple("join", "Take a seat at the table")
    async def join(interaction: discord.Interaction) -> None:
        await lobby.cmd_lobby(interaction, "join")

    @simple("leave", "Leave the table before it starts")
    async def leave(interaction: discord.Interaction) -> None:
        await lobby.cmd_lobby(interaction, "leave")

    @simple("start", "Start the game (host)")
    async def start(interaction: discord.Interaction) -> None:
        await lobby.cmd_lobby(interaction, "start")

    @simple("hand", "Show my hand (only you see it)")
    async def hand(interaction: discord.Interaction) -> None:
        await commands.cmd_hand(interaction)

    @simple("hint", "The best move for your hand (when the table's hints are on)")
    async def hint(interaction: discord.Interaction) -> None:
        await commands.cmd_hint(interaction)

    @group.command(name=ls("play", "dc.cmd.play.name"), description=ls("Make a move", "dc.cmd.play.desc"))
    @app_commands.rename(text=ls("text", "dc.opt.text.name"))
    @app_commands.describe(text=ls("The move, e.g. draw or discard r5", "dc.opt.text.desc"))
    async def play(interaction: discord.Interaction, text: str) -> None:
        await commands.cmd_play(interaction, text)

    @play.autocomplete("text")
    async def play_complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            return await commands.complete_play(interaction, current)
        except Exception:  # a suggestion must never break the command: offer none
            log.exception("autocomplete failed")
            return []

    @simple("end", "End the table (host or Manage Server)")
    async def end(interaction: discord.Interaction) -> None:
        await commands.cmd_end(interaction)

    @simple("away", "Let the AI play your seat")
    async def away(interaction: discord.Interaction) -> None:
        await commands.cmd_away(interaction, True)

    @simple("back", "Take your seat back")
    async def back(interaction: discord.Interaction) -> None:
        await commands.cmd_away(interaction, False)

    @simple("help", "How to play")
    async def help_(interaction: discord.Interaction) -> None:
        await commands.cmd_help(interaction, None)

    @group.command(name=ls("rules", "dc.cmd.rules.name"), description=ls("A game's player's guide", "dc.cmd.rules.desc"))
    @app_commands.rename(game=ls("game", "dc.opt.game.name"))
    @app_commands.describe(game=ls("Which game", "dc.opt.game.desc"))
    @app_commands.choices(game=games)
    async def rules_(interaction: discord.Interaction, game: str | None = None) -> None:
        await commands.cmd_rules(interaction, game)

    @group.command(name=ls("dm", "dc.cmd.dm.name"), description=ls("Get your hand by DM", "dc.cmd.dm.desc"))
    @app_commands.rename(mode=ls("mode", "dc.opt.mode.name"))
    @app_commands.describe(mode=ls("on or off", "dc.opt.mode.desc"))
    @app_commands.choices(mode=[app_commands.Choice(name=ls("on", "dc.on"), value="on"),
                                app_commands.Choice(name=ls("off", "dc.off"), value="off")])
    async def dm(interaction: discord.Interaction, mode: str) -> None:
        await commands.cmd_dm(interaction, mode == "on")

    @group.command(name=ls("look", "dc.cmd.look.name"),
                   description=ls("Tables and hands here as pictures or as text", "dc.cmd.look.desc"))
    @app_commands.rename(mode=ls("as", "dc.opt.look.name"))
    @app_commands.describe(mode=ls("pictures or text", "dc.opt.look.desc"))
    @app_commands.choices(mode=[app_commands.Choice(name=ls("pictures", "dc.look.pictures"), value="pictures"),
                                app_commands.Choice(name=ls("text", "dc.look.text"), value="text")])
    async def look(interaction: discord.Interaction, mode: str) -> None:
        await commands.cmd_look(interaction, mode == "pictures")

    _stats_commands(group, commands, lobby)
    return group

def _stats_commands(group: app_commands.Group, commands: Commands, lobby: Lobby) -> None:
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
        await commands.cmd_stats(interaction, "leaderboard", args)

    @words("stats", "A player's record per game", "player", "Whose (default: you)")
    async def stats(interaction: discord.Interaction, player: str = "") -> None:
        await commands.cmd_stats(interaction, "stats", player)

    @words("teams", "Team records", "game", "Which game (default: the latest)")
    async def teams(interaction: discord.Interaction, game: str = "") -> None:
        await commands.cmd_stats(interaction, "teams", game)

    @words("team", "Name your team: name <name>", "text", "name <name>")
    async def team(interaction: discord.Interaction, text: str) -> None:
        await commands.cmd_stats(interaction, "team", text)

    @words("history", "Recent matches here", "count", "How many (default 10)")
    async def history(interaction: discord.Interaction, count: str = "") -> None:
        await commands.cmd_stats(interaction, "history", count)

    @group.command(name=ls("rematch", "dc.cmd.rematch.name"),
                   description=ls("Same seats and options, new deal", "dc.cmd.rematch.desc"))
    async def rematch(interaction: discord.Interaction) -> None:
        await lobby.cmd_rematch(interaction)
