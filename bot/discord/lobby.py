"""The lobby on Discord: `/rummy new` (options typed as everywhere else), the lobby buttons and
commands (join, leave, AI seats, start, cancel), the host's option screens, and `/rummy rematch`."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.core.ai_seats import button_level
from bot.core.codec import ButtonData, CodecError
from bot.core.i18n import t
from bot.core.models import ServiceError
from bot.core.options_text import options_from_text
from bot.core.options_ui import option_choices
from bot.core.presenter.games import max_seats, options_model
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.common import PLATFORM, interaction_key, is_admin, player_of, shard_key
from bot.discord.context import DcContext
from bot.discord.interactions import Interactions
from bot.discord.render import Render
from bot.discord.translator import lang_of
from storage import TableRecord

LOBBY_VERBS = ("join", "leave", "addai", "rmai", "start", "cancel")
OPTION_VERBS = ("options", "optkey", "setopt")


class Lobby:
    def __init__(self, ctx: DcContext, ia: Interactions, render: Render) -> None:
        self.service = ctx.service
        self.delivery = ctx.delivery
        self.ia = ia
        self.render = render

    async def cmd_new(self, interaction: discord.Interaction, game: str, thread: bool, options: str = "") -> None:
        async def work() -> None:
            lang = self.ia.ulang(interaction)
            if interaction.guild_id is None or interaction.channel_id is None:
                await answer.say(interaction, t("dc.guild_only", lang))
                return
            opts = options_from_text(options)  # turn_timer_s=120 match_games=3, as Telegram's /new takes them
            rec = await self.service.open_table(game, PLATFORM, str(interaction.channel_id), player_of(interaction.user),
                                                options=opts, key=interaction_key(interaction),
                                                shard_key=shard_key(interaction.guild_id))
            await self.delivery.set_ref(rec.id, "lang", lang_of(interaction.guild_locale) or lang)
            await answer.say(interaction, t("dc.opened", lang, game=t(f"game.{rec.game}", lang)))  # answer first
            target = interaction.channel_id
            if thread and isinstance(interaction.channel, discord.TextChannel):
                created = await interaction.channel.create_thread(
                    name=t("dc.thread_name", lang, game=t(f"game.{rec.game}", lang)),
                    type=discord.ChannelType.public_thread, auto_archive_duration=1440)
                target = created.id
            await self.delivery.set_ref(rec.id, "channel", str(target))
            await self.render.render_lobby(rec)
        await self.ia.guarded(interaction, work())

    async def cmd_lobby(self, interaction: discord.Interaction, verb: str) -> None:
        async def work() -> None:
            rec = await self.ia.need_table(interaction)
            await self.lobby_action(interaction, rec, verb, (), from_button=False)
        await self.ia.guarded(interaction, work())

    async def lobby_action(self, interaction: discord.Interaction, rec: TableRecord, verb: str,
                            args: Sequence[str], from_button: bool) -> None:
        me = player_of(interaction.user)
        lang = self.ia.ulang(interaction)
        if rec.status != "lobby":
            raise ServiceError("E_NOT_PLAYING" if verb == "cancel" else "E_NOT_IN_LOBBY")
        note: str | None = None
        key = interaction_key(interaction)
        if verb == "join":
            rec = await self.service.join(rec.id, me, key=key)
            note = t("dc.joined", lang)
        elif verb == "leave":
            rec = await self.service.leave(rec.id, me, key=key)
            note = t("dc.left", lang)
        elif verb == "addai":
            rec = await self.service.add_ai(rec.id, me, level=button_level(args), key=key)
        elif verb == "rmai":
            rec = await self.service.remove_ai(rec.id, me, key=key)
        elif verb == "cancel":
            rec = await self.service.end_table(rec.id, me, is_admin=is_admin(interaction, rec), key=key)
            await self.render.render_closed(rec, "lobby.abandoned", interaction if from_button else None)
            if not from_button:
                await answer.say(interaction, t("lobby.abandoned", lang))
            return
        elif verb == "start":
            outcome = await self.ia.within(interaction, self.service.start(rec.id, me, key=key), update=from_button)
            if not from_button:
                await answer.say(interaction, t("dc.started", lang))
            await self.render.render_outcome(outcome, interaction=interaction if from_button else None)
            return
        if from_button:
            await self.render.render_lobby(rec, interaction)
        else:
            await answer.say(interaction, note or "✓")
            await self.render.render_lobby(rec)

    async def options_action(self, interaction: discord.Interaction, rec: TableRecord, data: ButtonData,
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
        model = options_model(rec.game)
        keys = list(model.model_fields)[:25]
        if data.verb == "options":
            await answer.say(interaction, t("dc.options_title", lang), view=ui.options_view(rec, lang, None))
            return
        if len(values) != 1 or not values[0].isdigit():
            raise CodecError("bad option choice")
        if data.verb == "optkey":
            index = int(values[0])
            if index >= len(keys):
                raise CodecError("bad option")
            await answer.edit_here(interaction, view=ui.options_view(rec, lang, index))
            return
        if not data.args or not data.args[0].isdigit() or int(data.args[0]) >= len(keys):
            raise CodecError("bad option")
        index = int(data.args[0])
        choices = option_choices(model, rec.options, keys[index], max_seats(rec.game))[:25]
        if int(values[0]) >= len(choices):
            raise CodecError("bad option value")
        rec = await self.service.set_option(rec.id, me, keys[index], choices[int(values[0])], key=interaction_key(interaction))
        await answer.edit_here(interaction, view=ui.options_view(rec, lang, index))
        await self.render.render_lobby(rec)

    async def cmd_rematch(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            lang = self.ia.ulang(interaction)
            rec = await self.service.rematch(PLATFORM, str(interaction.channel_id), player_of(interaction.user),
                                             key=interaction_key(interaction), shard_key=shard_key(interaction.guild_id))
            await self.delivery.set_ref(rec.id, "lang", lang_of(interaction.guild_locale) or lang)
            await answer.say(interaction, t("stats.rematch_opened", lang))
            await self.delivery.set_ref(rec.id, "channel", str(interaction.channel_id))
            await self.render.render_lobby(rec)
        await self.ia.guarded(interaction, work())

