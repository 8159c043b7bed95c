"""Tiles and cards in colour in the terminal (ANSI SGR), the layout otherwise unchanged.

Applied at the write path, after `clean()` has removed every escape sequence from the text: the only
escapes that reach the terminal are the colours added here, around tokens of the notation (`r5`,
`k13`, `j`, `j=r7`, `10H`, `QS`, `JK=7C`). Only the colour changes: the letters stay, so the text
reads the same without colour (UX.md). Off when the output is not a terminal, when `NO_COLOR` is
set (no-color.org) or when the terminal says it is `dumb`.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import IO

RESET = "\x1b[0m"
# Black tiles and cards in bold default ink, not SGR 30: black on a dark terminal would vanish.
TILE_SGR = {"r": "\x1b[31m", "b": "\x1b[34m", "k": "\x1b[1m", "y": "\x1b[33m"}
RED_SGR, BLACK_SGR, JOKER_SGR = "\x1b[31m", "\x1b[1m", "\x1b[35m"

# A token stands alone: not inside a word, a ref (`A:8s`, `S12`, `#3`) or a number.
_TOKEN = re.compile(
    r"(?<![\w#=])(?:"
    r"(?P<tile>[rbky](?:1[0-3]|[1-9]))"
    r"|(?P<joker>j(?:=[rbky]?\d{1,2})?|JK(?:=(?:10|[2-9AJQK])?[SHDC?]?)?)"
    r"|(?P<card>(?:10|[2-9AJQK])(?P<suit>[SHDC♠♥♦♣]))"
    r")(?![\w=])"
)

Writer = Callable[[str], None]


def colourise(text: str) -> str:
    """`text` with each tile or card token wrapped in its colour."""
    def paint(m: re.Match[str]) -> str:
        token = m.group(0)
        if m.group("tile"):
            sgr = TILE_SGR[token[0]]
        elif m.group("joker"):
            sgr = JOKER_SGR
        else:
            sgr = RED_SGR if m.group("suit") in "HD♥♦" else BLACK_SGR
        return f"{sgr}{token}{RESET}"

    return _TOKEN.sub(paint, text)


def colour_wanted(stream: IO[str] | None = None, environ: Mapping[str, str] | None = None) -> bool:
    stream = sys.stdout if stream is None else stream
    environ = os.environ if environ is None else environ
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def coloured(write: Writer, enabled: bool) -> Writer:
    """`write`, colouring tiles and cards first when `enabled` (decided once, at start)."""
    if not enabled:
        return write
    return lambda text: write(colourise(text))


# The same colours as names a full-screen toolkit reads (bot/console/tui): one per kind of token.
TILE_STYLE = {"r": "red", "b": "blue", "k": "bold", "y": "yellow"}


def token_style(token: str) -> str | None:
    """The colour of one tile or card token (`r5`, `QS`, `j`, `JK=7C`); None when it is not one."""
    m = _TOKEN.fullmatch(token)
    if m is None:
        return None
    if m.group("tile"):
        return TILE_STYLE[token[0]]
    if m.group("joker"):
        return "magenta"
    return "red" if m.group("suit") in "HD♥♦" else "bold"


def tokens(text: str) -> list[tuple[str, str | None]]:
    """`text` cut into (piece, colour) runs: each tile or card token with its colour, the rest None."""
    out: list[tuple[str, str | None]] = []
    at = 0
    for m in _TOKEN.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], None))
        out.append((m.group(0), token_style(m.group(0))))
        at = m.end()
    if at < len(text):
        out.append((text[at:], None))
    return out
