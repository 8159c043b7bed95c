"""Ratings move the expected way, ties are ties, teams are rated as teams (OpenSkill Plackett–Luce)."""

from __future__ import annotations

import pytest
from openskill.models import PlackettLuce

from bot.core.ratings import Rater, sides_of
from storage import GLOBAL_SCOPE, MatchResultRecord, RatingKey, RatingRecord
from tests.stats.conftest import AI, ALICE, BOB, CAROL, DAN, human


def result(game: str, seats, totals, winners, teams=None, table_id: str = "m1", rounds=None) -> MatchResultRecord:
    data = {"totals": totals, "match_winners": winners, "rounds": rounds or [totals]}
    if teams:
        data["teams"] = teams
    return MatchResultRecord(table_id=table_id, game=game, platform="test", chat_id="chat1", status="finished",
                             finished_at=1000.0, seats=seats, result=data)


def rate(res: MatchResultRecord, current: dict[RatingKey, RatingRecord] | None = None):
    rows, ratings = Rater()(res, current or {})
    return rows, {(r.scope, r.subject): r for r in ratings}


def test_winner_up_loser_down_in_every_scope() -> None:
    _, after = rate(result("rummikub", [human(ALICE), human(BOB)], [20, -20], [0]))
    for scope in ("chat1", GLOBAL_SCOPE):
        alice, bob = after[(scope, "p:1")], after[(scope, "p:2")]
        assert alice.mu > 25.0 > bob.mu and alice.rating > bob.rating
        assert (alice.matches, alice.wins, alice.points) == (1, 1, 20)
        assert (bob.matches, bob.wins, bob.points) == (1, 0, -20)


def test_free_for_all_order_follows_the_totals() -> None:
    seats = [human(p) for p in (ALICE, BOB, CAROL, DAN)]
    rows, after = rate(result("rummy500", seats, [120, 510, -30, 300], [1]))
    assert [r.place for r in rows] == [3, 1, 4, 2]
    mus = {p.name: after[("chat1", f"p:{p.user_id}")].mu for p in (ALICE, BOB, CAROL, DAN)}
    assert mus["Bob"] > mus["Dan"] > mus["Alice"] > mus["Carol"]


def test_lower_total_wins_three_thirteen() -> None:
    # T13: the lowest total wins; with a tie for the lowest nobody wins the match, yet they share first place.
    rows, after = rate(result("three_thirteen", [human(ALICE), human(BOB), human(CAROL)], [40, 40, 90], []))
    assert [r.place for r in rows] == [1, 1, 3] and not any(r.won for r in rows)
    assert after[("chat1", "p:1")].mu == pytest.approx(after[("chat1", "p:2")].mu)
    assert after[("chat1", "p:1")].mu > after[("chat1", "p:3")].mu


def test_a_tie_moves_equal_players_equally() -> None:
    rows, after = rate(result("rummikub", [human(ALICE), human(BOB)], [0, 0], [0, 1]))
    assert [r.place for r in rows] == [1, 1] and all(r.won for r in rows)
    assert after[("chat1", "p:1")].mu == pytest.approx(after[("chat1", "p:2")].mu)
    assert after[("chat1", "p:1")].sigma < 25 / 3  # a draw still teaches something


def test_repeated_wins_keep_rising_and_use_the_stored_rating() -> None:
    current: dict[RatingKey, RatingRecord] = {}
    ratings = []
    for i in range(3):
        _, after = rate(result("rummikub", [human(ALICE), human(BOB)], [10, -10], [0], table_id=f"m{i}"), current)
        current.update(after)
        ratings.append(after[("chat1", "p:1")].rating)
    assert ratings[0] < ratings[1] < ratings[2]
    assert current[("chat1", "p:1")].matches == 3


def test_teams_are_rated_as_teams() -> None:
    """Canasta 2v2: seats 0+2 against 1+3. The player ratings come from one Plackett–Luce update
    with the partners as a team, and each pair also has a team rating of its own."""
    seats = [human(p) for p in (ALICE, BOB, CAROL, DAN)]
    res = result("canasta", seats, [5200, 3100, 5200, 3100], [0, 2], teams=[[0, 2], [1, 3]],
                 rounds=[[2600, 1500], [2600, 1600]])
    rows, after = rate(res)
    assert [r.team for r in rows] == ["t:1+3", "t:2+4", "t:1+3", "t:2+4"]
    assert [r.best_round for r in rows] == [2600, 1600, 2600, 1600]
    model = PlackettLuce()
    a, b, c, d = (model.rating() for _ in range(4))
    (na, nc), (nb, nd) = model.rate([[a, c], [b, d]], ranks=[1.0, 2.0])
    assert after[("chat1", "p:1")].mu == pytest.approx(na.mu) and after[("chat1", "p:3")].mu == pytest.approx(nc.mu)
    assert after[("chat1", "p:2")].mu == pytest.approx(nb.mu) and after[("chat1", "p:4")].sigma == pytest.approx(nd.sigma)
    win, lose = after[("chat1", "t:1+3")], after[("chat1", "t:2+4")]
    assert win.kind == "team" and win.name == "Alice & Carol" and win.rating > lose.rating
    assert (win.matches, win.wins, win.points) == (1, 1, 5200)
    assert (GLOBAL_SCOPE, "t:1+3") in after


def test_a_pair_with_an_ai_partner_is_no_team() -> None:
    seats = [human(ALICE), human(BOB), AI, human(DAN)]
    rows, after = rate(result("canasta", seats, [100, 900, 100, 900], [1, 3], teams=[[0, 2], [1, 3]]))
    assert [r.team for r in rows] == [None, "t:2+4", None, "t:2+4"]
    assert rows[2].kind == "ai" and rows[2].user_id is None
    assert {k for k in after if k[0] == "chat1"} == {("chat1", "p:1"), ("chat1", "p:2"), ("chat1", "p:4"),
                                                     ("chat1", "t:2+4")}
    # The human pair keeps its record; with no human pair against it, its team rating does not move.
    assert after[("chat1", "t:2+4")].matches == 1 and after[("chat1", "t:2+4")].mu == pytest.approx(25.0)
    assert after[("chat1", "p:2")].mu > 25 > after[("chat1", "p:1")].mu  # still rated through the team


def test_sides_without_teams_are_seats() -> None:
    sides = sides_of(result("rummy101", [human(ALICE), human(BOB), human(CAROL)], [-50, 0, 0], [1, 2]))
    assert [(s.seats, s.place, s.won) for s in sides] == [([0], 3, False), ([1], 1, True), ([2], 1, True)]
