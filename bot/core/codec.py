"""The one button codec every chat adapter uses: `v1:<table>:<version>:<action>`.

Telegram allows 64 bytes of callback data and Discord 100 characters of custom id, so actions are
written compactly: the adapter verbs that appear on every screen have one-letter codes, and
everything else (a game's own verb and its arguments) is carried as text. Decoding never trusts
its input: anything that does not parse is a `CodecError` the adapter answers with a refusal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PREFIX = "v1"
TELEGRAM_MAX_BYTES = 64
DISCORD_MAX_CHARS = 100

# Verb -> code. Codes are upper case and game verbs are lower case, so the two never collide.
_CODES: dict[str, str] = {
    "join": "J",
    "leave": "L",
    "addai": "A",
    "rmai": "R",
    "start": "S",
    "cancel": "X",
    "options": "O",
    "setopt": "T",
    "lobby": "B",
    "peek": "K",
    "hand": "H",
    "pick": "P",
    "sort": "Y",
    "cmd": "C",
    "back": "W",
    "stage": "G",  # the picks become a staged meld (issue 25)
    "unstage": "U",  # a staged meld back to the hand, by its number
    "clear": "E",  # every staged meld back, picks dropped
    "sug": "N",  # a suggested move, by its index in the engine's list for the table version
}
_VERBS = {code: verb for verb, code in _CODES.items()}
MAX_MASK_ITEMS = 160  # a selection mask has at most 40 hex digits
_TABLE_ID = re.compile(r"[0-9A-Za-z_-]{1,32}")
_VERSION = re.compile(r"0|[1-9][0-9]{0,8}")
_ACTION = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")  # printable ASCII, no edge spaces


class CodecError(ValueError):
    """Button data that is not ours, or no longer readable. `code` is for `render_error`."""

    code = "E_BAD_BUTTON"


@dataclass(frozen=True)
class ButtonData:
    table_id: str
    version: int
    verb: str
    args: tuple[str, ...] = ()

    @property
    def action(self) -> str:
        return " ".join((self.verb, *self.args))


def encode(table_id: str, version: int, verb: str, *args: str | int, max_bytes: int = TELEGRAM_MAX_BYTES) -> str:
    """The payload for a button; `ValueError` if it cannot be written within `max_bytes`."""
    if not _TABLE_ID.fullmatch(table_id):
        raise ValueError(f"bad table id {table_id!r}")
    if version < 0:
        raise ValueError("version must be >= 0")
    words = [_CODES.get(verb, verb), *(str(a) for a in args)]
    if any(not w or " " in w for w in words):
        raise ValueError(f"empty or spaced word in {words!r}")
    action = " ".join(words)
    if not _ACTION.fullmatch(action) or action[0].isupper() and verb not in _CODES:
        raise ValueError(f"action {action!r} is not printable ASCII or shadows a code")
    data = f"{PREFIX}:{table_id}:{version}:{action}"
    if len(data.encode()) > max_bytes:
        raise ValueError(f"button data of {len(data.encode())} bytes exceeds {max_bytes}: {data!r}")
    return data


def decode(data: str | None, max_bytes: int = DISCORD_MAX_CHARS) -> ButtonData:
    """Read a payload; `CodecError` for anything malformed, foreign or too long."""
    if not isinstance(data, str) or not data or len(data.encode("utf-8", "replace")) > max_bytes:
        raise CodecError("not button data")
    parts = data.split(":", 3)
    if len(parts) != 4 or parts[0] != PREFIX:
        raise CodecError("unknown button format")
    _, table_id, version, action = parts
    if not _TABLE_ID.fullmatch(table_id) or not _VERSION.fullmatch(version) or not _ACTION.fullmatch(action):
        raise CodecError("malformed button")
    first, *rest = action.split(" ")
    if first[0].isupper():
        if first not in _VERBS:
            raise CodecError("unknown button action")
        first = _VERBS[first]
    if any(not w for w in rest):
        raise CodecError("malformed button")
    return ButtonData(table_id, int(version), first, tuple(rest))


def mask_of(indices: set[int] | list[int]) -> str:
    """A set of item positions as a compact hex bit mask ("0" for none); `ValueError` for a position
    no mask can carry (an unbounded one would build an integer of that many bits)."""
    value = 0
    for i in indices:
        if not 0 <= i < MAX_MASK_ITEMS:
            raise ValueError(f"item position {i} is not within 0..{MAX_MASK_ITEMS - 1}")
        value |= 1 << i
    return format(value, "x")


def indices_of(mask: str, size: int) -> list[int]:
    """The positions a mask names; `CodecError` if it is malformed or points past `size` items."""
    if not re.fullmatch(rf"[0-9a-f]{{1,{MAX_MASK_ITEMS // 4}}}", mask):
        raise CodecError("malformed selection")
    value = int(mask, 16)
    if value >> size:
        raise CodecError("selection out of range")
    return [i for i in range(size) if value >> i & 1]
