"""Text from players, made safe to echo: cleaned, quoted short, and fitted to a platform's limit.

Anything a player typed (a command, a name, a team name) may come back in a reply. Echoed as is,
it can be longer than the platform accepts (the reply is then dropped), carry terminal escape
sequences that drive a console, or use bidi overrides and invisible characters to disguise itself
("evil\u202etxt.exe"). `clean` removes those and keeps ordinary Unicode (Cyrillic, emoji and their
joiners); `excerpt` quotes at most a short single-line piece; `fit` shortens a whole message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

ELLIPSIS = "…"
EXCERPT_MAX = 40
NAME_MAX = 32
MAX_MARKS = 6  # combining marks kept on one base character: real scripts need a few, "zalgo" hundreds

# ESC-introduced sequences (ECMA-48 / VT): CSI, the string controls (OSC, DCS, SOS, PM, APC) up to
# BEL or ST (or to the end when unterminated), and the short ESC + intermediates + final forms; the
# same with their 8-bit C1 introducers.
_ESCAPES = re.compile(
    r"""
      (?:\x1b\[|\x9b) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]?      # CSI: colours, cursor moves, erase
    | (?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f]) .*? (?:\x07|\x1b\\|\x9c|\Z)  # OSC/DCS/SOS/PM/APC strings
    | \x1b [\x20-\x2f]* [\x30-\x7e]?                              # ESC c, ESC ( B, ESC 7 ...
    """,
    re.VERBOSE | re.DOTALL,
)
_ZWJ, _ZWNJ, _BLACK_FLAG = "\u200d", "\u200c", "\U0001f3f4"
_TAGS = range(0xE0020, 0xE0080)  # emoji tag sequences (subdivision flags) follow U+1F3F4
# Letters that render as nothing: used for "blank" names and hidden text.
_INVISIBLE = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u034f", "\u180e"}
_LINE_BREAKS = {"\n", "\r", "\u2028", "\u2029", "\x0b", "\x0c", "\x85"}


def _emoji_like(ch: str) -> bool:
    return unicodedata.category(ch) in ("So", "Sk") or ch == "\ufe0f"


def _is_letter(ch: str) -> bool:
    return unicodedata.category(ch)[0] in "LM"


def clean(text: str, newlines: bool = False) -> str:
    """`text` without control characters, escape sequences, bidi controls and invisible tricks.

    With `newlines`, line breaks (any kind) become "\\n"; without, they become spaces. A tab is a
    space. Zero-width joiners stay inside emoji sequences, non-joiners between letters (Persian
    needs them), tag characters after a black flag; every other format character goes."""
    text = _ESCAPES.sub("", text)
    # Invisible letters go first: a joiner is kept or dropped by the letters it stands between, and a
    # filler dropped after that choice would leave a joiner the next clean() drops (not idempotent).
    text = "".join(ch for ch in text if ch not in _INVISIBLE)
    out: list[str] = []
    marks = 0
    for i, ch in enumerate(text):
        if ch in _LINE_BREAKS:
            if ch == "\r" and text[i + 1: i + 2] == "\n":
                continue
            out.append("\n" if newlines else " ")
            marks = 0
            continue
        if ch == "\t":
            out.append(" ")
            continue
        cat = unicodedata.category(ch)
        prev = out[-1] if out else ""
        if cat in ("Cc", "Cs"):
            continue
        if cat == "Cf":
            nxt = text[i + 1: i + 2]
            keep = (ch == _ZWJ and prev and _emoji_like(prev) and nxt and _emoji_like(nxt)
                    or ch == _ZWNJ and prev and _is_letter(prev) and nxt and _is_letter(nxt)
                    or ord(ch) in _TAGS and prev and (prev == _BLACK_FLAG or ord(prev) in _TAGS))
            if not keep:
                continue
        if cat in ("Mn", "Me"):
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        out.append(ch)
    return "".join(out)


def _joins_previous(ch: str) -> bool:
    """A character that belongs to the one before it: cutting before it would split a glyph."""
    return unicodedata.category(ch) in ("Mn", "Me", "Sk") or ch in (_ZWJ, "\ufe0f") or ord(ch) in _TAGS


def _cut(text: str, n: int) -> str:
    """The first `n` characters at most, backed off so no emoji sequence or accent is split."""
    n = max(0, min(n, len(text)))
    while 0 < n < len(text) and _joins_previous(text[n]):
        n -= 1
    if n > 0 and text[n - 1] == _ZWJ:
        n -= 1
    return text[:n]


def excerpt(text: str, limit: int = EXCERPT_MAX) -> str:
    """A short quote of what a player typed: cleaned, one line, spaces collapsed, at most `limit`
    characters ("…" at the end when cut)."""
    line = " ".join(clean(text).split())
    if len(line) <= limit:
        return line
    return _cut(line, limit - len(ELLIPSIS)).rstrip() + ELLIPSIS


def display_name(name: str, fallback: str = "?") -> str:
    """A player's or team's name as shown at a table: cleaned, one line, at most NAME_MAX."""
    return excerpt(name, NAME_MAX) or fallback


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units: how Telegram measures text (an emoji counts two)."""
    return len(text.encode("utf-16-le")) // 2


def fit(text: str, limit: int, size: Callable[[str], int] = len, marker: str = ELLIPSIS) -> str:
    """`text` if it fits in `limit` (as measured by `size`), else its longest prefix that fits with
    `marker` after it: cut after a line break when that keeps at least half of the room, else
    between characters. The result minus the marker is always a prefix of `text`."""
    if size(text) <= limit:
        return text
    room = limit - size(marker)
    if room <= 0:
        return marker[: max(0, limit)]
    lo, hi = 0, len(text)  # the longest prefix that fits: sizes grow with length, so bisect
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if size(text[:mid]) <= room:
            lo = mid
        else:
            hi = mid - 1
    head = _cut(text, lo)
    line_end = head.rfind("\n")
    if line_end >= 0 and size(head[: line_end + 1]) * 2 >= room:
        head = head[: line_end + 1]
    return head + marker
