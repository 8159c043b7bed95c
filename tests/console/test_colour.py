"""Terminal colour: tiles and cards coloured (ANSI) when the output is a terminal and NO_COLOR is
unset, the text otherwise unchanged; colour is added after cleaning, so typed escapes never pass."""

from __future__ import annotations

import io
import re
from pathlib import Path

from bot.console.app import ConsoleTable
from bot.console.colour import colour_wanted, coloured, colourise
from bot.core.clock import FakeClock
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.test_terminal import scripted

SGR = re.compile(r"\x1b\[[0-9;]*m")


class Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def plain(text: str) -> str:
    return SGR.sub("", text)


def test_tiles_and_cards_get_their_colour_and_nothing_else_changes() -> None:
    line = "  1. r10 r11 r12   (run 33)  2. G:b5 j j=r7  #1 10H QS JK=7C 2D  A:8s ×6 S12 k13 y1"
    out = colourise(line)
    assert plain(out) == line  # the layout is unchanged, letters included
    assert "\x1b[31mr10\x1b[0m" in out and "\x1b[34mb5\x1b[0m" in out and "\x1b[1mk13\x1b[0m" in out
    assert "\x1b[33my1\x1b[0m" in out and "\x1b[35mj=r7\x1b[0m" in out and "\x1b[35mJK=7C\x1b[0m" in out
    assert "\x1b[31m10H\x1b[0m" in out and "\x1b[1mQS\x1b[0m" in out and "\x1b[31m2D\x1b[0m" in out
    # References and counts are not tokens: the meld number, canasta refs, structure IDs, sizes.
    for word in ("A:8s", "S12", "#1", "(run 33)", "×6"):
        assert word in out
    assert colourise("Ход: Борис · всего 0") == "Ход: Борис · всего 0"


def test_colour_only_for_a_terminal_without_no_color() -> None:
    assert colour_wanted(Tty(), {}) is True
    assert colour_wanted(io.StringIO(), {}) is False  # piped or redirected
    assert colour_wanted(Tty(), {"NO_COLOR": "1"}) is False
    assert colour_wanted(Tty(), {"NO_COLOR": ""}) is True  # no-color.org: set and not empty
    assert colour_wanted(Tty(), {"TERM": "dumb"}) is False
    seen: list[str] = []
    coloured(seen.append, False)("r5 10H")
    coloured(seen.append, True)("r5 10H")
    assert seen[0] == "r5 10H" and seen[1] != seen[0] and plain(seen[1]) == seen[0]


async def test_a_coloured_terminal_shows_only_our_escapes(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    hostile = "discard \x1b[2J\x1b]0;pwned\x07 r5"
    console = ConsoleTable(TableService(store, FakeClock()), scripted([hostile, "quit"]), coloured(out.append, True))
    rec = await console.open_or_resume("rummikub", ai=1, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None
    await console.run(rec)
    text = "\n".join(out)
    assert SGR.search(text), "the rack is coloured"
    leftover = SGR.sub("", text)
    assert "\x1b" not in leftover and "\x07" not in leftover  # every other escape was cleaned first
    await store.close()
