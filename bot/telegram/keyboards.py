"""Inline keyboards, built from the table record and the engine alone (no game rule in here).

Hand buttons come from the items of the player's view (rack tiles or cards, in the view's own
order, sent in the order picked) and the engine's legal moves (`engine.moves(view)`, turned into
controls by bot.core.grammar). Everything the moves do not offer as a button is typed in the DM.
"""

from __future__ import annotations

from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.helpers import create_deep_linked_url

from bot.core.codec import encode, mask_of
from bot.core.grammar import Control, controls, hand_items, move_template, moves
from bot.core.i18n import has, t
from bot.core.options_ui import option_choices, option_line, show_value
from rules import get_engine
from storage import TableRecord

TILES_PER_ROW = 7
MAX_ITEM_BUTTONS = 60  # Telegram allows 100 buttons; the rest of a huge hand is typed
MAX_MOVE_BUTTONS = 36  # with 60 items and the sort row, within Telegram's 100 buttons


def _b(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=data)


def deep_link(bot_username: str, payload: str) -> str:
    """t.me/<bot>?start=<payload>; PTB's helper also refuses a payload Telegram would not pass on."""
    return create_deep_linked_url(bot_username, payload)


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
            _b(option_line(key, current, lang), encode(rec.id, rec.version, "setopt", i, next_i)),
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
    rec: TableRecord, view: dict[str, Any], seat: int, source: int | None, lang: str
) -> InlineKeyboardMarkup:
    """Moving an item between melds: first the table item (an option of the move's first slot),
    then where it goes (an option of its second)."""
    v = rec.version
    found = move_template(moves(get_engine(rec.game), view))
    rows: list[list[InlineKeyboardButton]] = []
    if found is not None:
        index, tpl = found
        pieces, targets = tpl.open_slots()
        if source is None:
            buttons = [_b(pieces.label(option), encode(rec.id, v, "mvt", seat, k))
                       for k, option in enumerate(pieces.options)][:MAX_ITEM_BUTTONS]
            rows += [buttons[i:i + 6] for i in range(0, len(buttons), 6)]
        else:
            dests = [_b(t("tg.btn.to_new", lang) if option == "new" else f"→{targets.label(option)}",
                        encode(rec.id, v, "mv", seat, index, source, k))
                     for k, option in enumerate(targets.options)]
            rows += [dests[i:i + 6] for i in range(0, len(dests), 6)]
    rows.append([_b(t("tg.btn.back", lang), encode(rec.id, v, "pick", seat, "0"))])
    return InlineKeyboardMarkup(rows)


def hand_keyboard(
    rec: TableRecord, view: dict[str, Any], seat: int, selected: list[int], lang: str,
    moving: int | None | bool = False,
) -> InlineKeyboardMarkup | None:
    """`moving`: False normally; None while picking the table item to move; its option index once picked."""
    if rec.status != "playing":
        return None
    sort = [_b(t("tg.btn.sort", lang), encode(rec.id, 0, "sort", seat))]
    if view.get("turn") != seat:
        return InlineKeyboardMarkup([sort])
    templates = moves(get_engine(rec.game), view)
    if moving is not False and move_template(templates) is not None:
        return move_keyboard(rec, view, seat, moving if isinstance(moving, int) else None, lang)
    v = rec.version
    hand = hand_items(view)
    items = hand[:MAX_ITEM_BUTTONS]
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
    picked = [hand[i] for i in selected if i < len(hand)]
    actions: list[InlineKeyboardButton] = []
    for c in controls(templates, picked)[:MAX_MOVE_BUTTONS]:
        label = control_label(c, lang)
        args: list[str | int] = [seat, c.index, mask if c.with_items else "0"]
        if c.option is not None:
            args.append(c.option)
        actions.append(_b(label, encode(rec.id, v, "cmd", *args)))
    found = move_template(templates)
    if found is not None and not selected:
        actions.append(_b(_label(found[1].label_key, found[1].verb, lang) + "…", encode(rec.id, v, "mvs", seat)))
    for start in range(0, len(actions), 4):
        rows.append(actions[start:start + 4])
    rows.append(sort)
    return InlineKeyboardMarkup(rows)


def control_label(c: Control, lang: str) -> str:
    """A move button's text: the move's name, then its option (`add →8`) or a tick for the picks."""
    label = _label(c.label_key, c.verb, lang)
    if c.detail:
        return f"{label} →{c.detail}" if c.with_items else f"{label} {c.detail}"
    return f"{label} ✓" if c.with_items else label


def _label(key: str, verb: str, lang: str) -> str:
    return t(key, lang) if has(key, lang) else verb


__all__ = [
    "Control", "control_label", "deep_link", "hand_items", "hand_keyboard", "lobby_keyboard", "move_keyboard",
    "option_choices", "options_keyboard", "show_value", "table_keyboard",
]
