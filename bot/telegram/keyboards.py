"""Inline keyboards: the lobby and its options, the table message's buttons, and a hand's controls
(the presenter's HandControls, built from the engines' legal moves) laid out as buttons. No game
rule in here; every press is encoded with bot.core.codec and decoded back by the service (bot/core/presses.py).
"""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo
from telegram.helpers import create_deep_linked_url

from bot.core.ai_seats import level_labels
from bot.core.codec import encode, mask_of
from bot.core.hints import offers_hint
from bot.core.i18n import t
from bot.core.options_ui import option_choices, option_line
from bot.core.presenter import HandControls
from bot.core.presenter.games import max_seats, options_model
from storage import TableRecord

TILES_PER_ROW = 7
MAX_ITEM_BUTTONS = 60  # Telegram allows 100 buttons; the rest of a huge hand is typed
MAX_MOVE_BUTTONS = 36  # + 60 items, Move… and the sort row (Sort, Hint, Open table): Telegram's 100 buttons
MAX_BUTTONS = 100  # Telegram's limit for one keyboard
MAX_STAGED_BUTTONS = 10  # the staged melds one can take back by a button (the rest by Clear)
CHOICES_PER_ROW = 6
ACTIONS_PER_ROW = 4


def _b(text: str, data: str) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=data)


def _rows(buttons: list[InlineKeyboardButton], width: int) -> list[list[InlineKeyboardButton]]:
    return [buttons[i:i + width] for i in range(0, len(buttons), width)]


def deep_link(bot_username: str, payload: str) -> str:
    """t.me/<bot>?start=<payload>; PTB's helper also refuses a payload Telegram would not pass on."""
    return create_deep_linked_url(bot_username, payload)


# The payload of the "add to group" link: the bot's hello on joining says how to start, so the
# `/start` Telegram then sends in the group is not answered a second time (commands.py).
ADD_TO_GROUP = "table"


def add_to_group(bot_username: str, lang: str) -> InlineKeyboardMarkup:
    """One button: t.me/<bot>?startgroup=…, Telegram's picker of the user's groups to add the bot to."""
    url = create_deep_linked_url(bot_username, ADD_TO_GROUP, group=True)
    return InlineKeyboardMarkup([[InlineKeyboardButton(t("tg.add_to_group", lang), url=url)]])


# ---- lobby and options -----------------------------------------------------------------------


def lobby_keyboard(rec: TableRecord, lang: str) -> InlineKeyboardMarkup:
    """Join/Leave, one Add AI button per level (the press carries it: `addai <level>`), Remove AI,
    and the host's Options/Start/Cancel."""
    v = rec.version
    return InlineKeyboardMarkup([
        [_b(t("tg.btn.join", lang), encode(rec.id, v, "join")), _b(t("tg.btn.leave", lang), encode(rec.id, v, "leave")),
         _b(t("tg.btn.remove_ai", lang), encode(rec.id, v, "rmai"))],
        [_b(label, encode(rec.id, v, "addai", level)) for level, label in level_labels(lang)],
        [_b(t("tg.btn.options", lang), encode(rec.id, v, "options")),
         _b(t("tg.btn.start", lang), encode(rec.id, v, "start")),
         _b(t("tg.btn.cancel", lang), encode(rec.id, v, "cancel"))],
    ])


def options_keyboard(rec: TableRecord, lang: str) -> InlineKeyboardMarkup:
    model = options_model(rec.game)
    rows = []
    for i, key in enumerate(model.model_fields):
        choices = option_choices(model, rec.options, key, max_seats(rec.game))
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


def table_keyboard(rec: TableRecord, bot_username: str, lang: str, app_link: str | None = None) -> InlineKeyboardMarkup:
    """Peek and My hand; with the Mini App named (`app_link`, web/server.mini_app_link) a link into it
    (a group cannot carry a `web_app` button: Telegram allows those in private chats only)."""
    # Version 0: these buttons act on whoever presses them, so they never go out of date.
    rows = [[
        _b(t("tg.btn.peek", lang), encode(rec.id, 0, "peek")),
        InlineKeyboardButton(t("tg.btn.my_hand", lang), url=deep_link(bot_username, f"h{rec.id}")),
    ]]
    if app_link:
        rows.append([InlineKeyboardButton(t("tg.btn.web_table", lang), url=app_link)])
    return InlineKeyboardMarkup(rows)


# ---- hands -----------------------------------------------------------------------------------


def hand_keyboard(rec: TableRecord, seat: int, c: HandControls, lang: str,
                  web_url: str | None = None) -> InlineKeyboardMarkup | None:
    """Picks toggle (`pick <seat> <mask>`: the whole new selection), suggested moves one row each
    under the items (`sug <seat> <index>`), staging (`stage <seat>`, `unstage <seat> <number>`, `clear <seat>`), moves send
    (`cmd <seat> <move> <mask> [<option>]`; a melds move sends the staged melds too), and the two-step
    table-item move (`mvs`, `mvt <piece>`, `mv <move> <piece>
    <dest>`); a Hint button beside Sort when the table's hints are on and it is the seat's turn; off
    turn only the sort button. With the web table on (`web_url`), an "Open table" `web_app` button
    beside Sort, on turn or not."""
    if not c.playing:
        return None
    v = rec.version
    sort = [_b(t("tg.btn.sort", lang), encode(rec.id, 0, "sort", seat))]
    if web_url:
        sort.append(InlineKeyboardButton(t("tg.btn.web_table", lang), web_app=WebAppInfo(web_url)))
    if not c.my_turn:
        return InlineKeyboardMarkup([sort])
    if offers_hint(rec, seat):  # version 0: the hint is of the table as it is when pressed
        sort.append(_b(t("tg.btn.hint", lang), encode(rec.id, 0, "hint", seat)))
    back = [_b(t("tg.btn.back", lang), encode(rec.id, v, "pick", seat, "0"))]
    if c.moving is not None and c.move_index is not None:
        dests = [_b(d.label if d.new else f"→{d.label}", encode(rec.id, v, "mv", seat, c.move_index, c.moving, d.option))
                 for d in c.targets]
        return InlineKeyboardMarkup([*_rows(dests, CHOICES_PER_ROW), back])
    if c.choosing:
        pieces = [_b(p.label, encode(rec.id, v, "mvt", seat, p.option)) for p in c.pieces][:MAX_ITEM_BUTTONS]
        return InlineKeyboardMarkup([*_rows(pieces, CHOICES_PER_ROW), back])
    picked = set(c.picks)
    items = [_b(f"·{i.label}·" if i.selected else i.label, encode(rec.id, v, "pick", seat, mask_of(picked ^ {i.index})))
             for i in c.items[:MAX_ITEM_BUTTONS]]
    mask = mask_of(list(c.picks))
    actions = []
    for a in c.actions[:MAX_MOVE_BUTTONS]:
        args: list[str | int] = [seat, a.index, mask if a.with_items else "0"]
        if a.option is not None:
            args.append(a.option)
        actions.append(_b(a.label, encode(rec.id, v, "cmd", *args)))
    if c.move_index is not None and not c.picks:
        actions.append(_b(c.move_label + "…", encode(rec.id, v, "mvs", seat)))
    # The moves keep their room (items, moves and the sort row fill 100 at most); staging and the
    # suggestions take what is left, which a hand of fewer than 50 items always leaves.
    room = MAX_BUTTONS - len(items) - len(actions) - len(sort)
    staging = _staging_buttons(rec, seat, c, lang)[:max(0, room)]
    room -= len(staging)
    suggested = [_b(s.label, encode(rec.id, v, "sug", seat, s.index)) for s in c.suggestions][:max(0, room)]
    return InlineKeyboardMarkup([*_rows(items, TILES_PER_ROW), *_rows(suggested, 1), *_rows(staging, ACTIONS_PER_ROW),
                                 *_rows(actions, ACTIONS_PER_ROW), sort])


def _staging_buttons(rec: TableRecord, seat: int, c: HandControls, lang: str) -> list[InlineKeyboardButton]:
    """Stage the picks as a meld, take a staged meld back (by its number), clear the staging."""
    v = rec.version
    out = [_b(t("stage.btn.stage", lang), encode(rec.id, v, "stage", seat))] if c.can_stage else []
    if c.staging is not None:
        out += [_b(t("stage.btn.unstage", lang, number=m.number) + " " + " ".join(m.items)[:24],
                   encode(rec.id, v, "unstage", seat, m.number)) for m in c.staging.melds[:MAX_STAGED_BUTTONS]]
        out.append(_b(t("stage.btn.clear", lang), encode(rec.id, v, "clear", seat)))
    return out


def markup_key(markup: InlineKeyboardMarkup | None) -> str:
    """A keyboard as a comparable string (what a message shows is its text and its buttons)."""
    return "" if markup is None else repr(markup.to_dict())


__all__ = ["deep_link", "markup_key", "hand_keyboard", "lobby_keyboard", "options_keyboard", "table_keyboard"]
