"""Presses of our buttons and selects: ownership (the items' interaction_check), the lobby's, and a
hand's: sorting and pages here; picks, staging, the two-step table-item move and moves handed to the
service, which decodes them against the table it reads once (bot/core/presses.py), the hand screen
kept in the store (HandUIs).

A press on a hand is answered by the hand itself (one call: type 7 in place, type 4 for "My hand")
unless the work runs past the budget, when it is deferred first; Refresh and the lobby's presses are
acknowledged at entry."""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.core.codec import ButtonData, CodecError, decode
from bot.core.i18n import t
from bot.core.log_context import about_chat
from bot.core.models import Player, ServiceError
from bot.core.presenter.games import IllegalAction
from bot.core.presses import (
    BUTTON_VERBS,
    ChoosePiece,
    NotYours,
    Pick,
    Played,
    Press,
    Presser,
    Shown,
    button_press,
    ints,
)
from bot.discord import answer
from bot.discord import views as ui
from bot.discord.commands import Commands
from bot.discord.common import PLATFORM, error_text, interaction_key, player_of
from bot.discord.context import DcContext
from bot.discord.hints import hint_line
from bot.discord.interactions import Interactions
from bot.discord.lobby import LOBBY_VERBS, OPTION_VERBS, Lobby
from bot.discord.moves import Moves
from bot.discord.render import Render
from storage import TableRecord
from storage.unavailable import unavailable

log = logging.getLogger(__name__)

# A hand's presses answered with the new hand screen (their first argument is the seat).
DIRECT_VERBS = ("sort", "page", "hint", *BUTTON_VERBS)
SEAT_VERBS = ("hand", *DIRECT_VERBS)


def _direct(data: ButtonData) -> bool:
    """Answered by the work itself (the hand), within the budget: the hand's presses and "My hand"."""
    return data.verb in DIRECT_VERBS or (data.verb == "hand" and not data.args)


def _opens_message(data: ButtonData) -> bool:
    """A press answered with a new ephemeral message (a hand from the table message or a ping, the
    host's options screen) rather than an edit of the message it sits on."""
    return data.verb == "options" or (data.verb == "hand" and not data.args)


def _ints(args: Sequence[str], count: int) -> list[int]:
    if len(args) != count or not all(a.isdigit() for a in args):
        raise CodecError("bad arguments")
    return [int(a) for a in args]


class Components:
    """What our DynamicItem (views.CodecItem) hands a press to: `owns` checks it, `on_component` answers it."""

    def __init__(self, ctx: DcContext, ia: Interactions, render: Render, lobby: Lobby, commands: Commands,
                 moves: Moves) -> None:
        self.ctx = ctx
        self.service = ctx.service
        self.store = ctx.store
        self.uis = ctx.uis
        self.ia = ia
        self.render = render
        self.lobby = lobby
        self.commands = commands
        self.moves = moves

    async def owns(self, interaction: discord.Interaction, custom_id: str) -> bool:
        """The items' interaction_check: a seat's button pressed by someone else is answered here
        (privately) and never reaches on_component."""
        answer.arrived(interaction)
        try:
            data = decode(custom_id)
            if not data.args or not data.args[0].isdigit() or data.verb not in SEAT_VERBS:
                return True
            if data.verb in BUTTON_VERBS:
                return True  # decoded by the service, which reads the table once and says whose buttons
            if data.verb not in DIRECT_VERBS:
                await answer.ack(interaction, update=not _opens_message(data))
            rec = await self.ia.within(interaction, self.store.get_table(data.table_id), update=True)
            interaction.extras["rec"] = rec  # read once per press
            seat = self.service.seat_of(rec, player_of(interaction.user)) if rec is not None else None
            if seat is None or int(data.args[0]) == seat:
                return True  # unseated or unknown: on_component gives the precise refusal
            await self.ia.refuse(interaction, t("dc.not_your_buttons", self.ia.ulang(interaction)))
        except Exception as err:  # a failing check must still let the press be answered
            self.ctx.errors.append(err)
            log.exception("ownership check failed for %s", custom_id)
            return True
        await self.ia.mark_processed(interaction)
        return False

    async def on_component(self, interaction: discord.Interaction, custom_id: str, values: list[str]) -> None:
        about_chat(PLATFORM, interaction.channel_id)  # discord.py runs each interaction in a task of its own
        lang = self.ia.ulang(interaction)
        try:
            data = decode(custom_id)
            if _direct(data):
                work = self._component(interaction, data, values, lang)
                await self.ia.within(interaction, work, update=not _opens_message(data))
            else:
                await answer.ack(interaction, update=not _opens_message(data))
                await self._component(interaction, data, values, lang)
        except (ServiceError, IllegalAction) as err:
            await self.ia.refuse(interaction, error_text(err, lang, interaction.extras.get("game")))
        except CodecError:
            await self.ia.refuse(interaction, t("error.E_BAD_BUTTON", lang))
        except Exception as err:  # a broken handler must still answer, or Discord shows "failed"
            if unavailable(err):  # the store out of reach outside the service: nothing was done
                log.warning("component %s not handled, the store is unreachable: %s", custom_id, err)
                await self.ia.refuse(interaction, t("error.E_STORE_UNAVAILABLE", lang))
                return
            self.ctx.errors.append(err)
            log.exception("component %s failed", custom_id)
            await self.ia.refuse(interaction, t("dc.error", lang))
        finally:
            await self.ia.mark_processed(interaction)

    async def _component(self, interaction: discord.Interaction, data: ButtonData, values: list[str],
                         lang: str) -> None:
        if data.verb in BUTTON_VERBS:
            await self._press(interaction, data, values, lang)
            return
        rec = interaction.extras.pop("rec", None) or await self.store.get_table(data.table_id)
        if rec is None or rec.platform != PLATFORM:
            raise ServiceError("E_NO_TABLE")
        interaction.extras["game"] = rec.game
        verb = data.verb
        if verb in LOBBY_VERBS:
            await self.lobby.lobby_action(interaction, rec, verb, data.args, from_button=True)
            return
        if verb in OPTION_VERBS:
            await self.lobby.options_action(interaction, rec, data, values, lang)
            return
        if verb not in SEAT_VERBS:
            raise CodecError("unknown action")
        me = player_of(interaction.user)
        seat = self.service.playing_seat(rec, me)
        if verb == "hand" and not data.args:  # "My hand" on the table message or a ping: a new ephemeral hand
            await self.commands.show_hand(interaction, rec)
            return
        if not data.args or not data.args[0].isdigit():
            raise CodecError("bad seat")
        if int(data.args[0]) != seat:
            await answer.say(interaction, t("dc.not_your_buttons", lang))
            return
        await self._hand_press(interaction, rec, me, seat, data, values, lang)

    async def _hand_press(self, interaction: discord.Interaction, rec: TableRecord, me: Player, seat: int,
                          data: ButtonData, values: list[str], lang: str) -> None:
        verb, args = data.verb, data.args[1:]
        screen = await self.uis.get(rec.id, seat)
        if verb in ("hand", "sort", "page"):  # version 0: never stale, they change only how the hand looks
            if verb == "sort":
                await self.uis.update(rec.id, seat, by_number=not screen.by_number)
            elif verb == "page":
                await self.uis.update(rec.id, seat, page=_ints(args, 1)[0])
            await self.render.show_hand_here(interaction, rec, seat, lang)
            return
        if verb == "hint":  # version 0 too: the hand answers with the hint (or why none) as its note
            try:
                note = await hint_line(self.service, rec.id, me, lang)
            except ServiceError as err:
                note = error_text(err, lang, rec.game)
            await self.render.show_hand_here(interaction, await self.service.get(rec.id), seat, lang, content=note)
            return
        raise CodecError("bad press")  # the presses on a hand went to `_press`

    async def _press(self, interaction: discord.Interaction, data: ButtonData, values: list[str], lang: str) -> None:
        """A press on a hand (`<verb> <seat> …`, a select's `values`): decoded and applied by the
        service in one read of the table under its gate; answered with the new hand in place."""
        if not data.args or not data.args[0].isdigit():
            raise CodecError("bad seat")
        verb, args = data.verb, data.args[1:]
        pressed: Press
        if verb == "pick":  # pick <seat> <part>: one select per 25 items, a press changes only its own part
            (part,) = ints(args, 1)
            pressed = Pick(tuple(ints(values, len(values))), range(part * ui.MAX_OPTIONS, (part + 1) * ui.MAX_OPTIONS))
        elif verb == "mvt":  # mvt <seat> <part>, the value: the table item (an option of the move)
            pressed = ChoosePiece(ints(values, 1)[0])
        else:
            pressed = button_press(verb, args)
        me = player_of(interaction.user)
        result = await self.service.press(data.table_id, Presser(me, int(data.args[0])), pressed, self.uis,
                                          version=data.version, key=interaction_key(interaction), platform=PLATFORM)
        if isinstance(result, Shown):
            interaction.extras["game"] = result.table.game
            await self.render.show_hand_here(interaction, result.table, result.seat, lang)
        elif isinstance(result, NotYours):
            await answer.say(interaction, t("dc.not_your_buttons", lang))
        elif isinstance(result, Played):
            await self.moves.shown(interaction, result.outcome, me, result.seat, result.command, result.prev_turn,
                                   update=True)
        else:
            rec, err = result.table, result.error
            interaction.extras["game"] = rec.game if rec is not None else None
            if isinstance(err, CodecError) or rec is None or result.seat is None:
                raise err  # answered by `on_component`
            await self.render.show_hand_here(interaction, rec, result.seat, lang, content=error_text(err, lang, rec.game))
