"""The terminal echoes only a cleaned, short excerpt of what was typed: escape sequences and control
characters never reach the terminal, a 10 000-character line gets a one-line answer, and the game
does not change."""

from __future__ import annotations

import re
from pathlib import Path

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.test_terminal import scripted

BAD = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")
HOSTILE = "\x1b[2J\x1b[H\x1b]0;pwned\x07\x1bc" + "".join(map(chr, range(1, 32))) + "\u202eevil\u2066\x9b31m"


async def test_hostile_and_long_lines_get_short_clean_answers(tmp_path: Path) -> None:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    lines = ["draw " + "now " * 2500, HOSTILE * 50, "discard " + HOSTILE, "x" * 10_000,
             "stats " + HOSTILE, "team name " + HOSTILE * 10, "leaderboard " + "\x1b[31m" * 500, "quit"]
    service = TableService(store, FakeClock())
    console = ConsoleTable(service, scripted(lines), out.append)
    rec = await console.open_or_resume("rummikub", ai=1, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None
    before = (await service.get(rec.id)).log_seq
    written = len(out)
    assert await console.run(rec) == 0
    answers = [o for o in out[written:] if "could not read" in o or "no " in o.lower() or "name" in o.lower()]
    assert sum("could not read" in o for o in answers) == 4
    for text in out:
        assert not BAD.search(text), ascii(text[:200])
    for text in answers:
        assert len(text) < 300 and "\n" not in text and "pwned" not in text, text[:300]
    assert (await service.get(rec.id)).log_seq == before
    await store.close()


def test_whatever_the_console_writes_is_cleaned(tmp_path: Path) -> None:
    # Belt and braces: texts are cleaned where rendered, and the writer cleans once more.
    out: list[str] = []
    console = ConsoleTable(TableService(SqliteStore(str(tmp_path / "c.db")), FakeClock()), scripted([]), out.append)
    console.write("\x1b]0;pwned\x07table\x1b[2J\nrow 2\u202e")
    assert out == ["table\nrow 2"]
