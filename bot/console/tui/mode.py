"""Which terminal mode: `rummyclub run` / `rummyclub play` use the full screen when stdin and stdout
are both a terminal (pipes, scripts and `--line` keep the line mode). Kept apart from the screen
itself so deciding loads no Textual. (The terminal's language: `terminal_lang` in bot/cli.py.)"""

from __future__ import annotations

from collections.abc import Mapping
from typing import IO


def full_screen_wanted(stdin: IO[str], stdout: IO[str], environ: Mapping[str, str]) -> bool:
    """The full screen needs a terminal on both ends, and one that can draw (not `dumb`)."""
    def tty(stream: IO[str]) -> bool:
        isatty = getattr(stream, "isatty", None)
        return bool(isatty and isatty())

    return tty(stdin) and tty(stdout) and environ.get("TERM", "") != "dumb"
