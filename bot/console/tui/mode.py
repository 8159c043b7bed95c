"""Which terminal mode, and which language: `rummyclub run` / `rummyclub play` use the full screen
when stdin and stdout are both a terminal (pipes, scripts and `--line` keep the line mode); the
terminal's language is DEFAULT_LANG when it is set, else LC_ALL / LC_MESSAGES / LANG's. Kept apart
from the screen itself so deciding loads no Textual."""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO

from bot.core.i18n import available_languages

LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")  # POSIX: the first one set wins


def full_screen_wanted(stdin: IO[str], stdout: IO[str], environ: Mapping[str, str]) -> bool:
    """The full screen needs a terminal on both ends, and one that can draw (not `dumb`)."""
    def tty(stream: IO[str]) -> bool:
        isatty = getattr(stream, "isatty", None)
        return bool(isatty and isatty())

    return tty(stdin) and tty(stdout) and environ.get("TERM", "") != "dumb"


def terminal_lang(default_lang: str, explicit: bool, environ: Mapping[str, str]) -> str:
    """DEFAULT_LANG when it was set; else the locale's language when there is a catalog for it
    (`ru_RU.UTF-8` → ru); else `default_lang`."""
    if explicit:
        return default_lang
    for name in LOCALE_VARIABLES:
        value = environ.get(name, "")
        if value:
            code = value.split(".")[0].split("_")[0].lower()
            return code if code in available_languages() else default_lang
    return default_lang
