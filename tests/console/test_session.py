"""The terminal session in process (issue 14, "Leaving" and item 1): the picker, the opponents
question, resume-or-replace, the match-end menu, standings at every prompt, the rack order kept
with the seat, and the terminal's own repeated lines gone."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Sequence
from pathlib import Path

import pytest

from bot.console.app import CHAT_ID, PLATFORM, ConsoleTable
from bot.console.seats import seats_error
from bot.console.session import Request, Session
from bot.core.clock import FakeClock
from bot.core.presenter import HandUIs
from bot.core.render import render_hand
from bot.core.service import TableService
from rules import get_engine
from storage import SqliteStore, TableRecord
from tests.console.driver import AUTO, ONE, Script

SHORT = {"rounds": 1}  # a one-round Three-Thirteen match: a whole match in a few moves


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(str(tmp_path / "s.db"))
    await s.open()
    yield s
    await s.close()


class Run:
    def __init__(self, code: int, out: list[str], script: Script) -> None:
        self.code, self.out, self.script = code, out, script
        self.text = "\n".join(out)


async def session(store: SqliteStore, lines: Sequence[object], request: Request | None = None,
                  lang: str = "en") -> Run:
    out: list[str] = []
    service = TableService(store, FakeClock())
    script = Script(store, lines)
    code = await Session(service, ConsoleTable(service, script, out.append, lang)).run(request)
    return Run(code, out, script)


async def active(store: SqliteStore) -> TableRecord:
    rec = await store.active_table_for_chat(PLATFORM, CHAT_ID)
    assert rec is not None
    return rec


# ---- the picker -----------------------------------------------------------------------------------


async def test_the_picker_answers_help_standings_and_quit(store: SqliteStore) -> None:
    run = await session(store, ["help", "leaderboard", "history", "rematch", "chess", "quit"])
    assert run.code == 0
    assert "Type a game's number or name to play it: 1. Rummikub (rummikub)" in run.text
    assert "No counted matches here yet." in run.text  # leaderboard: answered, not "Unknown game"
    assert "There is no finished match here to play again yet: pick a game first." in run.text
    assert "There is no game 'chess': type a number from 1 to 5 or a name (rummikub, rummy101" in run.text
    assert "Unknown game 'quit'" not in run.text and "Unknown game 'leaderboard'" not in run.text
    assert run.out[-1] == "Saved. Run the same command again to continue."
    assert await store.active_table_for_chat(PLATFORM, CHAT_ID) is None


async def test_the_picker_asks_for_opponents_with_a_default_and_says_why_for_rummy101(store: SqliteStore) -> None:
    run = await session(store, ["rummy101", "9", "", "", "quit"])  # Enter for 2 opponents, Enter for normal
    assert "How many AI opponents for Rummy 101? 1 to 3 (Enter: 2)." in run.text
    # The numbers come from real deals: 106 - (4 × 21 + 1) and 106 - (3 × 21 + 1).
    assert ("Why 2: with 3 opponents only 21 tiles stay in the stock after the deal, so many rounds end with "
            "the stock before anyone goes out; with 2 it holds 42.") in run.text
    assert "'9' is not a number of opponents: type 1 to 3, Enter for 2, or quit." in run.text
    rec = await active(store)
    assert [s.kind for s in rec.seats] == ["human", "ai", "ai"] and rec.options["turn_timer_s"] == 0
    assert [s.level for s in rec.seats[1:]] == ["normal", "normal"]


async def test_canasta_needs_no_question_and_quit_at_the_opponents_question_leaves(store: SqliteStore) -> None:
    run = await session(store, ["4", "", "quit"])  # 4. canasta: four players, nothing to ask but the level
    assert "Tile Canasta is played by four in two teams" in run.text
    assert [s.kind for s in (await active(store)).seats] == ["human", "ai", "ai", "ai"]
    again = await session(store, ["quit"])  # the next `rummyclub run` resumes it without asking
    assert "Game restored." in again.text and "Pick a game" not in again.text


async def test_quit_at_the_opponents_question(store: SqliteStore) -> None:
    run = await session(store, ["1", "quit"])
    assert run.code == 0 and run.out[-1].startswith("Saved.")
    assert await store.active_table_for_chat(PLATFORM, CHAT_ID) is None


async def test_the_picker_asks_for_the_ai_level_by_number_or_name_and_says_what_it_takes(store: SqliteStore) -> None:
    run = await session(store, ["3", "1", "hard", "help", "strong", "quit"])  # Rummy 500 against 1 AI
    assert "How should the AI opponents play? 1. easy, 2. normal, 3. strong (a number or a word; Enter: normal)." \
        in run.text
    assert "'hard' is not a level: type 1. easy, 2. normal, 3. strong (a number or a word), Enter for normal" in run.text
    assert "Type how the AI opponents play:" in run.text  # help at the question, which waits on
    rec = await active(store)
    assert rec.game == "rummy500" and [(s.kind, s.level) for s in rec.seats] == [("human", "normal"), ("ai", "strong")]
    assert "AI 1 (strong)" in run.text


async def test_the_level_question_speaks_russian_and_takes_its_names_and_numbers(store: SqliteStore) -> None:
    run = await session(store, ["5", "2", "лёгкий", "quit"], lang="ru")  # Three-Thirteen against 2 AI
    assert "Как играть соперникам-ИИ? 1. лёгкий, 2. обычный, 3. сильный" in run.text
    assert [s.level for s in (await active(store)).seats[1:]] == ["easy", "easy"]


async def test_the_level_by_number(store: SqliteStore) -> None:
    await session(store, ["1", "1", "3", "quit"])  # Rummikub, one opponent, 3. strong
    assert [s.level for s in (await active(store)).seats] == ["normal", "strong"]


async def test_quit_at_the_level_question_leaves_without_a_table(store: SqliteStore) -> None:
    run = await session(store, ["2", "", "quit"])
    assert run.code == 0 and run.out[-1].startswith("Saved.")
    assert await store.active_table_for_chat(PLATFORM, CHAT_ID) is None


# ---- a whole session ------------------------------------------------------------------------------


async def test_a_match_to_its_end_then_rematch_standings_another_game_and_quit(store: SqliteStore) -> None:
    request = Request("three_thirteen", ai=1, options=SHORT, seed=4)
    run = await session(store, [AUTO, "table", "rematch", AUTO, "3", "leaderboard", "bogus", "game", "quit"], request)
    assert run.code == 0
    assert run.out[0].startswith("Rummy Club — terminal table.")  # before the AI's first moves
    results = await store.results(PLATFORM, CHAT_ID, limit=5)
    assert [r.status for r in results] == ["finished", "finished"]
    first, second = (await store.get_table(results[1].table_id)), (await store.get_table(results[0].table_id))
    assert first is not None and second is not None
    assert second.meta["rematch_of"] == first.id and second.seed != first.seed
    assert [s.name for s in second.seats] == [s.name for s in first.seats] and second.options == first.options
    match_one, menu_one, match_two, menu_two = re.split(
        r"What next\?\n  1\. rematch — the same seats and options, a new deal|Rematch: the same seats and options, "
        r"a new deal\.", run.text)
    # Each match's only round summary is printed once (the table used to repeat it at the end)...
    assert match_one.count("Round 1 over (") == 1 and match_two.count("Round 1 over (") == 1
    # ...and `table` at the menu still shows the final table.
    assert "Three-Thirteen · round 1 of 1" in menu_one and "Next: 1 rematch · 2 game" in menu_one
    assert "🏆 Three-Thirteen — this chat, all time" in run.text and "🕘 Last 2" in run.text
    assert "'bogus' is not on the menu: type 1 to 4 (rematch, game, standings, quit)." in run.text
    assert run.text.rstrip().endswith("Saved. Run the same command again to continue.")
    assert "Pick a game" in run.text.split("What next?")[-1]


async def test_rematch_during_a_match_says_when_it_comes(store: SqliteStore) -> None:
    run = await session(store, ["rematch", "quit"], Request("three_thirteen", ai=1, options=SHORT, seed=4))
    assert "This match is still being played: when it ends, the menu offers a rematch" in run.text
    assert "already a table" not in run.text


async def test_leaderboard_while_playing_shows_the_game_being_played(store: SqliteStore) -> None:
    await session(store, [AUTO, "quit"], Request("three_thirteen", ai=1, options=SHORT, seed=4))
    run = await session(store, ["leaderboard", "leaderboard three_thirteen", "quit"], Request("rummikub", ai=1))
    boards = [line for line in run.out if line.startswith("🏆")]
    assert boards[0].startswith("🏆 Rummikub — this chat") and boards[1].startswith("🏆 Three-Thirteen")


# ---- resume or replace ----------------------------------------------------------------------------


async def test_the_same_game_with_other_options_asks_before_resuming_or_replacing(store: SqliteStore) -> None:
    await session(store, ["quit"], Request("rummy500", ai=1, seed=2))
    first = await active(store)
    same = await session(store, ["quit"], Request("rummy500", ai=1))
    assert "Game restored." in same.text and "set up differently" not in same.text
    kept = await session(store, ["maybe", "resume", "quit"], Request("rummy500", ai=2, options={"target_score": 100}))
    assert ("Your unfinished Rummy 500 game here was set up differently (target_score 500 → 100; "
            "AI opponents 1 → 2). Type resume") in kept.text
    assert "'maybe' is not an answer here: type resume, new or quit." in kept.text
    assert (await active(store)).id == first.id and "Game restored." in kept.text
    fresh = await session(store, ["new", "quit"], Request("rummy500", ai=2, options={"target_score": 100}))
    assert "The unfinished Rummy 500 game is ended; it does not count." in fresh.text
    now = await active(store)
    assert now.id != first.id and now.options["target_score"] == 100 and len(now.seats) == 3
    assert (await store.get_table(first.id)).status == "abandoned"  # type: ignore[union-attr]


async def test_another_game_asks_too_and_a_bad_option_is_refused_first(store: SqliteStore) -> None:
    await session(store, ["quit"], Request("rummy500", ai=1, seed=2))
    other = await session(store, ["quit"], Request("rummikub", ai=1))
    assert "You have an unfinished Rummy 500 game here. Type resume to go on with it, new to end it" in other.text
    bad = await session(store, ["resume"], Request("rummy500", options={"target_score": 5}))
    assert bad.code == 2 and "target_score must be a whole number from 100 to 1000 (got '5')." in bad.text


# ---- per-seat display choices ---------------------------------------------------------------------


async def test_the_rack_order_is_kept_with_the_seat_across_resume_and_rematch(store: SqliteStore) -> None:
    await session(store, ["sort", "quit"], Request("rummikub", ai=1, seed=5))
    rec = await active(store)
    assert (await HandUIs(store).get(rec.id, 0)).by_number is True  # the hand screen every platform keeps
    engine = get_engine("rummikub")
    assert rec.state is not None
    view = engine.view(rec.state, 0)
    by_number, by_colour = render_hand(rec, view, by_number=True), render_hand(rec, view, by_number=False)
    assert by_number != by_colour
    again = await session(store, ["quit"], Request("rummikub"))
    assert by_number in again.text and by_colour not in again.text


async def test_sort_colour_and_sort_number_set_the_order_and_anything_else_is_refused(store: SqliteStore) -> None:
    run = await session(store, ["sort number", "sort number", "sort sideways", "quit"], Request("rummikub", ai=1, seed=5))
    rec = await active(store)
    assert (await HandUIs(store).get(rec.id, 0)).by_number is True  # set twice: still by number, not flipped
    assert "'sideways' is not an order: type sort colour, sort number, or sort alone to switch." in run.text
    await session(store, ["sort colour", "quit"], Request("rummikub"))
    assert (await HandUIs(store).get(rec.id, 0)).by_number is False


# ---- lines the terminal used to repeat -----------------------------------------------------------


async def test_the_drawn_card_is_named_once_in_rummy500(store: SqliteStore) -> None:
    # Seed 0 with seat 2 dealing: the AI deals and discards, then you take from the bank a hand
    # that lays at once (checked below, so a changed engine fails here rather than passing blind).
    request = Request("rummy500", ai=1, options={"first_dealer": 2}, seed=0)
    run = await session(store, ["take bank", ONE, "quit"], request)
    assert run.script.typed[1].startswith("lay ")
    drawn = re.findall(r"^You drew (\S+)\.$", run.text, re.MULTILINE)
    # Named by the rack right after the take, not again under the lay (nor as "You got: X." first).
    assert len(drawn) == 1 and "You got:" not in run.text
    assert run.text.count("Your hand (") == 3  # at the start, after the take, after the lay


async def test_the_drawn_card_is_named_once_in_three_thirteen(store: SqliteStore) -> None:
    run = await session(store, ["draw", "quit"], Request("three_thirteen", ai=1, options={**SHORT, "first_dealer": 2}))
    (card,) = re.findall(r"^You drew (\S+)\. Now discard a card\.$", run.text, re.MULTILINE)
    assert f"You drew {card}.\n" not in run.text  # the private event said what the rack says


def test_seat_counts_out_of_range_say_which_work() -> None:
    assert seats_error("canasta", 2, "en") == ("Tile Canasta is played by exactly 4 players, you and 3 AI, so "
                                               "--ai 2 cannot work: use --ai 3, or leave --ai out.")
    assert seats_error("rummikub", 0, "en") == ("Rummikub is played by 2 to 4 players, so --ai 0 cannot work: use "
                                                "--ai 1, 2 or 3 (the AI opponents besides you).")
    assert seats_error("three_thirteen", 6, "ru") == (
        "В игре «Три-Тринадцать» число игроков — от 2 до 6, поэтому --ai 6 не подходит: укажите --ai 1, 2, 3, 4 или 5 "
        "(число соперников-ИИ кроме вас).")
    assert seats_error("canasta", 3, "en") is None
