"""Rating one finished match: OpenSkill's Plackett–Luce (Weng–Lin), made for multiplayer
free-for-all and team matches. One rating per player per game, kept per chat and across all chats
(scope "*"). In a team game the partners are rated as one team (`teams=[[a, c], [b, d]]`), and the
pair also has a rating of its own as a unit. AI seats play as anonymous prior-rated stand-ins:
recorded, never stored or ranked; a match with fewer than two sides holding a human moves nobody's
rating (it still counts as a match played). Pure: bot.core.stats stores and queries the results.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

from storage import GLOBAL_SCOPE, MatchPlayerRecord, MatchResultRecord, RatingKey, RatingRecord

# Games whose lowest total wins; in the others the highest does.
LOWER_IS_BETTER = frozenset({"three_thirteen"})


def player_subject(user_id: str) -> str:
    return f"p:{user_id}"


def team_subject(user_ids: Sequence[str]) -> str:
    return "t:" + "+".join(sorted(user_ids))


def _ordinal(mu: float, sigma: float) -> float:
    return mu - 3.0 * sigma


# ---- rating one result ---------------------------------------------------------------------------


@dataclass
class Side:
    """One side of a finished match (a player, or a team's seats): its place (ties share one)."""

    seats: list[int]
    place: int
    won: bool
    score: int


def sides_of(result: MatchResultRecord) -> list[Side]:
    """The match's sides in seat order, with their places, wins and final scores."""
    data = result.result
    n = len(result.seats)
    totals = [int(x) for x in data.get("totals", [0] * n)]
    winners = set(data.get("match_winners", []))
    groups = [list(g) for g in data.get("teams") or [[s] for s in range(n)]]
    sign = 1 if result.game in LOWER_IS_BETTER else -1
    keys = [(0 if winners & set(g) else 1, sign * totals[g[0]]) for g in groups]
    # Dense "competition" places: equal keys share a place (a tie), the next place skips past them.
    return [Side(g, 1 + sum(other < key for other in keys), bool(winners & set(g)), totals[g[0]])
            for g, key in zip(groups, keys, strict=True)]


def _best_rounds(result: MatchResultRecord) -> list[int | None]:
    """Each seat's best round score, from the per-round history the result carries."""
    n = len(result.seats)
    rounds = result.result.get("rounds") or []
    teams = result.result.get("teams")
    per_seat: list[list[int]] = [[] for _ in range(n)]
    for row in rounds:
        for seat in range(n):
            if len(row) == n:
                per_seat[seat].append(int(row[seat]))
            elif teams:
                team = next(i for i, g in enumerate(teams) if seat in g)
                per_seat[seat].append(int(row[team]))
    pick = min if result.game in LOWER_IS_BETTER else max
    return [pick(scores) if scores else None for scores in per_seat]


class Rater:
    """Pure: a result and the ratings it touches in, seat rows and new ratings out."""

    def __init__(self, model: PlackettLuce | None = None) -> None:
        self.model = model or PlackettLuce()

    @staticmethod
    def keys(result: MatchResultRecord) -> list[RatingKey]:
        out: list[RatingKey] = []
        for scope in (result.chat_id, GLOBAL_SCOPE):
            for side in sides_of(result):
                humans = [result.seats[s].user_id for s in side.seats if result.seats[s].kind == "human"]
                out.extend((scope, player_subject(u)) for u in humans if u)
                if len(side.seats) > 1 and len(humans) == len(side.seats):
                    out.append((scope, team_subject([u for u in humans if u])))
        return out

    def __call__(
        self, result: MatchResultRecord, current: dict[RatingKey, RatingRecord]
    ) -> tuple[list[MatchPlayerRecord], list[RatingRecord]]:
        sides = sides_of(result)
        best = _best_rounds(result)
        seats = result.seats
        team_of: dict[int, str | None] = {}
        for side in sides:
            ids = [uid for s in side.seats if seats[s].kind == "human" and (uid := seats[s].user_id)]
            team = team_subject(ids) if len(side.seats) > 1 and len(ids) == len(side.seats) else None
            for s in side.seats:
                team_of[s] = team
        rows = [
            MatchPlayerRecord(
                table_id=result.table_id, seat=s, platform=result.platform, chat_id=result.chat_id,
                game=result.game, finished_at=result.finished_at, kind=seat.kind,
                user_id=seat.user_id if seat.kind == "human" else None, name=seat.name, team=team_of[s],
                place=side.place, won=side.won, score=side.score, best_round=best[s])
            for side in sides for s in side.seats for seat in [seats[s]]
        ]
        rows.sort(key=lambda r: r.seat)
        out: list[RatingRecord] = []
        for scope in (result.chat_id, GLOBAL_SCOPE):
            out.extend(self._players(result, sides, scope, current))
            out.extend(self._teams(result, sides, scope, current, team_of))
        return rows, out

    def _fresh(self) -> PlackettLuceRating:
        return self.model.rating()

    def _record(self, result: MatchResultRecord, scope: str, subject: str, kind: str, name: str,
                old: RatingRecord | None, new: PlackettLuceRating, side: Side) -> RatingRecord:
        return RatingRecord(
            platform=result.platform, scope=scope, game=result.game, subject=subject, kind=kind,
            name=name, mu=new.mu, sigma=new.sigma, rating=_ordinal(new.mu, new.sigma),
            matches=(old.matches if old else 0) + 1, wins=(old.wins if old else 0) + int(side.won),
            points=(old.points if old else 0) + side.score, updated_at=result.finished_at)

    def _rate(self, teams: list[list[PlackettLuceRating]], sides: list[Side], human_sides: int
              ) -> list[list[PlackettLuceRating]]:
        if human_sides < 2:
            return teams  # nobody to measure against: the match counts, the rating stays
        return self.model.rate(teams, ranks=[float(side.place) for side in sides])

    def _players(self, result: MatchResultRecord, sides: list[Side], scope: str,
                 current: dict[RatingKey, RatingRecord]) -> list[RatingRecord]:
        seats = result.seats
        before: list[list[PlackettLuceRating]] = []
        for side in sides:
            team = []
            for s in side.seats:
                old = current.get((scope, player_subject(seats[s].user_id or ""))) if seats[s].kind == "human" else None
                team.append(self.model.rating(mu=old.mu, sigma=old.sigma) if old else self._fresh())
            before.append(team)
        human_sides = sum(any(seats[s].kind == "human" for s in side.seats) for side in sides)
        after = self._rate(before, sides, human_sides)
        out = []
        for side, team in zip(sides, after, strict=True):
            for s, new in zip(side.seats, team, strict=True):
                seat = seats[s]
                if seat.kind != "human" or not seat.user_id:
                    continue  # AI seats are never stored or ranked
                subject = player_subject(seat.user_id)
                out.append(self._record(result, scope, subject, "player", seat.name, current.get((scope, subject)),
                                        new, side))
        return out

    def _teams(self, result: MatchResultRecord, sides: list[Side], scope: str,
               current: dict[RatingKey, RatingRecord], team_of: dict[int, str | None]) -> list[RatingRecord]:
        subjects = [team_of[side.seats[0]] if len(side.seats) > 1 else None for side in sides]
        if not any(subjects):
            return []
        before = []
        for subject in subjects:
            old = current.get((scope, subject)) if subject else None
            before.append([self.model.rating(mu=old.mu, sigma=old.sigma) if old else self._fresh()])
        after = self._rate(before, sides, sum(1 for s in subjects if s))
        out = []
        for side, subject, (new,) in zip(sides, subjects, after, strict=True):
            if subject is None:
                continue
            name = " & ".join(result.seats[s].name for s in side.seats)
            out.append(self._record(result, scope, subject, "team", name, current.get((scope, subject)), new, side))
        return out
