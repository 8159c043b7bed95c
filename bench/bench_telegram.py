"""Telegram adapter costs against the fake Bot API on 127.0.0.1 (the real python-telegram-bot).

Matches of every game, three people at the table (Canasta: plus one AI, it needs four), each typing in
their DM what the game's AI would choose for them. Per game: Bot API calls per human turn (median,
max), how many of them reach the group (edits and new messages, median and max), the group messages
in the busiest 60 s, and the bot's messages left in the group at match end. Two paces, in one run:
"human" (the clock moves 8 s before each move) and "full" (no think time: the game as fast as the
machine plays it). The 60 s figures count what reached the group on the fake's clock: the harness
clock plus every second the bot waited (its group window, a RetryAfter). `--tg-window 0` lifts the
adapter's group limit (for a before/after against a build that has no window of its own; there the
fake's flood rule answers 429 and the bot waits that out instead).

Then an unrelated user's DM latency (the DM queued on the fake until the bot's reply reaches it:
p50, p95) beside a group that is busy (its replies held by the group limit, 20 per 6 s: Telegram's
20 a minute compressed 10x; the outbox's window holds one reply in 20 for up to 6 s where the old
limiter's bucket held every one for 0.3 s, so compare p95) and beside a group under RetryAfter (429
with retry_after 1 s injected, obeyed with a real sleep), with PTB's one-update-at-a-time processing
("before") and the per-chat processor ("after"), in one run.

`--tg-extras 1` plays each match again with the table's `hints` option on and the web table's
buttons (the hand's Open table, the group's Mini App link), to show they ride on the calls already
made (rows marked "+x"). Each match is played with the chats' `/look` as text and as pictures
(`--tg-looks`), in one run; the last column is the picture bytes uploaded per turn (the whole
match's, the first pictures included).

`python -m bench.bench_telegram [--tg-games g1,g2] [--tg-seed S] [--tg-max-turns N] [--tg-window 0|1]
[--tg-extras 0|1] [--tg-dm-samples N] [--tg-looks text,pictures]`
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from bot.web.auth import SeatLinks
from bot.web.server import WebServer
from rules import engine_names, get_engine
from tests.telegram.conftest import GROUP_ID, TOKEN, Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI

THINK_S = 8.0  # a human's think time per move at "human" pace
OPTIONS = {  # shorter matches than the defaults, so every game reaches its end in the bench
    "rummy101": "match_rounds=1", "canasta": 'match_length="1 round"', "three_thirteen": "rounds=3",
    "rummy500": "target_score=100",
}
MESSAGE_METHODS = ("sendMessage", "editMessageText", "sendPhoto", "editMessageCaption", "editMessageMedia")


def _peak(times: list[float], period: float = 60.0) -> int:
    times = sorted(times)
    best = lo = 0
    for hi, at in enumerate(times):
        while at - times[lo] >= period:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def _left_in_group(fake: FakeTelegramBotAPI) -> int:
    deleted = {int(c.params["message_id"]) for c in fake.calls_to("deleteMessage") if c.chat_id == GROUP_ID}
    return len([m for m in fake.chat_messages(GROUP_ID) if m["message_id"] not in deleted])


async def _match(game: str, pace: str, seed: int, max_turns: int, window: bool, extras: bool = False,
                 look: str = "text") -> dict[str, Any]:
    fake = await FakeTelegramBotAPI(TOKEN).start()
    with tempfile.TemporaryDirectory() as tmp:
        clock = FakeClock()
        h = Harness(fake, str(Path(tmp) / "bench.db"), clock)
        h.seed = seed
        h.rate_limits = {"overall_max_rate": 10_000, "group_max_rate": 20 if window else 100_000}
        h.look = look
        if extras:
            h.options = {"hints": True}
        await h.start()
        if extras:
            h.tg.web = WebServer("https://web.example", SeatLinks(b"k" * 32), 3600.0, clock)
            h.tg.config.webapp_name = "table"
        users = (h.alice, h.bob, h.carol)
        per_action: list[int] = []
        per_turn: list[int] = []  # a turn: a player's actions until the turn passes (draw + discard is one)
        edits: list[int] = []
        posts: list[int] = []
        turn_calls = turn_edits = turn_posts = 0
        try:
            for u in users:
                await h.dm("/start", u)
            await h.say(f"/new {game} {OPTIONS.get(game, '')}".strip(), h.alice, h.group)
            for u in users[1:]:
                await h.press_verb(await h.table_message(), "join", u)
            for _ in range(max(0, get_engine(game).min_seats - len(users))):
                await h.press_verb(await h.table_message(), "addai", h.alice, "normal")
            await h.press_verb(await h.table_message(), "start", h.alice)
            by_id = {str(u["id"]): u for u in users}
            while (rec := await h.table()).status == "playing" and len(per_action) < max_turns:
                user = by_id[rec.seats[get_engine(game).current_seat(rec.state)].user_id]
                seat = h.service.seat_of(rec, h.player(user))
                move = get_engine(game).format(get_engine(game).ai_action(rec.state, seat, random.Random(rec.log_seq)))
                if pace == "human":
                    clock.advance(THINK_S)
                n = len(fake.calls)
                await h.dm(move, user)
                new = fake.calls[n:]
                group = [c for c in new if c.chat_id == GROUP_ID]
                per_action.append(len(new))
                turn_calls += len(new)
                turn_edits += len([c for c in group if c.method.startswith("edit")])
                turn_posts += len([c for c in group if c.method.startswith("send")])
                after = await h.table()
                if after.status != "playing" or after.log_seq != rec.log_seq + 1 or \
                        get_engine(game).current_seat(after.state) != seat:
                    per_turn.append(turn_calls)
                    edits.append(turn_edits)
                    posts.append(turn_posts)
                    turn_calls = turn_edits = turn_posts = 0
            finished = (await h.table()).status == "finished"
            await h.tg.idle()
        finally:
            await h.stop()
            await fake.stop()
    # `at`: the fake's clock (the harness clock plus every second the bot waited), the flood rule's own.
    group_times = [c.at for c in fake.calls if c.chat_id == GROUP_ID and c.method in MESSAGE_METHODS
                   and c.status == 200]
    return {"actions": per_action, "turns": per_turn, "edits": edits, "posts": posts, "peak": _peak(group_times),
            "left": _left_in_group(fake) if finished else None, "finished": finished, "uploaded": fake.uploaded}


def _mm(values: list[int]) -> str:
    return f"{statistics.median(values):4.1f} / {max(values):2d}" if values else "   - /  -"


async def _run(games: list[str], seed: int, max_turns: int, window: bool, extras: bool = False,
               looks: tuple[str, ...] = ("text",)) -> None:
    print("== bench_telegram: PTB 22 against the fake Bot API on 127.0.0.1, SQLite file store")
    print(f"   machine: {machine()}")
    print(f"   3 humans typing the AI's choice (Canasta + 1 AI); group window {'on (20 in 60 s)' if window else 'off'}")
    print("   per turn (a player's actions until the turn passes) and per action (one typed move); med / max")
    print("   game            look pace   actions turns  calls/action  calls/turn  group edits/turn  group new/turn  "
          "busiest 60s  left at end  upload kB/turn")
    started = time.perf_counter()
    for game in games:
        runs = [(p, x, look) for look in looks for x in ((False, True) if extras else (False,)) for p in ("human", "full")]
        for pace, x, look in runs:
            r = await _match(game, pace, seed, max_turns, window, x, look)
            left = r["left"] if r["finished"] else f"(unfinished after {len(r['actions'])})"
            label = pace + ("+x" if x else "")
            up = r["uploaded"] / 1000 / max(1, len(r["turns"]))
            print(f"   {game:15s} {look[:4]:4s} {label:7s} {len(r['actions']):5d} {len(r['turns']):5d}  "
                  f"{_mm(r['actions']):>12s}  {_mm(r['turns']):>10s}  {_mm(r['edits']):>16s}  "
                  f"{_mm(r['posts']):>14s}  {r['peak']:11d}  {str(left):>11s}  {up:14.1f}")
    print(f"   ({time.perf_counter() - started:.1f} s)")


async def _dm_beside_group(concurrent: bool, scenario: str, samples: int) -> list[float]:
    """Latencies of Carol's DM /help, each pushed right after a group /help that has to wait."""
    fake = await FakeTelegramBotAPI(TOKEN).start()
    latency: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
        # Telegram's minute is compressed 10x here and the 429s are injected: the fake's own flood
        # rule (20 in 60 s on the harness clock, which this bench does not move) would only add 60 s waits.
        fake.group_limit = None
        h.concurrent = concurrent
        h.rate_limits = {"overall_max_rate": 10_000, "group_max_rate": 20, "group_time_period": 6}
        await h.start()
        assert h.tg.outbox is not None
        h.tg.outbox.sleep = asyncio.sleep  # RetryAfter really waits here
        try:
            await h.dm("/start", h.carol)
            for _ in range(20):  # fill the group's window: from now on a group reply waits its turn
                await h.say("/help", h.alice, h.group)
            for _ in range(samples):
                if scenario == "retry_after":
                    fake.fail_next("sendMessage", 429, "Too Many Requests: retry after 1", {"retry_after": 1},
                                   chat_id=GROUP_ID)
                group = fake.push_text("/help", user=h.alice, chat=h.group)
                await asyncio.sleep(0.01)  # the group's update is being handled when the DM comes
                mark = len(fake.calls)
                pushed = time.perf_counter()
                dm = fake.push_text("/help", user=h.carol)
                await h.settle(dm)
                await h.settle(group)
                reply = next(c for c in fake.calls[mark:] if c.method == "sendMessage" and c.chat_id == h.carol["id"])
                latency.append(reply.t - pushed)
        finally:
            await h.stop()
            await fake.stop()
    return latency


async def _dm_latency(samples: int) -> None:
    # With its own retries off, the limiter logs each injected 429 at ERROR before the outbox retries it.
    logging.getLogger("telegram.ext.AIORateLimiter").setLevel(logging.CRITICAL)
    print(f"== DM latency beside a waiting group ({samples} DMs per row; same run)")
    rows: dict[tuple[str, bool], list[float]] = {}
    for scenario in ("busy", "retry_after"):
        for concurrent in (False, True):
            rows[(scenario, concurrent)] = lat = await _dm_beside_group(concurrent, scenario, samples)
            mode = "after (per chat)  " if concurrent else "before (one by one)"
            print(f"   {scenario:11s} {mode}: p50 {percentile(lat, 0.5) * 1000:8.1f} ms, "
                  f"p95 {percentile(lat, 0.95) * 1000:8.1f} ms, max {max(lat) * 1000:8.1f} ms")
        before, after = rows[(scenario, False)], rows[(scenario, True)]
        print(f"   {scenario:11s} ratio before/after: p50 {percentile(before, 0.5) / percentile(after, 0.5):.0f}x, "
              f"p95 {percentile(before, 0.95) / percentile(after, 0.95):.0f}x")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_telegram")
    parser.add_argument("--tg-games", default=",".join(engine_names()))
    parser.add_argument("--tg-seed", type=int, default=1)
    parser.add_argument("--tg-max-turns", type=int, default=400)
    parser.add_argument("--tg-window", type=int, default=1)
    parser.add_argument("--tg-extras", type=int, default=0)
    parser.add_argument("--tg-dm-samples", type=int, default=15)
    parser.add_argument("--tg-looks", default="text,pictures", help="the chats' /look, each in the same run")
    args, _ = parser.parse_known_args(argv)
    asyncio.run(_run(args.tg_games.split(","), args.tg_seed, args.tg_max_turns, bool(args.tg_window),
                     bool(args.tg_extras), tuple(args.tg_looks.split(","))))
    if args.tg_dm_samples:
        asyncio.run(_dm_latency(args.tg_dm_samples))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
