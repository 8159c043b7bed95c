"""Small pieces every part of the Telegram adapter uses: who a user is, HTML bits, the keys of the
messages kept per table, and the idempotency keys of updates."""

from __future__ import annotations

import datetime as dtm
import html
from typing import overload

from babel.dates import format_time
from telegram import CallbackQuery, Message, Update, User
from telegram.helpers import mention_html

from bot.core.i18n import t
from bot.core.models import Player
from bot.core.text import display_name
from storage import Store

PLATFORM = "telegram"


def player_of(user: User) -> Player:
    # Names are free text (control and bidi characters, 129 characters): stored clean and short.
    return Player(PLATFORM, str(user.id), display_name(user.full_name or user.first_name or "", str(user.id)))


def pre(text: str) -> str:
    return f"<pre>{html.escape(text)}</pre>"


def mention(seat_user_id: str | None, name: str) -> str:
    """A seat's name as HTML: a mention (it notifies) for a human, the plain name for an AI."""
    if seat_user_id is None:
        return html.escape(display_name(name))
    return mention_html(int(seat_user_id), display_name(name))


def clock_time(epoch: float, lang: str) -> str:
    """A deadline as a time of day in UTC, in the language's own short format (Babel)."""
    moment = dtm.datetime.fromtimestamp(epoch, dtm.UTC)
    return format_time(moment, "short", tzinfo=dtm.UTC, locale=lang)


def deadline_html(epoch: float, lang: str) -> str:
    """"⏱ until 12:34" as HTML: the time is a `<tg-time>` (a date_time entity, in PTB since 22.7; format "t"),
    which each reader's app shows in their own time zone. Telegram tells a bot nothing of a user's
    time zone, so the fallback text (notifications, older apps) is the time in UTC, saying so."""
    at = html.escape(t("tg.utc_time", lang, time=clock_time(epoch, lang)))
    marker = "\x00"
    line = html.escape(t("tg.deadline", lang, time=marker))
    return line.replace(marker, f'<tg-time unix="{int(epoch)}" format="t">{at}</tg-time>')


def topic_of(update: Update) -> str | None:
    msg = update.effective_message
    if msg is not None and msg.is_topic_message and msg.message_thread_id:
        return str(msg.message_thread_id)
    return None


@overload
def msg_key(msg: Message) -> str: ...


@overload
def msg_key(msg: Message | None) -> str | None: ...


def msg_key(msg: Message | None) -> str | None:
    """The idempotency key of a typed message: Telegram redelivers it with the same ids."""
    return None if msg is None else f"{PLATFORM}:m:{msg.chat_id}:{msg.message_id}"


def press_key(query: CallbackQuery) -> str:
    """The idempotency key of a button press: the callback query's id, the same on redelivery."""
    return f"{PLATFORM}:q:{query.id}"


async def pressed_before(store: Store, key: str) -> bool:
    """A redelivered press made the button stale itself: it gets its first answer, not "stale"."""
    return await store.action_key(key) is not None


# The messages kept per table (table_refs): the group's table message, each player's hand and turn
# notice in their DM, and the group's turn message for a player who cannot be reached there.
TABLE_KEY = "table"
GROUP_TURN_KEY = "turn"
ROUND_RESULT_KEY = "round_result"  # the last round's result, shown in the table message while the match goes on


def hand_key(user_id: str) -> str:
    return f"hand:{user_id}"


def notice_key(user_id: str) -> str:
    return f"notice:{user_id}"


__all__ = [
    "GROUP_TURN_KEY", "PLATFORM", "TABLE_KEY", "clock_time", "deadline_html", "hand_key", "mention", "msg_key", "notice_key",
    "player_of", "pre", "press_key", "pressed_before", "topic_of",
]
