"""What the Bot API refuses (400 Bad Request), as pure checks the fake Bot API applies to each call:
HTML that parses, text and caption lengths after parsing, callback data sizes. Each check returns
Telegram's error description, or None when the call passes."""

from __future__ import annotations

import html
import re
from typing import Any

JSON = dict[str, Any]
TEXT_MAX = 4096
CAPTION_MAX = 1024
CALLBACK_TEXT_MAX = 200
CALLBACK_DATA_MAX = 64  # bytes of an inline button's callback_data
HTML_TAGS = {"b", "strong", "i", "em", "u", "ins", "s", "strike", "del", "span", "tg-spoiler", "a", "tg-emoji",
             "code", "pre", "blockquote", "tg-time"}
# <tg-time unix="…" format="…">: a date_time entity; the format is r, or w?[dD]?[tT]?
_TG_TIME = re.compile(r'\s+unix="([0-9]+)"(?:\s+format="(r|w?[dD]?[tT]?)")?\s*')
_HTML_TOKEN = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s[^<>]*)?)>|&(#[0-9]+|#x[0-9a-fA-F]+|lt|gt|amp|quot);|[<>&]")


def parse_html(text: str) -> str:
    """The plain text Telegram would show for an HTML message; ValueError where Telegram answers
    "can't parse entities"."""
    out: list[str] = []
    stack: list[str] = []
    pos = 0
    for m in _HTML_TOKEN.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
        closing, tag, entity = m.group(1), m.group(2), m.group(4)
        if tag is not None:
            tag = tag.lower()
            if tag not in HTML_TAGS:
                raise ValueError(f"unsupported start tag \"{tag}\" at byte offset {m.start()}")
            if tag == "tg-time" and not closing and not _TG_TIME.fullmatch(m.group(3) or ""):
                raise ValueError(f"invalid tg-time attributes at byte offset {m.start()}")
            if not closing:
                stack.append(tag)
            elif not stack or stack[-1] != tag:
                raise ValueError(f"unmatched end tag at byte offset {m.start()}, expected \"</{stack[-1] if stack else ''}>\"")
            else:
                stack.pop()
        elif entity is not None:
            out.append(html.unescape(m.group(0)))
        elif m.group(0) == ">":
            out.append(">")  # Telegram lets a bare ">" through
        else:
            raise ValueError(f"unsupported start tag or entity at byte offset {m.start()}")
    if stack:
        raise ValueError(f"can't find end tag corresponding to start tag \"{stack[-1]}\"")
    out.append(text[pos:])
    return "".join(out)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _shown(text: str, parse_mode: Any) -> str:
    """The text Telegram would display; ValueError where it cannot parse the markup."""
    return parse_html(text) if str(parse_mode or "").upper() == "HTML" else text


def text_error(p: JSON) -> str | None:
    """A message text: markup that parses, then the length after parsing (and, on the safe side the
    adapter keeps, at most 4096 characters raw)."""
    text = str(p["text"])
    try:
        shown = _shown(text, p.get("parse_mode"))
    except ValueError as err:
        return f"Bad Request: can't parse entities: {err}"
    if not shown.strip():
        return "Bad Request: message text is empty"
    if utf16_len(shown) > TEXT_MAX or len(text) > TEXT_MAX:
        return "Bad Request: message is too long"
    return None


def caption_error(p: JSON) -> str | None:
    """A photo caption: markup that parses, at most 1024 after parsing."""
    try:
        shown = _shown(str(p.get("caption") or ""), p.get("parse_mode"))
    except ValueError as err:
        return f"Bad Request: can't parse entities: {err}"
    if utf16_len(shown) > CAPTION_MAX:
        return "Bad Request: message caption is too long"
    return None


def markup_error(p: JSON) -> str | None:
    """Inline buttons: callback data of 1-64 bytes."""
    markup = p.get("reply_markup")
    if not isinstance(markup, dict):
        return None
    for row in markup.get("inline_keyboard") or []:
        for button in row:
            data = button.get("callback_data")
            if data is not None and not 1 <= len(str(data).encode()) <= CALLBACK_DATA_MAX:
                return "Bad Request: BUTTON_DATA_INVALID"
    return None


# ---- the bot's profile (setMyCommands, setMyDescription, setMyShortDescription, setChatMenuButton) ----
COMMANDS_MAX = 100
COMMAND_NAME = re.compile(r"[a-z0-9_]{1,32}")
COMMAND_DESCRIPTION_MAX = 256
DESCRIPTION_MAX = 512
SHORT_DESCRIPTION_MAX = 120
COMMAND_SCOPES = {"default", "all_private_chats", "all_group_chats", "all_chat_administrators", "chat",
                  "chat_administrators", "chat_member"}
_LANGUAGE_CODE = re.compile(r"[a-z]{2}")


def language_error(p: JSON) -> str | None:
    code = p.get("language_code") or ""
    return None if not code or _LANGUAGE_CODE.fullmatch(code) else "Bad Request: invalid language code specified"


def commands_error(p: JSON) -> str | None:
    """setMyCommands: at most 100 commands, each named [a-z0-9_]{1,32} with a description of
    1-256 characters, no name twice; a known scope; an ISO 639-1 language code or none."""
    commands = p.get("commands")
    if not isinstance(commands, list) or len(commands) > COMMANDS_MAX:
        return "Bad Request: BOT_COMMANDS_TOO_MUCH"
    names = [c.get("command", "") if isinstance(c, dict) else "" for c in commands]
    if any(not COMMAND_NAME.fullmatch(n) for n in names) or len(set(names)) != len(names):
        return "Bad Request: BOT_COMMAND_INVALID"
    if any(not 1 <= len(c.get("description", "")) <= COMMAND_DESCRIPTION_MAX for c in commands):
        return "Bad Request: BOT_COMMAND_DESCRIPTION_INVALID"
    scope = p.get("scope") or {"type": "default"}
    if not isinstance(scope, dict) or scope.get("type") not in COMMAND_SCOPES:
        return "Bad Request: can't parse BotCommandScope"
    return language_error(p)


def description_error(p: JSON, field: str, limit: int) -> str | None:
    if len(p.get(field) or "") > limit:
        return "Bad Request: description is too long" if field == "description" else \
            "Bad Request: short description is too long"
    return language_error(p)


def menu_button_error(p: JSON) -> str | None:
    """setChatMenuButton: a known type; a web_app button has text and an HTTPS URL."""
    button = p.get("menu_button") or {"type": "default"}
    if not isinstance(button, dict) or button.get("type") not in ("default", "commands", "web_app"):
        return "Bad Request: can't parse menu button"
    if button["type"] == "web_app":
        url = (button.get("web_app") or {}).get("url", "")
        if not button.get("text") or not url.startswith("https://"):
            return "Bad Request: BUTTON_URL_INVALID"
    return None
