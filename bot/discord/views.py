"""Embeds and components for Discord, built from the table record, the view and the engine grammar.

Every button and select carries a custom id written by the shared codec (`v1:<table>:<version>:…`,
≤ 100 characters), wrapped in one `DynamicItem` class: discord.py routes any component whose id
matches the template to it, with or without a view in memory, so buttons survive a restart.
No game rule lives here: hand buttons come from the view's items and the engine's legal moves.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.core.codec import DISCORD_MAX_CHARS, encode, mask_of
from bot.core.grammar import controls, hand_items, move_template, moves
from bot.core.i18n import has, t
from bot.core.options_ui import option_choices, option_line, option_name, show_value
from bot.core.text import fit
from bot.discord.limits import EMBED_DESC_MAX, EMBED_TITLE_MAX
from rules import get_engine
from storage import TableRecord

CUSTOM_ID = re.compile(r"v1:[0-9A-Za-z_-]{1,32}:(?:0|[1-9][0-9]{0,8}):[\x21-\x7e][\x20-\x7e]{0,80}")
MAX_OPTIONS = 25  # a select menu holds 25 options: a bigger hand gets one select per 25 items
MAX_HAND_SELECTS = 3  # rows 0..2 at most; one row is kept for the moves
MAX_ACTIONS = 15  # three rows of five; row 0 is the select, row 4 refresh and sort
EMBED_MAX = 4000
EXTRA_MAX = 1000  # the lines under an embed's code block (events, whose turn); the block keeps the rest
COLOUR = 0x2E8B57

class CodecItem(discord.ui.DynamicItem[discord.ui.Item[Any]], template=CUSTOM_ID):
    """Any of our buttons or selects. discord.py matches the custom id against the template, so a
    message sent before a restart still reaches the adapter (found through the client)."""

    def __init__(self, item: discord.ui.Item[Any]) -> None:
        super().__init__(item)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CodecItem:
        return cls(item)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        # Seat ownership: a hand's buttons act only for the seat they were made for.
        return await interaction.client.rummy.owns(interaction, self.custom_id)  # type: ignore[attr-defined,no-any-return]

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(getattr(self.item, "values", []) or [])
        await interaction.client.rummy.on_component(interaction, self.custom_id, values)  # type: ignore[attr-defined]


def cid(table_id: str, version: int, verb: str, *args: str | int) -> str:
    return encode(table_id, version, verb, *args, max_bytes=DISCORD_MAX_CHARS)


def button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None) -> CodecItem:
    return CodecItem(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row))


def new_view(items: list[CodecItem]) -> discord.ui.View:
    """Only a layout: stopped at once, so discord.py never keeps it in its view store (nor runs the
    15-minute timeout of ephemeral views, whose removal could drop the dynamic item). Presses reach
    the adapter through the `CodecItem` registered on the client."""
    view = discord.ui.View(timeout=None)
    for item in items:
        view.add_item(item)
    view.stop()
    return view


def _inert(text: str) -> str:
    """A fence inside a block would close it early (or open one): shown as quotes instead."""
    return text.replace("```", "'''")


def code_block(text: str, limit: int = EMBED_MAX) -> str:
    """`text` as a code block of at most `limit` characters (cut on a line with "…")."""
    return f"```\n{fit(_inert(text), max(1, limit - 8))}\n```"


def embed(title: str, body: str, extra: str = "") -> discord.Embed:
    """A code block with the body and, under it, the extra lines, within every embed limit."""
    extra = fit(_inert(extra), EXTRA_MAX)  # names in event lines may hold fences too
    desc = code_block(body, EMBED_DESC_MAX - len(extra) - 1)
    if extra:
        desc += "\n" + extra
    return discord.Embed(title=fit(title, EMBED_TITLE_MAX) or None, description=desc, colour=COLOUR)


# ---- lobby and table --------------------------------------------------------------------------


def lobby_view(rec: TableRecord, lang: str) -> discord.ui.View:
    v = rec.version
    return new_view([
        button(t("tg.btn.join", lang), cid(rec.id, v, "join"), discord.ButtonStyle.success, row=0),
        button(t("tg.btn.leave", lang), cid(rec.id, v, "leave"), row=0),
        button(t("tg.btn.add_ai", lang), cid(rec.id, v, "addai"), row=0),
        button(t("tg.btn.remove_ai", lang), cid(rec.id, v, "rmai"), row=0),
        button(t("tg.btn.options", lang), cid(rec.id, v, "options"), row=1),
        button(t("tg.btn.start", lang), cid(rec.id, v, "start"), discord.ButtonStyle.primary, row=1),
        button(t("tg.btn.cancel", lang), cid(rec.id, v, "cancel"), discord.ButtonStyle.danger, row=1),
    ])


def options_view(rec: TableRecord, lang: str, key_index: int | None) -> discord.ui.View:
    """The host's option screen (ephemeral): pick an option, then one of the values its game's
    options model accepts. Built from the model, so every option of every game is reachable."""
    engine = get_engine(rec.game)
    model = engine.options_model
    keys = list(model.model_fields)[:25]  # a select holds 25 entries
    v = rec.version
    key_options = [
        discord.SelectOption(label=option_line(key, rec.options.get(key), lang)[:100], value=str(i),
                             default=i == key_index)
        for i, key in enumerate(keys)
    ]
    items = [CodecItem(discord.ui.Select(custom_id=cid(rec.id, v, "optkey"), options=key_options, row=0,
                                         placeholder=t("dc.pick_option", lang)))]
    if key_index is not None:
        key = keys[key_index]
        choices = option_choices(model, rec.options, key, engine.max_seats)[:25]
        value_options = [
            discord.SelectOption(label=show_value(c, lang, key)[:100], value=str(j),
                                 default=c == rec.options.get(key))
            for j, c in enumerate(choices)
        ]
        items.append(CodecItem(discord.ui.Select(custom_id=cid(rec.id, v, "setopt", key_index),
                                                 options=value_options, row=1,
                                                 placeholder=option_name(key, lang)[:150])))
    return new_view(items)


def table_view(rec: TableRecord, lang: str) -> discord.ui.View:
    # Version 0: the button acts for whoever presses it, so it never goes out of date.
    return new_view([button(t("dc.btn.my_hand", lang), cid(rec.id, 0, "hand"), discord.ButtonStyle.primary)])


# ---- hands ------------------------------------------------------------------------------------


def _label(key: str, verb: str, lang: str) -> str:
    return t(key, lang) if has(key, lang) else verb


def _move_targets(rec: TableRecord, view: dict[str, Any], seat: int, source: int, lang: str) -> list[CodecItem]:
    """Where the table item picked for a move goes: an option of the move's destination slot."""
    found = move_template(moves(get_engine(rec.game), view))
    out: list[CodecItem] = []
    if found is not None:
        index, tpl = found
        targets = tpl.open_slots()[1]
        out = [button(t("tg.btn.to_new", lang) if o == "new" else f"→{targets.label(o)}",
                      cid(rec.id, rec.version, "mv", seat, index, source, k),
                      discord.ButtonStyle.primary if o == "new" else discord.ButtonStyle.secondary)
               for k, o in enumerate(targets.options)]
    out = out[:MAX_ACTIONS - 1]
    out.append(button(t("tg.btn.back", lang), cid(rec.id, rec.version, "back", seat)))
    for i, item in enumerate(out):
        item.row = 1 + i // 5
    return out


def hand_view(rec: TableRecord, view: dict[str, Any], seat: int, selected: list[int], lang: str,
              moving: int | None = None) -> discord.ui.View:
    """Select menus of the hand's items (one per 25, what a move acts on), the legal moves for the
    pick, a select of the table's items when the game can move them, and Refresh/Sort. Off turn only
    Refresh and Sort. `moving`: the table item (move option) picked to move, whose targets show."""
    v = rec.version
    items: list[CodecItem] = []
    tail = [
        button(t("dc.btn.refresh", lang), cid(rec.id, 0, "hand", seat), row=4),
        button(t("tg.btn.sort", lang), cid(rec.id, 0, "sort", seat), row=4),
    ]
    if rec.status != "playing" or view.get("turn") != seat:
        return new_view(tail)
    templates = moves(get_engine(rec.game), view)
    found = move_template(templates)
    if moving is not None and found is not None:
        return new_view(_move_targets(rec, view, seat, moving, lang) + tail)
    hand = hand_items(view)
    parts = [range(start, min(start + MAX_OPTIONS, len(hand))) for start in range(0, len(hand), MAX_OPTIONS)]
    for part, span in enumerate(parts[:MAX_HAND_SELECTS]):
        options = [discord.SelectOption(label=hand[i], value=str(i), default=i in selected) for i in span]
        placeholder = t("dc.pick", lang) + (f" ({span.start + 1}–{span.stop})" if len(parts) > 1 else "")
        select = discord.ui.Select(custom_id=cid(rec.id, v, "pick", seat, part), placeholder=placeholder[:150],
                                   min_values=0, max_values=len(options), options=options, row=part)
        items.append(CodecItem(select))
    first_row = len(items)
    mask = mask_of(selected)
    picked = [hand[i] for i in selected if i < len(hand)]
    actions: list[CodecItem] = []
    for c in controls(templates, picked):
        label = _label(c.label_key, c.verb, lang)
        if c.detail:
            label = f"{label} →{c.detail}" if c.with_items else f"{label} {c.detail}"
        elif c.with_items:
            label += " ✓"
        args: list[str | int] = [seat, c.index, mask if c.with_items else "0"]
        if c.option is not None:
            args.append(c.option)
        style = discord.ButtonStyle.success if c.with_items else discord.ButtonStyle.primary
        actions.append(button(label, cid(rec.id, v, "cmd", *args), style))
    if found is not None and not selected and first_row < 3:
        pieces = found[1].open_slots()[0]
        options = [discord.SelectOption(label=pieces.label(o)[:100], value=str(k))
                   for k, o in enumerate(pieces.options[:MAX_OPTIONS])]
        items.append(CodecItem(discord.ui.Select(custom_id=cid(rec.id, v, "mvt", seat), options=options,
                                                 row=first_row, placeholder=t("dc.move_pick", lang),
                                                 min_values=1, max_values=1)))
        first_row += 1
    room = (4 - first_row) * 5
    for i, act in enumerate(actions[:room]):
        act.row = first_row + i // 5
        items.append(act)
    return new_view(items + tail)
