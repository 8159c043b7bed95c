"""Standings: ratings after each counted match, and the leaderboard, stats, teams and history texts.

A finished match reaches storage with the table's final commit (one transaction). Rating it is a
second step, `Standings.catch_up`, which the service runs right after that commit and every query
runs before reading: `Store.rate_result` flips the result's `rated` mark in the same transaction as
the new ratings, so a crash in between is caught up later and a result never counts twice.

How a result is rated (OpenSkill's Plackett–Luce, players and teams, AI seats as stand-ins) is
bot.core.ratings.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core.ai_seats import seat_name
from bot.core.clock import Clock, SystemClock
from bot.core.i18n import t
from bot.core.models import Player
from bot.core.ratings import LOWER_IS_BETTER, Rater, sides_of
from bot.core.text import NAME_MAX, clean, display_name, excerpt
from rules import engine_names
from storage import (
    GLOBAL_SCOPE,
    MatchPlayerRecord,
    MatchResultRecord,
    Store,
)

PERIODS = ("all", "month", "week")
BOARD_SIZE = 10
HISTORY_DEFAULT = 5
HISTORY_MAX = 20
TEAM_NAME_MAX = 32


class StatsError(Exception):
    """Bad input to a stats command; `key` names the sentence (`stats.error.<key>`)."""

    def __init__(self, key: str, **params: Any) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def render(self, lang: str) -> str:
        # `value` and `name` are what the player typed: quote them short and clean.
        params = {k: excerpt(v) if isinstance(v, str) else v for k, v in self.params.items()}
        return t(f"stats.error.{self.key}", lang, **params)


def _names(joined: str) -> str:
    """A stored player or team label ("Ann & Bob"): cleaned and bounded like the names in it."""
    return excerpt(joined, 2 * NAME_MAX + 3) or "?"


# ---- queries and texts ---------------------------------------------------------------------------


def period_start(period: str, now: float) -> float | None:
    """Start of the calendar week (Monday) or month, in UTC; None for all time."""
    day = dt.datetime.fromtimestamp(now, dt.UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "week":
        return (day - dt.timedelta(days=day.weekday())).timestamp()
    if period == "month":
        return day.replace(day=1).timestamp()
    return None


def parse_game(word: str, lang: str = "en") -> str | None:
    """An engine name from what a player typed: `rummikub`, `three-thirteen`, `Rummy 500`, `canasta`..."""
    w = word.lower().replace("-", "").replace("_", "").replace(" ", "")
    for name in engine_names():
        labels = {name, t(f"game.{name}", "en"), t(f"game.{name}", lang)}
        if any(w == x.lower().replace("-", "").replace("_", "").replace(" ", "") for x in labels):
            return name
    # "canasta" for "Tile Canasta" and other unambiguous prefixes/suffixes of a game's name
    found = [n for n in engine_names() if w and (n.replace("_", "").startswith(w)
                                                 or t(f"game.{n}", "en").lower().replace(" ", "").endswith(w))]
    return found[0] if len(found) == 1 else None


def _places(values: Sequence[float | None]) -> list[int]:
    """1-based places where equal values tie (1, 1, 3)."""
    return [1 + sum(1 for o in values if (o if o is not None else float("-inf")) > (v if v is not None
                                                                                    else float("-inf")))
            for v in values]


def _fmt_rating(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


def _when(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).strftime("%Y-%m-%d %H:%M")


@dataclass
class BoardQuery:
    game: str | None
    period: str
    global_: bool


def parse_board_args(args: Sequence[str], lang: str = "en") -> BoardQuery:
    game: str | None = None
    period = "all"
    global_ = False
    for raw in args:
        word = raw.lower()
        if word in PERIODS:
            period = word
        elif word in ("global", "everywhere", "глобально", "везде"):
            global_ = True
        elif (g := parse_game(word, lang)) is not None:
            if game is not None and g != game:
                raise StatsError("two_games", first=game, second=g)
            game = g
        elif word in ("day", "today", "year", "monthly", "weekly") or word.isdigit():
            raise StatsError("bad_period", value=raw, periods=", ".join(PERIODS))
        else:
            raise StatsError("unknown_arg", value=raw, games=", ".join(engine_names()), periods=", ".join(PERIODS))
    return BoardQuery(game, period, global_)


class Standings:
    """Ratings upkeep and the stats commands' texts, for every adapter."""

    def __init__(self, store: Store, clock: Clock | None = None) -> None:
        self.store = store
        self.clock = clock or SystemClock()

    async def catch_up(self, batch: int = 200) -> int:
        """Rate every finished result not rated yet, oldest first; returns how many were rated now."""
        done = 0
        while True:
            pending = await self.store.unrated_results(batch)
            if not pending:
                return done
            rater = Rater()
            for result in pending:
                if await self.store.rate_result(result.table_id, Rater.keys(result), rater):
                    done += 1
            if len(pending) < batch:
                return done

    async def _default_game(self, platform: str, chat_id: str) -> str | None:
        for rec in await self.store.results(platform, chat_id, limit=50):
            if rec.status == "finished":
                return rec.game
        return None

    async def leaderboard(self, platform: str, chat_id: str, args: Sequence[str], lang: str,
                          me: Player | None = None) -> str:
        """`/leaderboard [game] [all|month|week] [global]`; without a game, the chat's latest one
        (or, failing that, the latest game `me` played anywhere)."""
        q = parse_board_args(args, lang)
        await self.catch_up()
        game = q.game or await self._default_game(platform, chat_id)
        if game is None and me is not None:
            played = await self.store.player_matches(platform, me.user_id)
            game = played[-1].game if played else None
        if game is None:
            return t("stats.no_matches", lang)
        scope = GLOBAL_SCOPE if q.global_ else chat_id
        rows = await self.store.board(platform, scope, game, "player", period_start(q.period, self.clock.now()),
                                      BOARD_SIZE)
        title = t("stats.board_title", lang, game=t(f"game.{game}", lang),
                  scope=t("stats.scope_global" if q.global_ else "stats.scope_chat", lang),
                  period=t(f"stats.period_{q.period}", lang))
        if not rows:
            return title + "\n" + t("stats.board_empty", lang)
        lines = [title]
        for place, row in zip(_places([round(r.rating, 1) if r.rating is not None else None for r in rows]), rows,
                              strict=True):
            lines.append(t("stats.board_line", lang, place=place, name=_names(row.name), rating=_fmt_rating(row.rating),
                           matches=row.matches, wins=row.wins, points=row.points))
        return "\n".join(lines)

    async def _find_player(self, platform: str, chat_id: str | None, words: Sequence[str]) -> tuple[str, str]:
        wanted = " ".join(words).strip().lstrip("@").lower()
        records = await self.store.ratings(platform, chat_id or GLOBAL_SCOPE, "player")
        found: dict[str, str] = {}
        for r in records:
            uid = r.subject.removeprefix("p:")
            if r.name.lower() == wanted or uid == wanted:
                found.setdefault(uid, r.name)
        if not found:  # a unique start of a name will do ("/stats ali")
            for r in records:
                if r.name.lower().startswith(wanted):
                    found.setdefault(r.subject.removeprefix("p:"), r.name)
        if not found:
            raise StatsError("unknown_player", name=" ".join(words))
        if len(found) > 1:
            raise StatsError("ambiguous_player", name=" ".join(words), names=", ".join(sorted(found.values())))
        return next(iter(found.items()))

    async def stats(self, platform: str, chat_id: str | None, me: Player, words: Sequence[str], lang: str) -> str:
        """Per game: matches, win rate, average score, best round, current streak; `chat_id=None`: all chats."""
        await self.catch_up()
        if words:
            user_id, name = await self._find_player(platform, chat_id, words)
        else:
            user_id, name = me.user_id, me.name
        matches = await self.store.player_matches(platform, user_id, chat_id)
        scope = t("stats.scope_chat" if chat_id is not None else "stats.scope_all_chats", lang)
        if not matches:
            return t("stats.no_stats", lang, name=display_name(name), scope=scope)
        lines = [t("stats.stats_title", lang, name=display_name(matches[-1].name), scope=scope)]
        by_game: dict[str, list[MatchPlayerRecord]] = {}
        for m in matches:
            by_game.setdefault(m.game, []).append(m)
        for game in sorted(by_game, key=lambda g: -len(by_game[g])):
            ms = by_game[game]
            wins = sum(m.won for m in ms)
            rounds = [m.best_round for m in ms if m.best_round is not None]
            best = (min if game in LOWER_IS_BETTER else max)(rounds) if rounds else None
            streak = 0
            for m in reversed(ms):
                if m.won != ms[-1].won:
                    break
                streak += 1
            lines.append(t("stats.stats_line", lang, game=t(f"game.{game}", lang), matches=len(ms),
                           rate=round(100 * wins / len(ms)), avg=f"{sum(m.score for m in ms) / len(ms):.1f}",
                           best="—" if best is None else best,
                           streak=t("stats.streak_won" if ms[-1].won else "stats.streak_lost", lang, n=streak)))
        return "\n".join(lines)

    async def teams(self, platform: str, chat_id: str, args: Sequence[str], lang: str) -> str:
        game: str | None = None
        for word in args:
            game = parse_game(word, lang)
            if game is None:
                raise StatsError("unknown_game", value=word, games=", ".join(engine_names()))
        await self.catch_up()
        records = await self.store.ratings(platform, chat_id, "team", game)
        if not records:
            return t("stats.no_teams", lang)
        names = await self.store.team_names(platform, chat_id)
        lines = [t("stats.teams_title", lang)]
        for place, r in zip(_places([round(r.rating, 1) for r in records]), records, strict=True):
            label = names.get(r.subject)
            players = _names(r.name)
            shown = t("stats.team_named", lang, team=display_name(label), players=players) if label else players
            lines.append(t("stats.team_line", lang, place=place, name=shown, game=t(f"game.{r.game}", lang),
                           rating=_fmt_rating(r.rating), matches=r.matches, wins=r.wins))
        return "\n".join(lines)

    async def name_team(self, platform: str, chat_id: str, me: Player, words: Sequence[str], lang: str) -> str:
        """`/team name <name>`: names the caller's most recent team in this chat."""
        if not words or words[0].lower() != "name" or len(words) < 2:
            raise StatsError("team_usage")
        # Stored cleaned (no control or bidi characters), so every later listing shows it safely.
        name = " ".join(clean(" ".join(words[1:])).split())
        if not name or len(name) > TEAM_NAME_MAX:
            raise StatsError("team_name_length", max=TEAM_NAME_MAX)
        await self.catch_up()
        mine = [m for m in await self.store.player_matches(platform, me.user_id, chat_id) if m.team]
        if not mine:
            raise StatsError("no_team")
        team = mine[-1].team
        assert team is not None
        await self.store.set_team_name(platform, chat_id, team, name)
        players = next((r.name for r in await self.store.ratings(platform, chat_id, "team") if r.subject == team),
                       me.name)
        return t("stats.team_named_ok", lang, team=name, players=_names(players))

    async def history_results(self, platform: str, chat_id: str, args: Sequence[str]) -> list[MatchResultRecord]:
        """The chat's last matches, newest first (`args`: the optional count)."""
        n = HISTORY_DEFAULT
        if args:
            if len(args) > 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= HISTORY_MAX:
                raise StatsError("bad_count", max=HISTORY_MAX)
            n = int(args[0])
        return await self.store.results(platform, chat_id, limit=n)

    def history_text(self, results: Sequence[MatchResultRecord], lang: str,
                     replay_url: Callable[[str], str] | None = None) -> str:
        """The history's text; with `replay_url` (the web table is on) each finished match's line is
        followed by the address of its replay. Abandoned matches have no replay: they never finished."""
        if not results:
            return t("stats.no_history", lang)
        lines = [t("stats.history_title", lang, n=len(results))]
        for rec in results:
            lines.append(self._history_line(rec, lang))
            if replay_url is not None and rec.status == "finished":
                lines.append(t("stats.history_replay", lang, url=replay_url(rec.table_id)))
        return "\n".join(lines)

    @staticmethod
    def replay_label(rec: MatchResultRecord, lang: str) -> str:
        """A short name for a match's replay, where the address cannot sit in the text (a button)."""
        return t("stats.replay_button", lang, game=t(f"game.{rec.game}", lang), when=_when(rec.finished_at))

    async def history(self, platform: str, chat_id: str, args: Sequence[str], lang: str,
                      replay_url: Callable[[str], str] | None = None) -> str:
        return self.history_text(await self.history_results(platform, chat_id, args), lang, replay_url)

    @staticmethod
    def _history_line(rec: MatchResultRecord, lang: str) -> str:
        game = t(f"game.{rec.game}", lang)
        when = _when(rec.finished_at)
        if rec.status != "finished" or "totals" not in rec.result:
            names = ", ".join(seat_name(s, lang) for s in rec.seats) or "—"
            return t("stats.history_abandoned", lang, when=when, game=game, players=names)
        sides = sorted(sides_of(rec), key=lambda s: s.place)
        parts = []
        for side in sides:
            who = " & ".join(seat_name(rec.seats[s], lang) for s in side.seats)
            parts.append(t("stats.history_side", lang, place=side.place, name=who, score=side.score))
        winners = [s for s in sides if s.won]
        if len(winners) > 1:
            outcome = t("stats.history_tie", lang, names=", ".join(
                " & ".join(seat_name(rec.seats[s], lang) for s in w.seats) for w in winners))
        elif winners:
            outcome = t("stats.history_winner", lang,
                        name=" & ".join(seat_name(rec.seats[s], lang) for s in winners[0].seats))
        else:
            outcome = t("stats.history_no_winner", lang)
        return t("stats.history_line", lang, when=when, game=game, outcome=outcome, sides="; ".join(parts))
