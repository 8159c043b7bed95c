"""`rummyclub play <game> -o key=value` (bot.cli.main, in process, stdin scripted): text options
start the game with what the lobby buttons would store, and bad ones stop it with the shared sentence."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path
from typing import Any

import pytest

import bot.cli as cli
from rules import get_engine
from storage import SqliteStore
from tests.bot.options_spec import RAW_PYDANTIC, REFUSALS, expected_refusal

# (game, AI seats, the -o words, the values set) — the two examples first.
TYPED: list[tuple[str, int, list[str], dict[str, Any]]] = [
    ("rummy101", 1, ["match_rounds=3"], {"match_rounds": 3}),
    ("three_thirteen", 1, ["jokers=2"], {"jokers": 2}),
    ("rummy101", 2, ["match_rounds=11", "Threshold_Mode=INCREASING", "allow_draw=on", "first_player=3"],
     {"match_rounds": 11, "threshold_mode": "increasing", "allow_draw": True, "first_player": 3}),
    ("canasta", 3, ["match_length=target_10000", "turn_timer_s=600", "first_dealer=random"],
     {"match_length": "target 10000", "turn_timer_s": 600}),
    ("rummikub", 1, ["initial_meld_min=0", "jokers=1", "allow_draw=false"],
     {"initial_meld_min": 0, "jokers": 1, "allow_draw": False}),
]


def play(monkeypatch: pytest.MonkeyPatch, db: Path, game: str, ai: int, words: list[str], lang: str = "en") -> int:
    monkeypatch.setenv("DEFAULT_LANG", lang)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    argv = ["play", game, "--ai", str(ai), "--seed", "5", "--db", str(db)]
    for word in words:
        argv += ["-o", word]
    return cli.main(argv)


def stored_options(db: Path) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        store = SqliteStore(str(db))
        await store.open()
        try:
            rec = await store.active_table_for_chat("console", "terminal")
            assert rec is not None and rec.status == "playing"
            return rec.options
        finally:
            await store.close()

    return asyncio.run(read())  # cli.main runs its own loop, so these tests are not async


@pytest.mark.parametrize(("game", "ai", "words", "wanted"), TYPED, ids=[" ".join(w) for _, _, w, _ in TYPED])
def test_text_options_start_the_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                           tmp_path: Path, game: str, ai: int, words: list[str],
                                           wanted: dict[str, Any]) -> None:
    db = tmp_path / "t.db"
    assert play(monkeypatch, db, game, ai, words) == 0
    # The terminal turns the timer off unless asked; the rest is what the option buttons would set.
    expected = get_engine(game).options_model.parse_options({"turn_timer_s": 0, **wanted}).model_dump()
    assert stored_options(db) == expected
    assert "Bad option" not in capsys.readouterr().out


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bad_options_stop_with_a_sentence(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path, lang: str) -> None:
    checked = 0
    for game, line in REFUSALS:
        if '"' in line or "=" not in line:
            continue  # a shell splits the words itself; bad -o syntax is argparse's (below)
        seats = get_engine(game).min_seats - 1
        assert play(monkeypatch, tmp_path / f"{checked}.db", game, seats, [line], lang) == 2, line
        out = capsys.readouterr().out
        assert out.strip().splitlines()[-1] == expected_refusal(game, line, lang), line
        assert not [raw for raw in RAW_PYDANTIC if raw in out], out
        checked += 1
    assert checked >= 7
    # Bad -o syntax is refused by argparse, before the settings (and their language) are read: English.
    with pytest.raises(SystemExit) as stop:
        play(monkeypatch, tmp_path / "x.db", "rummikub", 1, ["jokers"], lang)
    assert stop.value.code == 2
    assert "Options are written key=value, e.g. turn_timer_s=120 match_games=3 (got 'jokers')" in capsys.readouterr().err


def test_simulate_reads_options_the_same_way(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    argv = ["simulate", "rummy101", "--games", "1", "--seats", "2", "--db", str(tmp_path / "s.db")]
    assert cli.main([*argv, "-o", "match_rounds=1", "-o", "threshold_mode=Increasing"]) == 0
    assert capsys.readouterr().out.startswith("1 match · 1 game · ")

    async def finished() -> list[dict[str, Any]]:
        store = SqliteStore(str(tmp_path / "s.db"))
        await store.open()
        try:
            return [rec.options for rec in await store.list_tables(["finished"])]
        finally:
            await store.close()

    [options] = asyncio.run(finished())
    assert (options["match_rounds"], options["threshold_mode"]) == (1, "increasing")
    assert cli.main([*argv, "-o", "match_rounds=2"]) == 2
    assert capsys.readouterr().out.strip() == "match_rounds must be one of: 1, 3, 5, 7, 9, 11 (got '2')."
