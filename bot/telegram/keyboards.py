"""Inline keyboards, built from the table record and the engine alone (no game rule in here).

Hand buttons come from two sources: the items of the player's view (rack tiles or cards, in the
view's own order) and the engine's `help_text` grammar. A help example whose arguments are all
items (`new r5 r6 r7`, `discard 10H`) becomes a button that sends the verb with the picked items;
one that starts with a number (`add 2 r8`) becomes one button per meld on the table; one with no
arguments (`draw`, `done`) a plain button. Everything else is typed in the DM.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.core.codec import encode, mask_of
from bot.core.grammar import Template, compose, hand_items, meld_count, melds_of, templates
from bot.core.i18n import t
from bot.core.options_ui import option_choices, show_value
from rules import get_engine
from storage import TableRecord

TILES_PER_ROW = 7
MAX_ITEM_BUTTONS = 60  # Telegram allows 100 buttons; the rest of a huge hand is typed
MAX_MELD_BUTTONS = 24


def _b(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=data)


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


# ---- lobby and options -----------------------------------------------------------------------


def lobby_keyboard(rec: TableRecord, lang: str) -> InlineKeyboardMarkup:
    v = rec.version
    return InlineKeyboardMarkup([
        [_b(t("tg.btn.join", lang), encode(rec.id, v, "join")), _b(t("tg.btn.leave", lang), encode(rec.id, v, "leave"))],
        [_b(t("tg.btn.add_ai", lang), encode(rec.id, v, "addai")),
         _b(t("tg.btn.remove_ai", lang), encode(rec.id, v, "rmai"))],
        [_b(t("tg.btn.options", lang), encode(rec.id, v, "options")),
         _b(t("tg.btn.start", lang), encode(rec.id, v, "start")),
         _b(t("tg.btn.cancel", lang), encode(rec.id, v, "cancel"))],
    ])


def options_keyboard(rec: TableRecord, lang: str) -> InlineKeyboardMarkup:
    engine = get_engine(rec.game)
    model = engine.options_model
    rows = []
    for i, key in enumerate(model.model_fields):
        choices = option_choices(model, rec.options, key, engine.max_seats)
        current = rec.options.get(key)
        at = choices.index(current) if current in choices else 0
        prev_i, next_i = (at - 1) % len(choices), (at + 1) % len(choices)
        rows.append([
            _b("◀", encode(rec.id, rec.version, "setopt", i, prev_i)),
            _b(f"{key}: {show_value(current, lang)}", encode(rec.id, rec.version, "setopt", i, next_i)),
            _b("▶", encode(rec.id, rec.version, "setopt", i, next_i)),
        ])
    rows.append([_b(t("tg.btn.back", lang), encode(rec.id, rec.version, "lobby"))])
    return InlineKeyboardMarkup(rows)


# ---- the table in the group ------------------------------------------------------------------


def table_keyboard(rec: TableRecord, bot_username: str, lang: str) -> InlineKeyboardMarkup:
    # Version 0: these buttons act on whoever presses them, so they never go out of date.
    return InlineKeyboardMarkup([[
        _b(t("tg.btn.peek", lang), encode(rec.id, 0, "peek")),
        InlineKeyboardButton(t("tg.btn.my_hand", lang), url=deep_link(bot_username, f"h{rec.id}")),
    ]])


# ---- hands (the grammar itself lives in bot.core.grammar) --------------------------------------

def move_keyboard(
    rec: TableRecord, view: dict[str, Any], seat: int, tpl: Template, source: tuple[int, int] | None, lang: str
) -> InlineKeyboardMarkup:
    """Moving an item between melds: first its meld and position, then where it goes."""
    v = rec.version
    melds = melds_of(view)[:MAX_MELD_BUTTONS]
    rows: list[list[InlineKeyboardButton]] = []
    if source is None:
        buttons = [_b(f"{n}:{item}", encode(rec.id, v, "mvt", seat, n, pos))
                   for n, meld in enumerate(melds, start=1) for pos, item in enumerate(meld)][:MAX_ITEM_BUTTONS]
        rows += [buttons[i:i + 6] for i in range(0, len(buttons), 6)]
    else:
        n, pos = source
        targets = [_b(t("tg.btn.to_new", lang), encode(rec.id, v, "mv", seat, tpl.index, n, pos, 0))]
        targets += [_b(f"→{k}", encode(rec.id, v, "mv", seat, tpl.index, n, pos, k))
                    for k in range(1, len(melds) + 1) if k != n]
        rows += [targets[i:i + 6] for i in range(0, len(targets), 6)]
    rows.append([_b(t("tg.btn.back", lang), encode(rec.id, v, "pick", seat, "0"))])
    return InlineKeyboardMarkup(rows)


def hand_keyboard(
    rec: TableRecord, view: dict[str, Any], seat: int, selected: list[int], lang: str,
    moving: tuple[int, int] | None | bool = False,
) -> InlineKeyboardMarkup | None:
    """`moving`: False normally; None while picking the item to move; (meld, position) once picked."""
    if rec.status != "playing":
        return None
    sort = [_b(t("tg.btn.sort", lang), encode(rec.id, 0, "sort", seat))]
    if view.get("turn") != seat:
        return InlineKeyboardMarkup([sort])
    move_tpl = next((tpl for tpl in templates(get_engine(rec.game)) if tpl.kind == "move"), None)
    if moving is not False and move_tpl is not None:
        return move_keyboard(rec, view, seat, move_tpl, moving if isinstance(moving, tuple) else None, lang)
    v = rec.version
    items = hand_items(view)[:MAX_ITEM_BUTTONS]
    rows: list[list[InlineKeyboardButton]] = []
    row: list[InlineKeyboardButton] = []
    for i, item in enumerate(items):
        toggled = set(selected) ^ {i}
        label = f"·{item}·" if i in selected else item
        row.append(_b(label, encode(rec.id, v, "pick", seat, mask_of(toggled))))
        if len(row) == TILES_PER_ROW:
            rows.append(row)
            row = []
    if row:
        rows.append(row)
    mask = mask_of(selected)
    engine = get_engine(rec.game)
    actions: list[InlineKeyboardButton] = []
    for tpl in templates(engine):
        if tpl.kind == "plain":
            actions.append(_b(_verb_label(tpl.verb, lang), encode(rec.id, v, "cmd", seat, tpl.index)))
        elif selected and tpl.kind == "items":
            actions.append(_b(_verb_label(tpl.verb, lang) + " ✓", encode(rec.id, v, "cmd", seat, tpl.index, mask)))
        elif selected and tpl.kind == "meld_items":
            for n in range(1, min(meld_count(view), MAX_MELD_BUTTONS) + 1):
                actions.append(_b(f"{_verb_label(tpl.verb, lang)} →{n}",
                                  encode(rec.id, v, "cmd", seat, tpl.index, mask, n)))
        elif not selected and tpl.kind == "move" and meld_count(view):
            actions.append(_b(_verb_label(tpl.verb, lang) + "…", encode(rec.id, v, "mvs", seat)))
    for start in range(0, len(actions), 4):
        rows.append(actions[start:start + 4])
    rows.append(sort)
    return InlineKeyboardMarkup(rows)


def _verb_label(verb: str, lang: str) -> str:
    key = f"tg.verb.{verb}"
    text = t(key, lang)
    return verb if text == key else text


__all__ = [
    "Template", "compose", "deep_link", "hand_items", "hand_keyboard", "lobby_keyboard", "meld_count", "melds_of",
    "move_keyboard", "option_choices", "options_keyboard", "show_value", "table_keyboard", "templates",
]
