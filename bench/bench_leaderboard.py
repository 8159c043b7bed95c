"""`/leaderboard` latency with a large history: by default 100 000 stored matches across 1 000 chats
and 10 000 players, in one SQLite file (WAL), read through the real SqliteStore and Standings.

The history is generated synthetically and written with plain sqlite3 `executemany` (minutes of
openskill updates would measure nothing the board reads): every chat has a pool of regulars drawn
from all players; each match seats 2–4 of them (Canasta 4, as two teams), a random game, a random
finish time within the last year. match_results (marked rated), match_players and the per-chat and
global ratings rows (random mu/sigma, matches/wins/points summed from the generated seats) are
what the recording path would have written. Then one chat's board is asked for repeatedly
(all time / this month / this week, and the global board), timing the whole
`Standings.leaderboard` call including its catch-up check and the text rendering: p50 / p95.

`python -m bench.bench_leaderboard [--lb-matches N] [--lb-chats N] [--lb-players N] [--lb-queries N]
[--lb-seed S] [--lb-db PATH]`
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import tempfile
import time
from contextlib import closing
from pathlib import Path

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from bot.core.stats import Standings
from storage import GLOBAL_SCOPE, SqliteStore

PLATFORM = "bench"
GAMES = ("rummikub", "rummy101", "rummy500", "canasta", "three_thirteen")
NOW = 1_800_000_000.0
YEAR = 365 * 86_400.0


def generate(path: str, matches: int, chats: int, players: int, seed: int) -> dict[str, float]:
    """Write the synthetic history; returns counts and the time it took."""
    rng = random.Random(seed)
    started = time.perf_counter()
    regulars = max(4, min(players, 3 * players // chats if chats else 4))
    pools = [rng.sample(range(players), regulars) for _ in range(chats)]
    results, seat_rows = [], []
    totals: dict[tuple[str, str, str], list[int]] = {}  # (scope, game, subject) -> matches, wins, points

    def count(scope: str, game: str, subject: str, won: bool, score: int) -> None:
        t = totals.setdefault((scope, game, subject), [0, 0, 0])
        t[0] += 1
        t[1] += int(won)
        t[2] += score

    for m in range(matches):
        chat = m % chats
        game = rng.choice(GAMES)
        n = 4 if game == "canasta" else rng.randint(2, 4)
        seated = rng.sample(pools[chat], n)
        finished = NOW - rng.random() * YEAR
        table_id = f"m{m:07d}"
        scores = [rng.randint(-200, 600) for _ in range(n)]
        teams = [[0, 2], [1, 3]] if game == "canasta" else None
        if teams:
            scores[2], scores[3] = scores[0], scores[1]
        best = max(scores) if game != "three_thirteen" else min(scores)
        winners = [i for i, s in enumerate(scores) if s == best]
        seats = [{"kind": "human", "platform": PLATFORM, "user_id": str(p), "name": f"Player {p}", "away": False}
                 for p in seated]
        result = {"totals": scores, "match_winners": winners, "match_over": True, "teams": teams, "rounds": [scores]}
        results.append((table_id, game, PLATFORM, str(chat), "finished", finished, json.dumps(seats),
                        json.dumps(result), 1))
        order = sorted(set(scores), reverse=game != "three_thirteen")
        for i, p in enumerate(seated):
            won = i in winners
            team = None
            if teams:
                mates = next(g for g in teams if i in g)
                team = "t:" + "+".join(sorted(str(seated[j]) for j in mates))
            seat_rows.append((table_id, i, PLATFORM, str(chat), game, finished, "human", str(p), f"Player {p}", team,
                              1 + order.index(scores[i]), int(won), scores[i], scores[i]))
            for scope in (str(chat), GLOBAL_SCOPE):
                count(scope, game, f"p:{p}", won, scores[i])
                if team and i in (0, 1):
                    count(scope, game, team, won, scores[i])
    ratings = []
    for (scope, game, subject), (played, wins, points) in totals.items():
        mu = 25.0 + rng.gauss(0, 4)
        sigma = max(1.0, 8.33 - 0.4 * played)
        kind = "team" if subject.startswith("t:") else "player"
        name = subject if kind == "team" else f"Player {subject[2:]}"
        ratings.append((PLATFORM, scope, game, subject, kind, name, mu, sigma, mu - 3 * sigma, played, wins, points,
                        NOW))
    with closing(sqlite3.connect(path)) as db:
        db.execute("PRAGMA synchronous = OFF")
        with db:
            db.executemany("INSERT INTO match_results (table_id, game, platform, chat_id, status, finished_at, seats, "
                           "result, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", results)
            db.executemany("INSERT INTO match_players VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", seat_rows)
            db.executemany("INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", ratings)
        db.execute("ANALYZE")
    return {"seconds": time.perf_counter() - started, "results": len(results), "seats": len(seat_rows),
            "ratings": len(ratings)}


async def measure(path: str, chats: int, queries: int, seed: int) -> dict[str, list[float]]:
    store = SqliteStore(path)
    await store.open()
    standings = Standings(store, FakeClock(NOW))
    rng = random.Random(seed + 1)
    timings: dict[str, list[float]] = {}
    cases = {"chat, all time": [], "chat, month": ["month"], "chat, week": ["week"], "global, all time": ["global"],
             "global, month": ["global", "month"]}
    try:
        for label, extra in cases.items():
            samples = timings.setdefault(label, [])
            for _ in range(queries):
                chat = str(rng.randrange(chats))
                args = [rng.choice(GAMES), *extra]
                started = time.perf_counter()
                text = await standings.leaderboard(PLATFORM, chat, args, "en")
                samples.append(time.perf_counter() - started)
                assert text.startswith("🏆"), text
    finally:
        await store.close()
    return timings


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench_leaderboard", description=__doc__.split("\n\n")[0])
    parser.add_argument("--lb-matches", type=int, default=100_000)
    parser.add_argument("--lb-chats", type=int, default=1_000)
    parser.add_argument("--lb-players", type=int, default=10_000)
    parser.add_argument("--lb-queries", type=int, default=200)
    parser.add_argument("--lb-seed", type=int, default=9)
    parser.add_argument("--lb-db", default=None, help="keep the generated database at this path")
    args, _ = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.lb_db or str(Path(tmp) / "leaderboard.db")

        async def schema() -> None:
            store = SqliteStore(path)
            await store.open()
            await store.close()

        asyncio.run(schema())
        made = generate(path, args.lb_matches, args.lb_chats, args.lb_players, args.lb_seed)
        size = Path(path).stat().st_size / 1e6
        print(f"== leaderboard bench | {machine()}")
        print(f"generated {made['results']} matches, {made['seats']} seat rows, {made['ratings']} ratings "
              f"({args.lb_chats} chats, {args.lb_players} players) in {made['seconds']:.1f} s; db {size:.0f} MB")
        timings = asyncio.run(measure(path, args.lb_chats, args.lb_queries, args.lb_seed))
        for label, samples in timings.items():
            ms = [s * 1000 for s in samples]
            print(f"/leaderboard {label:<17} p50 {percentile(ms, 0.5):7.2f} ms  p95 {percentile(ms, 0.95):7.2f} ms  "
                  f"(n={len(ms)})")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
