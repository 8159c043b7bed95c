"""Telegram adapter costs against the fake Bot API on 127.0.0.1 (the real python-telegram-bot).

Two people play Rummikub matches (plus AI seats) by typing in their DMs what the game's AI would
choose. Reported: Bot API calls per human turn (median, max), update-to-reply latency (the update
queued on the fake until every call it caused is done: p50, p95), calls to the group per turn and
the peak calls to the group in any 60 s window. The game is as fast as the machine allows, so
that peak is an upper bound; in production the rate limiter holds it to 20 a minute.

Then an unrelated user's DM latency (the DM queued on the fake until the bot's reply reaches it:
p50, p95) beside a group that is busy (every group update's reply held by the rate limiter's group
bucket, 20 per 6 s: Telegram's 20 a minute compressed 10x) and beside a group under RetryAfter (429
with retry_after 1 s injected, obeyed with a real sleep), with PTB's one-update-at-a-time processing
("before") and the per-chat processor ("after"), in one run.

`python -m bench.bench_telegram [--tg-games N] [--tg-ai N] [--tg-seed S] [--tg-dm-samples N]`
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from tests.telegram.conftest import GROUP_ID, TOKEN, Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI


async def _match(h: Harness, ai: int, per_turn: list[int], group_per_turn: list[int], latency: list[float],
                 group_times: list[float]) -> int:
    await h.say("/new rummikub", h.alice, h.group)
    await h.press_verb(await h.table_message(), "join", h.bob)
    for _ in range(ai):
        await h.press_verb(await h.table_message(), "addai", h.alice)
    await h.press_verb(await h.table_message(), "start", h.alice)
    turns = 0
    while (rec := await h.table()).status == "playing" and turns < 2000:
        seat = rec.state["turn"]
        user = h.alice if rec.seats[seat].user_id == str(h.alice["id"]) else h.bob
        move = await h.ai_move(user)
        n = len(h.fake.calls)
        started = time.perf_counter()
        await h.dm(move, user)
        latency.append(time.perf_counter() - started)
        new = h.fake.calls[n:]
        per_turn.append(len(new))
        group = [c for c in new if c.chat_id == GROUP_ID]
        group_per_turn.append(len(group))
        group_times.extend(c.t for c in group)
        turns += 1
    return turns


def _peak_per_minute(times: list[float]) -> int:
    times = sorted(times)
    best, lo = 0, 0
    for hi, t in enumerate(times):
        while t - times[lo] > 60.0:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


async def _run(games: int, ai: int, seed: int) -> None:
    per_turn: list[int] = []
    group_per_turn: list[int] = []
    latency: list[float] = []
    group_times: list[float] = []
    turns = 0
    started = time.perf_counter()
    for g in range(games):
        fake = await FakeTelegramBotAPI(TOKEN).start()
        with tempfile.TemporaryDirectory() as tmp:
            h = Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
            h.seed = seed + g
            await h.start()
            try:
                for u in (h.alice, h.bob):
                    await h.dm("/start", u)
                turns += await _match(h, ai, per_turn, group_per_turn, latency, group_times)
            finally:
                await h.stop()
                await fake.stop()
    seconds = time.perf_counter() - started
    print("== bench_telegram: PTB 22 against the fake Bot API on 127.0.0.1, SQLite file store")
    print(f"   machine: {machine()}")
    print(f"   {games} match(es), 2 humans + {ai} AI, {turns} human turns in {seconds:.1f} s")
    print(f"   Bot API calls per human turn: median {statistics.median(per_turn):.0f}, max {max(per_turn)}, "
          f"mean {statistics.mean(per_turn):.2f}")
    print(f"   calls to the group per turn: median {statistics.median(group_per_turn):.0f}, "
          f"max {max(group_per_turn)}, mean {statistics.mean(group_per_turn):.2f}")
    print(f"   update-to-reply latency: p50 {percentile(latency, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(latency, 0.95) * 1000:.1f} ms, max {max(latency) * 1000:.1f} ms")
    print(f"   peak calls to one group in any 60 s (game at machine speed): {_peak_per_minute(group_times)}")


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
            for _ in range(20):  # fill the group's bucket: from now on a group reply waits its turn
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
        print(f"   {scenario:11s} p50 ratio before/after: {percentile(before, 0.5) / percentile(after, 0.5):.0f}x")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_telegram")
    parser.add_argument("--tg-games", type=int, default=2)
    parser.add_argument("--tg-ai", type=int, default=2)
    parser.add_argument("--tg-seed", type=int, default=1)
    parser.add_argument("--tg-dm-samples", type=int, default=15)
    args, _ = parser.parse_known_args(argv)
    asyncio.run(_run(args.tg_games, args.tg_ai, args.tg_seed))
    asyncio.run(_dm_latency(args.tg_dm_samples))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
