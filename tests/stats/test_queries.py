"""The stats commands' answers: periods, ties, teams, history, rematch, bad input, and indexed queries."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.models import ServiceError
from bot.core.service import TableService
from bot.core.stats import Standings, StatsError, parse_game, period_start
from storage import GLOBAL_SCOPE, MatchResultRecord, SqliteStore, Store
from storage.sqlite import board_query
from tests.stats.conftest import ALICE, BOB, CAROL, DAN, human, quick_match

DAY = 86_400.0


async def add_result(store: Store, table_id: str, at: float, seats, totals, winners, game: str = "rummikub",
                     teams=None, chat: str = "chat1") -> None:
    data = {"totals": totals, "match_winners": winners, "rounds": [totals]}
    if teams:
        data["teams"] = teams
    await store.record_result(MatchResultRecord(table_id=table_id, game=game, platform="test", chat_id=chat,
                                                status="finished", finished_at=at, seats=seats, result=data))


def test_period_start_is_the_calendar_week_and_month_in_utc() -> None:
    now = 1_800_000_000.0  # Friday 2027-01-15 08:00 UTC
    assert period_start("all", now) is None
    assert period_start("week", now) == 1_799_625_600.0  # Monday 2027-01-11 00:00
    assert period_start("month", now) == 1_798_761_600.0  # 2027-01-01 00:00


async def test_periods_filter_the_board(store: Store, clock: FakeClock) -> None:
    now = clock.now()
    seats = [human(ALICE), human(BOB)]
    await add_result(store, "dec", now - 30 * DAY, seats, [10, -10], [0])  # 2026-12-16: all time only
    await add_result(store, "jan", now - 10 * DAY, seats, [10, -10], [0])  # 2027-01-05: this month
    await add_result(store, "wk", now - 1 * DAY, seats, [-10, 10], [1])  # 2027-01-14: this week
    standings = Standings(store, clock)
    everything = await standings.leaderboard("test", "chat1", ["rummikub", "all"], "en")
    month = await standings.leaderboard("test", "chat1", ["month"], "en")
    week = await standings.leaderboard("test", "chat1", ["WEEK", "rummikub"], "en")
    assert "1. Alice — rating" in everything and "3 played · 2 won · 10 pts" in everything
    assert "this month" in month and "Alice — rating" in month and "2 played · 1 won · 0 pts" in month
    assert "this week" in week and "1 played · 1 won · 10 pts" in week and "1 played · 0 won · -10 pts" in week
    clock.advance(40 * DAY)
    assert "Nobody has finished a match in this period." in await standings.leaderboard("test", "chat1", ["week"],
                                                                                         "en")


async def test_ties_are_shown_as_ties(store: Store, clock: FakeClock) -> None:
    seats = [human(ALICE), human(BOB), human(CAROL)]
    await add_result(store, "m1", clock.now(), seats, [30, 30, -60], [0, 1])
    standings = Standings(store, clock)
    board = (await standings.leaderboard("test", "chat1", [], "en")).splitlines()
    assert [line.split(" —")[0] for line in board[1:]] == ["1. Alice", "1. Bob", "3. Carol"]
    history = await standings.history("test", "chat1", [], "en")
    assert "tie: Alice, Bob" in history and "1. Alice 30; 1. Bob 30; 3. Carol -60" in history


async def test_global_board_spans_chats(store: Store, clock: FakeClock) -> None:
    await add_result(store, "a", clock.now(), [human(ALICE), human(BOB)], [10, -10], [0], chat="chat1")
    await add_result(store, "b", clock.now(), [human(ALICE), human(CAROL)], [10, -10], [0], chat="chat2")
    standings = Standings(store, clock)
    local = await standings.leaderboard("test", "chat1", [], "en")
    assert "Carol" not in local and "1 played" in local
    everywhere = await standings.leaderboard("test", "chat1", ["global"], "en")
    assert "all chats" in everywhere and "Carol" in everywhere and "1. Alice — rating" in everywhere
    assert "2 played · 2 won" in everywhere
    week = await standings.leaderboard("test", "chat1", ["global", "week"], "en")
    assert "Carol" in week and "2 played · 2 won" in week


async def test_stats_per_game_with_streaks_and_best_round(service: TableService, clock: FakeClock) -> None:
    await quick_match(service, BOB, ALICE)
    clock.advance(60)
    await quick_match(service, ALICE, BOB)
    clock.advance(60)
    await quick_match(service, ALICE, BOB)
    standings = service.standings
    mine = await standings.stats("test", "chat1", ALICE, [], "en")
    lines = mine.splitlines()
    assert lines[0] == "📊 Alice (this chat)"
    assert lines[1].startswith("Rummikub: 3 played · 67% won · avg score ") and lines[1].endswith("won the last 2")
    bobs = await standings.stats("test", "chat1", ALICE, ["bob"], "en")
    assert bobs.startswith("📊 Bob") and "33% won" in bobs and "lost the last 2" in bobs
    assert "best round" in bobs
    everywhere = await standings.stats("test", None, ALICE, ["Bo"], "en")
    assert "all chats" in everywhere
    assert (await standings.stats("test", "chat1", CAROL, [], "en")) == \
        "Carol has no counted matches in this chat yet."


async def test_teams_and_team_names(store: Store, clock: FakeClock) -> None:
    seats = [human(p) for p in (ALICE, BOB, CAROL, DAN)]
    await add_result(store, "c1", clock.now(), seats, [5000, 2000, 5000, 2000], [0, 2], "canasta", [[0, 2], [1, 3]])
    standings = Standings(store, clock)
    teams = (await standings.teams("test", "chat1", [], "en")).splitlines()
    assert teams == ["🤝 Teams", "1. Alice & Carol (Tile Canasta) — rating " + teams[1].split("rating ")[1],
                     "2. Bob & Dan (Tile Canasta) — rating " + teams[2].split("rating ")[1]]
    assert "1 played · 1 won" in teams[1]
    assert await standings.name_team("test", "chat1", CAROL, ["name", "The", "Aces"], "en") == \
        "Your team Alice & Carol is now called “The Aces”."
    assert "1. The Aces (Alice & Carol) (Tile Canasta)" in await standings.teams("test", "chat1", ["canasta"], "en")
    assert await standings.teams("test", "chat1", ["rummikub"], "en") == \
        "No team has finished a match here yet."
    # The pair keeps its record across matches.
    await add_result(store, "c2", clock.now() + 1, seats, [100, 900, 100, 900], [1, 3], "canasta", [[0, 2], [1, 3]])
    assert "2 played · 1 won" in await standings.teams("test", "chat1", [], "en")
    team_week = await store.board("test", "chat1", "canasta", "team", since=0.0)
    assert [(b.matches, b.wins) for b in team_week] == [(2, 1), (2, 1)]


@pytest.mark.parametrize(("call", "expected"), [
    (("leaderboard", ["chess"]), "I do not know “chess”. Games: rummikub, rummy101"),
    (("leaderboard", ["rummikub", "yearly"]), "I do not know “yearly”."),
    (("leaderboard", ["today"]), "“today” is not a period. Use one of: all, month, week."),
    (("teams", ["chess"]), "Unknown game “chess”."),
    (("stats", ["Zed"]), "No player called “Zed” has finished a match here."),
    (("stats", ["a"]), "“a” could be several players: Alan, Alice."),
    (("history", ["zero"]), "/history takes a number from 1 to 20."),
    (("history", ["0"]), "/history takes a number from 1 to 20."),
    (("history", ["21"]), "/history takes a number from 1 to 20."),
    (("team", ["rename", "x"]), "Usage: /team name <name>"),
    (("team", ["name", "x" * 40]), "A team name is 1 to 32 characters."),
    (("team", ["name", "Aces"]), "You have not finished a team match in this chat yet."),
])
async def test_bad_input_gets_a_clear_reply(store: Store, clock: FakeClock, call, expected: str) -> None:
    from bot.core.models import Player
    await add_result(store, "m1", clock.now(), [human(ALICE), human(Player("test", "9", "Alan"))], [1, -1], [0])
    standings = Standings(store, clock)
    name, args = call
    with pytest.raises(StatsError) as err:
        if name == "leaderboard":
            await standings.leaderboard("test", "chat1", args, "en")
        elif name == "teams":
            await standings.teams("test", "chat1", args, "en")
        elif name == "stats":
            await standings.stats("test", "chat1", ALICE, args, "en")
        elif name == "history":
            await standings.history("test", "chat1", args, "en")
        else:
            await standings.name_team("test", "chat1", ALICE, args, "en")
    assert err.value.render("en").startswith(expected)
    assert err.value.render("ru") != err.value.render("en")


def test_game_names_as_players_type_them() -> None:
    assert parse_game("Rummikub") == "rummikub"
    assert parse_game("three-thirteen") == "three_thirteen"
    assert parse_game("canasta") == "canasta"
    assert parse_game("101") == "rummy101" and parse_game("Rummy 500") == "rummy500"
    assert parse_game("chess") is None


async def test_rematch_same_seats_and_options_new_seed(service: TableService) -> None:
    with pytest.raises(ServiceError) as err:
        await service.rematch("test", "chat1", ALICE)
    assert err.value.code == "E_NO_TABLE"
    first = await quick_match(service, ALICE, BOB)
    old = await service.get(first)
    with pytest.raises(ServiceError) as err:
        await service.rematch("test", "chat1", CAROL)
    assert err.value.code == "E_NOT_SEATED"
    rec = await service.rematch("test", "chat1", BOB)
    assert rec.status == "lobby" and rec.id != first and rec.meta["rematch_of"] == first
    assert rec.seats == old.seats and rec.options == old.options and rec.seed != old.seed and rec.deck is None
    assert (rec.host_platform, rec.host_user_id) == ("test", BOB.user_id)
    with pytest.raises(ServiceError) as err:
        await service.rematch("test", "chat1", ALICE)
    assert err.value.code == "E_TABLE_EXISTS"
    outcome = await service.start(rec.id, BOB)
    assert outcome.table.status == "playing"


def _plan(db: str, sql: str, args: tuple) -> list[str]:
    with closing(sqlite3.connect(db)) as conn:
        return [row[3] for row in conn.execute("EXPLAIN QUERY PLAN " + sql, args)]


async def test_one_chats_board_uses_indexes_not_full_scans(tmp_path: Path) -> None:
    db = str(tmp_path / "plan.db")
    store = SqliteStore(db)
    await store.open()
    await store.close()
    with closing(sqlite3.connect(db)) as conn:
        conn.execute("ANALYZE")
    for since in (None, 1.0):
        for kind in ("player", "team"):
            sql, args = board_query("test", "chat1", "rummikub", kind, since, 10)
            plan = _plan(db, sql, args)
            assert not [p for p in plan if p.startswith(("SCAN match_players", "SCAN ratings", "SCAN r"))], plan
            assert any("USING INDEX" in p or "USING PRIMARY KEY" in p or "USING COVERING INDEX" in p for p in plan)
    plan = _plan(db, *board_query("test", "chat1", "rummikub", "player", None, 10))
    assert any("ratings_board" in p for p in plan), plan
    plan = _plan(db, *board_query("test", "chat1", "rummikub", "player", 1.0, 10))
    assert any("match_players_chat" in p for p in plan), plan
    plan = _plan(db, *board_query("test", GLOBAL_SCOPE, "rummikub", "player", 1.0, 10))
    assert any("match_players_game" in p for p in plan), plan
    plan = _plan(db, "SELECT * FROM match_players WHERE platform = ? AND user_id = ? AND (? IS NULL OR chat_id = ?) "
                 "AND (? IS NULL OR game = ?) ORDER BY finished_at, table_id", ("test", "1", None, None, None, None))
    assert any("match_players_user" in p for p in plan), plan
    plan = _plan(db, "SELECT * FROM match_results WHERE rated = 0 AND status = 'finished' "
                 "ORDER BY finished_at, rowid LIMIT 5", ())
    assert any("match_results_unrated" in p for p in plan), plan


def test_two_games_in_one_board_are_refused() -> None:
    from bot.core.stats import parse_board_args
    with pytest.raises(StatsError) as err:
        parse_board_args(["rummikub", "canasta"])
    assert err.value.render("en") == "One board is one game: pick rummikub or canasta."
    assert parse_board_args(["Rummikub", "rummikub", "week", "global"]).global_


def test_stats_catalogs_are_complete_in_russian() -> None:
    from bot.core.i18n import catalog_files, forms
    from bot.core.i18n import template_fields as fields

    en, ru = catalog_files("en")["stats"], catalog_files("ru")["stats"]
    assert set(en) == set(ru) and all(k.startswith("stats.") for k in en)
    for key, text in en.items():
        assert fields(ru[key]) == fields(text) and all(f.strip() for f in forms(ru[key]).values()), key
