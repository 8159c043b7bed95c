"""`--ai-level` in the terminal (issue 16): the opponents' levels are chosen at the start, shown in
their names, asked about before resuming a game set up otherwise, and refused when they cannot fit."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.cli import build_parser
from bot.console.app import CHAT_ID, PLATFORM, ConsoleTable
from bot.console.seats import levels_error, seat_levels
from bot.console.session import Request, Session
from bot.core.clock import FakeClock
from bot.core.service import TableService
from storage import SqliteStore
from tests.console.driver import Script


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(str(tmp_path / "s.db"))
    await s.open()
    yield s
    await s.close()


async def run(store: SqliteStore, lines: list[str], request: Request, lang: str = "en") -> str:
    out: list[str] = []
    service = TableService(store, FakeClock())
    await Session(service, ConsoleTable(service, Script(store, lines), out.append, lang)).run(request)
    return "\n".join(out)


def test_levels_go_to_the_seats_in_order_and_the_last_fills_the_rest() -> None:
    assert seat_levels(3, []) == ["normal"] * 3
    assert seat_levels(3, ["strong"]) == ["strong"] * 3
    assert seat_levels(3, ["easy", "strong"]) == ["easy", "strong", "strong"]
    assert levels_error(2, ["easy", "normal"], "en") is None
    assert levels_error(1, ["easy", "strong"], "en") == (
        "--ai-level names more levels (2) than there are AI opponents (1): give one level for all, or one per opponent.")


def test_the_command_line_reads_levels_and_refuses_unknown_ones(capsys: pytest.CaptureFixture[str]) -> None:
    args = build_parser().parse_args(["play", "rummikub", "--ai", "2", "--ai-level", "Easy,strong"])
    assert args.ai_level == ["easy", "strong"]
    assert build_parser().parse_args(["play", "rummikub"]).ai_level == []
    with pytest.raises(SystemExit):
        build_parser().parse_args(["play", "rummikub", "--ai-level", "hard"])
    assert "There is no AI level 'hard': the levels are easy, normal, strong." in capsys.readouterr().err


async def test_the_opponents_play_at_the_levels_asked_and_their_names_say_so(store: SqliteStore) -> None:
    text = await run(store, ["quit"], Request("rummikub", ai=2, seed=3, ai_levels=["easy", "strong"]))
    rec = await store.active_table_for_chat(PLATFORM, CHAT_ID)
    assert rec is not None
    assert [(s.kind, s.level) for s in rec.seats] == [("human", "normal"), ("ai", "easy"), ("ai", "strong")]
    assert "AI 1 (easy)" in text and "AI 2 (strong)" in text
    # Resuming with other levels asks first; in Russian the names are Russian too.
    text = await run(store, ["resume", "quit"], Request("rummikub", seed=3, ai_levels=["normal"]), lang="ru")
    assert "уровни ИИ лёгкий, сильный → обычный, обычный" in text
    assert "ИИ 1 (лёгкий)" in text
