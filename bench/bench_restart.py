"""A Telegram restart's cost (issue 27, item 5): N two-player tables in play, each in its own group
and shown (table message and both hands sent through the fake Bot API on 127.0.0.1, the real
python-telegram-bot), then the process restarted on the same SQLite file: the Bot API calls the
restart makes with every message current, then with `--behind` tables whose table message is behind
(a process that died between a move's commit and its edit), and the seconds until the restored
render is done. The profile calls (command menus, descriptions, menu button) are counted apart:
they are made once per content, not per start.

`python -m bench.bench_restart [--restart-tables N] [--behind K]`
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import tempfile
import time
from pathlib import Path

from bot.core.clock import FakeClock
from bot.core.models import Player
from tests.telegram.conftest import TOKEN, Harness
from tests.telegram.fake_bot_api import FakeTelegramBotAPI


async def _open(h: Harness, n: int) -> list[str]:
    ids = []
    for i in range(n):
        chat, users = -300_000 - i, (10_000 + 2 * i, 10_001 + 2 * i)
        players = [Player("telegram", str(u), f"P{u}") for u in users]
        for u in users:
            h.fake.dm_open.add(u)
            await h.tg.chats.update(u, dm=True)
        rec = await h.service.open_table("rummikub", "telegram", str(chat), players[0], seat_host=True)
        await h.service.join(rec.id, players[1])
        outcome = await h.service.start(rec.id, players[0])
        await h.tg.delivery.render_outcome(outcome)
        ids.append(rec.id)
    await h.tg.idle()
    return ids


async def _restart(h: Harness) -> tuple[int, str, float]:
    await h.stop()
    n = len(h.fake.calls)
    t0 = time.perf_counter()
    await h.start()
    await h.tg.idle()
    seconds = time.perf_counter() - t0
    calls = h.fake.calls[n:]
    other = sorted({c.method for c in calls if c.chat_id is None})  # the start's own: getMe, deleteWebhook, ...
    return len([c for c in calls if c.chat_id is not None]), ", ".join(other) or "none", seconds


async def _run(tables: int, behind: int) -> None:
    print(f"== bench_restart: {tables} Telegram tables in play (2 humans each), SQLite file store, fake Bot API")
    fake = await FakeTelegramBotAPI(TOKEN).start()
    with tempfile.TemporaryDirectory() as tmp:
        h = Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
        h.rate_limits = {"overall_max_rate": 10_000, "group_max_rate": 20}
        await h.start()
        try:
            t0 = time.perf_counter()
            ids = await _open(h, tables)
            shown = len(fake.calls)
            print(f"opened and shown: {shown} calls in {time.perf_counter() - t0:.1f} s")
            calls, profile, seconds = await _restart(h)
            print(f"restart, every message current: {calls} calls into chats (besides: {profile}), {seconds:.2f} s")
            for table_id in ids[:behind]:
                rec = await h.store.get_table(table_id)
                assert rec is not None
                await h.store.set_table_ref(table_id, "shown:table", rec.version - 1)
            calls, profile, seconds = await _restart(h)
            print(f"restart, {behind} table message(s) behind: {calls} calls into chats (besides: {profile}), "
                  f"{seconds:.2f} s")
        finally:
            await h.stop()
            await fake.stop()


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_restart")
    parser.add_argument("--restart-tables", type=int, default=1000)
    parser.add_argument("--behind", type=int, default=10)
    args, _ = parser.parse_known_args(argv)
    logging.getLogger("telegram").setLevel(logging.WARNING)
    asyncio.run(_run(args.restart_tables, args.behind))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
