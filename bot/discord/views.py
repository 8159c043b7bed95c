"""Embeds and components for Discord, laid out from the presenter's panels and hand controls.

Every button and select carries a custom id written by the shared codec (`v1:<table>:<version>:…`,
≤ 100 characters), wrapped in one `DynamicItem` class: discord.py routes any component whose id
matches the template to it, with or without a view in memory, so buttons survive a restart.
No game rule lives here: hand controls come from the presenter (the engines' legal moves).
"""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.core.ai_seats import level_labels
from bot.core.codec import DISCORD_MAX_CHARS, encode, mask_of
from bot.core.hints import offers_hint
from bot.core.i18n import t
from bot.core.options_ui import option_choices, option_line, option_name, show_value
from bot.core.presenter import HandControls, HandPanel, TablePanel, staging_lines
from bot.core.presenter.games import max_seats, options_model
from bot.core.render import render_lobby
from bot.core.text import fit
from bot.discord.limits import EMBED_DESC_MAX, EMBED_TITLE_MAX, FIELD_MAX
from bot.discord.safe import plain
from storage import TableRecord

CUSTOM_ID = re.compile(r"v1:[0-9A-Za-z_-]{1,32}:(?:0|[1-9][0-9]{0,8}):[\x21-\x7e][\x20-\x7e]{0,80}")
MAX_OPTIONS = 25  # a select menu holds 25 options: more items get one select per 25
ROW_WIDTH = 5  # buttons in an action row
CONTROL_ROWS = 4  # of a message's five rows; the last holds Refresh, Sort and the next page
EMBED_MAX = 4000
EXTRA_MAX = 1000  # the lines under an embed's code block (events, whose turn); the block keeps the rest
COLOUR = 0x2E8B57
TABLE_PNG = "table.png"  # the attachment names embeds point at (`attachment://…`)
HAND_PNG = "hand.png"


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
        # `rummy` is the presses' handler (components.Components), set on the client by DiscordBot.attach:
        # discord.Client does not declare it.
        return await interaction.client.rummy.owns(interaction, self.custom_id)  # type: ignore[attr-defined]

    async def callback(self, interaction: discord.Interaction) -> None:
        values = list(getattr(self.item, "values", []) or [])
        await interaction.client.rummy.on_component(interaction, self.custom_id, values)  # type: ignore[attr-defined]  # as above


def cid(table_id: str, version: int, verb: str, *args: str | int) -> str:
    return encode(table_id, version, verb, *args, max_bytes=DISCORD_MAX_CHARS)


def button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           row: int | None = None) -> CodecItem:
    return CodecItem(discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, row=row))


def link(label: str, url: str, row: int | None = None) -> discord.ui.Button[Any]:
    """A button that opens `url` (no custom id: Discord opens it, nothing reaches the bot)."""
    return discord.ui.Button(label=label[:80], url=url, style=discord.ButtonStyle.link, row=row)


def new_view(items: Sequence[discord.ui.Item[Any]]) -> discord.ui.View:
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


def embed(title: str, body: str, extra: str = "", image: str | None = None) -> discord.Embed:
    """A code block with the body and, under it, the extra lines, within every embed limit. With an
    `image` (an attachment's name) the picture stands for the body: only the extra lines are text."""
    extra = fit(_inert(extra), EXTRA_MAX)  # names in event lines may hold fences too
    if image is not None:
        out = discord.Embed(title=fit(title, EMBED_TITLE_MAX) or None, description=extra or None, colour=COLOUR)
        return out.set_image(url=f"attachment://{image}")
    desc = code_block(body, EMBED_DESC_MAX - len(extra) - 1)
    if extra:
        desc += "\n" + extra
    return discord.Embed(title=fit(title, EMBED_TITLE_MAX) or None, description=desc, colour=COLOUR)


def png(name: str, data: bytes) -> discord.File:
    """A picture to attach (a File is read once: one per request)."""
    return discord.File(io.BytesIO(data), filename=name)


# ---- lobby and table --------------------------------------------------------------------------


def lobby_view(rec: TableRecord, lang: str) -> discord.ui.View:
    """Three rows: seats for players, AI seats (one Add button per level, so a level is one press,
    and Remove), then the host's Options, Start and Cancel."""
    v = rec.version
    add_ai = [button(label, cid(rec.id, v, "addai", level), row=1) for level, label in level_labels(lang)]
    return new_view([
        button(t("tg.btn.join", lang), cid(rec.id, v, "join"), discord.ButtonStyle.success, row=0),
        button(t("tg.btn.leave", lang), cid(rec.id, v, "leave"), row=0),
        *add_ai,
        button(t("tg.btn.remove_ai", lang), cid(rec.id, v, "rmai"), row=1),
        button(t("tg.btn.options", lang), cid(rec.id, v, "options"), row=2),
        button(t("tg.btn.start", lang), cid(rec.id, v, "start"), discord.ButtonStyle.primary, row=2),
        button(t("tg.btn.cancel", lang), cid(rec.id, v, "cancel"), discord.ButtonStyle.danger, row=2),
    ])


def options_view(rec: TableRecord, lang: str, key_index: int | None) -> discord.ui.View:
    """The host's option screen (ephemeral): pick an option, then one of the values its game's
    options model accepts. Built from the model, so every option of every game is reachable."""
    model = options_model(rec.game)
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
        choices = option_choices(model, rec.options, key, max_seats(rec.game))[:25]
        value_options = [
            discord.SelectOption(label=show_value(c, lang, key)[:100], value=str(j),
                                 default=c == rec.options.get(key))
            for j, c in enumerate(choices)
        ]
        items.append(CodecItem(discord.ui.Select(custom_id=cid(rec.id, v, "setopt", key_index),
                                                 options=value_options, row=1,
                                                 placeholder=option_name(key, lang)[:150])))
    return new_view(items)


def relative_time(deadline: float | None) -> str:
    """A deadline Discord's clients count down by themselves (`<t:…:R>`): no edit as time passes."""
    return f"⏱ <t:{int(deadline)}:R>" if deadline is not None else ""


def table_embed(panel: TablePanel, turn_name: str | None, last_round: str | None = None,
                picture: bool = False) -> discord.Embed:
    """The table message: the body in a code block (names literal) or the picture; under it, the
    most urgent first, whose turn (a mention pill, which in an embed notifies nobody) with the live
    deadline or why the table closed, then the newest event lines newest first; the last round's result (already escaped)
    in a field while the match goes on. Lines that do not fit are left off whole from the end (the
    oldest events), so the newest event and the deadline are never the part cut."""
    extra = [t("lobby.restored", panel.lang)] if panel.restored else []
    if turn_name is not None:
        extra.append(" ".join(x for x in (t("dc.turn_line", panel.lang, name=turn_name),
                                          relative_time(panel.deadline)) if x))
    if panel.note:  # why the table closed: the newest news of a closed table
        extra.append(panel.note)
    first = len(extra)
    extra += [plain(line) for line in reversed(panel.lines)]
    kept = extra[:max(1, first)]
    for line in extra[len(kept):]:
        if len(_inert("\n".join([*kept, line]))) > EXTRA_MAX:
            break
        kept.append(line)
    out = embed(panel.title, panel.body, "\n".join(kept).strip(), TABLE_PNG if picture else None)
    if last_round and panel.playing:
        out.add_field(name=t("dc.last_round", panel.lang), value=fit(last_round, FIELD_MAX), inline=False)
    return out


def lobby_embed(rec: TableRecord, lang: str) -> discord.Embed:
    return embed(t(f"game.{rec.game}", lang), render_lobby(rec, lang, max_seats(rec.game)), t("dc.lobby_hint", lang))


def table_view(rec: TableRecord, lang: str, watch: str | None = None) -> discord.ui.View:
    """My hand and, with the web table on, the spectator's link (the public view only)."""
    # Version 0: the button acts for whoever presses it, so it never goes out of date.
    items: list[discord.ui.Item[Any]] = [button(t("dc.btn.my_hand", lang), cid(rec.id, 0, "hand"),
                                                discord.ButtonStyle.primary)]
    if watch is not None:
        items.append(link(t("dc.btn.web_table", lang), watch))
    return new_view(items)


# ---- hands ------------------------------------------------------------------------------------


def _selects(rec: TableRecord, seat: int, verb: str, options: list[discord.SelectOption], placeholder: str,
             many: bool) -> list[list[CodecItem]]:
    """One select per 25 options, each a row of its own (`<verb> <seat> <part>`): nothing is dropped."""
    rows = []
    parts = range(0, len(options), MAX_OPTIONS)
    for part, start in enumerate(parts):
        chunk = options[start:start + MAX_OPTIONS]
        label = placeholder + (f" ({start + 1}–{start + len(chunk)})" if len(parts) > 1 else "")
        rows.append([CodecItem(discord.ui.Select(
            custom_id=cid(rec.id, rec.version, verb, seat, part), placeholder=label[:150], options=chunk,
            min_values=0 if many else 1, max_values=len(chunk) if many else 1))])
    return rows


def _buttons(items: list[CodecItem]) -> list[list[CodecItem]]:
    return [items[i:i + ROW_WIDTH] for i in range(0, len(items), ROW_WIDTH)]


def hand_pages(rec: TableRecord, seat: int, c: HandControls, lang: str) -> list[list[list[CodecItem]]]:
    """Every control of the seat's hand as pages of at most four rows (a select alone, or up to
    five buttons): the item pickers, then the table items to move, with the moves on every page
    while they fit in two rows (so `draw` never hides behind a page); or, while a table item is
    being moved, where it can go and Back."""
    v = rec.version
    if c.moving is not None and c.move_index is not None:
        targets = [button(d.label if d.new else f"→{d.label}", cid(rec.id, v, "mv", seat, c.move_index, c.moving, d.option),
                          discord.ButtonStyle.primary if d.new else discord.ButtonStyle.secondary) for d in c.targets]
        return _paged(_buttons([*targets, button(t("tg.btn.back", lang), cid(rec.id, v, "back", seat))]))
    selects = _selects(rec, seat, "pick", [discord.SelectOption(label=i.label[:100], value=str(i.index),
                                                                default=i.selected) for i in c.items],
                       t("dc.pick", lang), many=True)
    if c.pieces:
        selects += _selects(rec, seat, "mvt", [discord.SelectOption(label=p.label[:100], value=str(p.option))
                                               for p in c.pieces], t("dc.move_pick", lang), many=False)
    mask = mask_of(list(c.picks))
    buttons = []
    for a in c.actions:
        args: list[str | int] = [seat, a.index, mask if a.with_items else "0"]
        if a.option is not None:
            args.append(a.option)
        style = discord.ButtonStyle.success if a.with_items else discord.ButtonStyle.primary
        buttons.append(button(a.label, cid(rec.id, v, "cmd", *args), style))
    actions = _buttons([*_suggested(rec, seat, c), *_staging(rec, seat, c, lang), *buttons])
    if len(selects) + len(actions) <= CONTROL_ROWS or len(actions) > 2 or not selects:
        return _paged(selects + actions)
    room = CONTROL_ROWS - len(actions)
    return [selects[i:i + room] + actions for i in range(0, len(selects), room)]


def _suggested(rec: TableRecord, seat: int, c: HandControls) -> list[CodecItem]:
    """The engine's suggested moves (issue 25), one press each: `sug <seat> <index>`."""
    return [button(s.label, cid(rec.id, rec.version, "sug", seat, s.index), discord.ButtonStyle.success)
            for s in c.suggestions]


def _staging(rec: TableRecord, seat: int, c: HandControls, lang: str) -> list[CodecItem]:
    """Stage the picks as a meld, take a staged meld back (by its number), clear the staging."""
    v = rec.version
    out = [button(t("stage.btn.stage", lang), cid(rec.id, v, "stage", seat))] if c.can_stage else []
    if c.staging is not None:
        out += [button(t("stage.btn.unstage", lang, number=m.number) + " " + " ".join(m.items),
                       cid(rec.id, v, "unstage", seat, m.number)) for m in c.staging.melds]
        out.append(button(t("stage.btn.clear", lang), cid(rec.id, v, "clear", seat), discord.ButtonStyle.danger))
    return out


def _paged(rows: list[list[CodecItem]]) -> list[list[list[CodecItem]]]:
    return [rows[i:i + CONTROL_ROWS] for i in range(0, len(rows), CONTROL_ROWS)] or [[]]


def hand_view(rec: TableRecord, seat: int, controls: HandControls, lang: str, page: int = 0,
              web: str | None = None) -> discord.ui.View:
    """The hand's controls in Discord's five rows: a page of four rows of controls and a last row
    with Refresh, Sort, when the controls need more than one page a button to the next page, Hint
    when the table's hints are on and it is the seat's turn, and with the web table on the seat's
    private link (this message is seen by its owner only): five buttons at most."""
    pages = hand_pages(rec, seat, controls, lang)
    page = min(page, len(pages) - 1)
    items: list[CodecItem] = []
    for r, row in enumerate(pages[page]):
        for item in row:
            item.row = r
            items.append(item)
    tail = [button(t("dc.btn.refresh", lang), cid(rec.id, 0, "hand", seat), row=CONTROL_ROWS),
            button(t("tg.btn.sort", lang), cid(rec.id, 0, "sort", seat), row=CONTROL_ROWS)]
    if len(pages) > 1:
        tail.append(button(t("dc.btn.page", lang, page=page + 1, pages=len(pages)),
                           cid(rec.id, 0, "page", seat, (page + 1) % len(pages)), row=CONTROL_ROWS))
    if offers_hint(rec, seat):  # version 0: the hint is of the table as it is when pressed
        tail.append(button(t("dc.btn.hint", lang), cid(rec.id, 0, "hint", seat), row=CONTROL_ROWS))
    extra: list[discord.ui.Item[Any]] = [link(t("dc.btn.web_hand", lang), web, CONTROL_ROWS)] if web else []
    return new_view([*items, *tail, *extra])


def hand_embed(panel: HandPanel, lang: str, picture: bool = False) -> discord.Embed:
    """The hand: its text (hints and counts included) and, with pictures on, the rack's picture under it."""
    c = panel.controls
    extra = [t("dc.selected", lang, items=" ".join(panel.picked))] if panel.picked else []
    extra += staging_lines(c.staging, lang)
    if c.moving is not None and c.moving < len(c.pieces):
        meld, _, item = c.pieces[c.moving].label.partition(":")
        extra.append(t("dc.moving", lang, meld=meld, item=item or meld))
    if panel.table.status == "finished":
        extra.append(t("dc.match_over", lang))  # Discord's wording of the presenter's note
    elif panel.note:
        extra.append(panel.note)
    out = embed(t("dc.hand_header", lang, game=panel.title), panel.body, "\n".join(extra))
    return out.set_image(url=f"attachment://{HAND_PNG}") if picture else out


def hand_message(panel: HandPanel, picture: bool = False, web: str | None = None) -> tuple[discord.Embed, discord.ui.View]:
    return (hand_embed(panel, panel.lang, picture),
            hand_view(panel.table, panel.seat, panel.controls, panel.lang, panel.ui.page, web))
