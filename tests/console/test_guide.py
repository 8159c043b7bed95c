"""`help rules` / `rules [game]` in the terminal: the whole guide, at the game prompt and the picker."""

from __future__ import annotations

from pathlib import Path

from bot.console.app import ConsoleTable
from bot.core.clock import FakeClock
from bot.core.guides import guide_text
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.test_terminal import scripted


async def session(tmp_path: Path, lines: list[str], lang: str = "en") -> str:
    store = SqliteStore(str(tmp_path / "c.db"))
    await store.open()
    out: list[str] = []
    console = ConsoleTable(TableService(store, FakeClock()), scripted(lines), out.append, lang=lang)
    rec = await console.open_or_resume("rummy101", ai=1, options={"turn_timer_s": 0}, seed=3)
    assert rec is not None and await console.run(rec) == 0
    await store.close()
    return "\n".join(out)


async def test_help_rules_shows_the_guide_of_the_game_being_played(tmp_path: Path) -> None:
    text = await session(tmp_path, ["help", "help rules", "rules canasta", "Rules Three Thirteen", "rules poker",
                                    "quit"])
    assert "help rules (or rules <game>): the player's guide" in text  # `help` says where the guide is
    assert guide_text("rummy101", "en") in text
    assert guide_text("canasta", "en") in text and guide_text("three_thirteen", "en") in text
    assert "There is no game called 'poker'. Guides: rummikub, rummy101" in text
    assert "I could not read that" not in text  # none of them reached the engine as a move


async def test_the_guide_speaks_the_players_language(tmp_path: Path) -> None:
    text = await session(tmp_path, ["rules", "quit"], lang="ru")
    assert guide_text("rummy101", "ru") in text and "## Разбор хода" in text


async def test_the_game_picker_shows_a_guide_before_you_choose(tmp_path: Path) -> None:
    from bot.console.session import Session
    from tests.console.driver import Script

    store = SqliteStore(str(tmp_path / "p.db"))
    await store.open()
    out: list[str] = []
    service = TableService(store, FakeClock())
    script = Script(store, ["rules rummy500", "rules", "quit"])
    assert await Session(service, ConsoleTable(service, script, out.append)).run(None) == 0
    await store.close()
    assert guide_text("rummy500", "en") in out
    assert "Which game's guide? Type rules <game> with one of: rummikub" in "\n".join(out)
