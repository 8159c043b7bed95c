"""Discord adapter costs against the fake Discord (REST + gateway) on 127.0.0.1 (the real discord.py).

Two members play a match of every game (plus AI seats: at least the game's minimum): each move is what the game's AI would choose,
sent as a hand button when the ephemeral hand offers it (after a Refresh, not counted) and as
`/rummy play` otherwise. Reported per game: REST requests per human move (the interaction callback,
the table edit, pings and summaries; median, max, mean), how many of them go to the channel (median,
max), the picture bytes uploaded with them (the table's and the hand's PNG ride on the same calls),
the channel messages left at match end (the table message and the results, ideally), interaction-to-response latency (the
INTERACTION_CREATE sent on the gateway until the callback reaches the fake: p50, p95) and
interaction-to-done latency (until every request the move caused is sent). With `--dc-hints on`
the tables have the `hints` option on and, before each human move, the hand's Hint button is pressed
(not counted as a move): REST requests per hint press (one: the hand answers it in place) and its
interaction-to-response latency.

`python -m bench.bench_discord [--dc-games N] [--dc-ai N] [--dc-seed S] [--dc-game G] [--dc-look pictures,text]
[--dc-hints off,on]` (`--dc-look pictures,text` runs every game both ways in one run: the pictures'
cost side by side; `--dc-hints off,on` the same for hints)
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.bench_rummikub import machine, percentile
from bot.core.clock import FakeClock
from bot.core.codec import decode
from bot.discord.app import point_at
from rules import engine_names, get_engine
from tests.discord.conftest import TOKEN, Harness, components
from tests.discord.fake_discord import FakeDiscord


def _in_channel(h: Harness, path: str) -> bool:
    return path.startswith(f"/channels/{h.fake.channel_id}/messages")


async def _move(h: Harness, payload: dict, per_turn: list[int], channel: list[int], first: list[float],
                done: list[float], uploaded: list[int]) -> None:
    n = len(h.fake.requests)
    started = time.perf_counter()
    await h.fake.send_interaction(payload)
    await h.bot.wait_processed(int(payload["id"]))
    done.append(time.perf_counter() - started)
    new = h.fake.requests[n:]
    callback = next(r for r in new if r.path.endswith("/callback") and payload["id"] in r.path)
    first.append(callback.t - started)
    per_turn.append(len(new))
    channel.append(sum(_in_channel(h, r.path) for r in new))
    uploaded.append(sum(len(data) for r in new for data in r.files.values()))


async def _hint(h: Harness, hand: dict, user: dict, hints: list[tuple[int, float]]) -> None:
    """Press the hand's Hint button: (requests it caused, interaction-to-response seconds)."""
    button = next(c for c in components(hand) if "custom_id" in c and decode(c["custom_id"]).verb == "hint")
    payload = h.fake.click(button["custom_id"], hand, user=user)
    n = len(h.fake.requests)
    started = time.perf_counter()
    await h.fake.send_interaction(payload)
    await h.bot.wait_processed(int(payload["id"]))
    new = h.fake.requests[n:]
    callback = next(r for r in new if r.path.endswith("/callback") and payload["id"] in r.path)
    hints.append((len(new), callback.t - started))


async def _match(h: Harness, game: str, ai: int, per_turn: list[int], channel: list[int], first: list[float],
                 done: list[float], uploaded: list[int], hints: list[tuple[int, float]] | None) -> tuple[int, int]:
    await h.slash("new", h.alice, game=game, options="hints=on" if hints is not None else "")
    await h.press(await h.table_message(), h.bob, "join")
    for _ in range(min(get_engine(game).max_seats - 2, max(ai, get_engine(game).min_seats - 2))):
        await h.press(await h.table_message(), h.alice, "addai", "normal")
    await h.press(await h.table_message(), h.alice, "start")
    hands = {u["id"]: await h.hand(u) for u in (h.alice, h.bob)}
    turns = buttons = 0
    while (rec := await h.table()).status == "playing" and turns < 2000:
        seat = get_engine(rec.game).current_seat(rec.state)
        user = h.user_of(rec, seat)
        move = await h.ai_move(user)
        hand = hands[user["id"]]
        await h.press(hand, user, "hand", str(seat))
        hand = h.fake.messages[int(hand["id"])]
        if hints is not None:
            await _hint(h, hand, user, hints)
            hand = h.fake.messages[int(hand["id"])]
        plain = [c for c in components(hand) if c.get("label") == move and decode(c["custom_id"]).verb == "cmd"]
        if plain:
            payload = h.fake.click(plain[0]["custom_id"], hand, user=user)
            buttons += 1
        else:
            payload = h.fake.slash("rummy", user=user)
            payload["data"]["options"] = [{"name": "play", "type": 1, "options": [
                {"name": "text", "type": 3, "value": move}]}]
        await _move(h, payload, per_turn, channel, first, done, uploaded)
        turns += 1
    return turns, buttons


def _left_in_channel(h: Harness) -> int:
    return sum(1 for m in h.fake.messages.values() if m.get("channel_id") == str(h.fake.channel_id)
               and not m.get("webhook_id"))  # interaction replies (ephemeral or not) are not the bot's posts


async def _run(game: str, games: int, ai: int, seed: int, look: str, with_hints: bool) -> None:
    per_turn: list[int] = []
    channel: list[int] = []
    first: list[float] = []
    done: list[float] = []
    uploaded: list[int] = []
    left: list[int] = []
    hints: list[tuple[int, float]] | None = [] if with_hints else None
    turns = buttons = 0
    started = time.perf_counter()
    for g in range(games):
        fake = await FakeDiscord(TOKEN).start()
        point_at(fake.api_base, fake.gateway_url)
        with tempfile.TemporaryDirectory() as tmp:
            h = Harness(fake, str(Path(tmp) / "bench.db"), FakeClock())
            h.seed = seed + g
            await h.start()
            await h.bot.looks.set_look(str(fake.channel_id), look == "pictures")
            try:
                t, b = await _match(h, game, ai, per_turn, channel, first, done, uploaded, hints)
                turns, buttons = turns + t, buttons + b
                left.append(_left_in_channel(h))
            finally:
                await h.stop()
                await fake.stop()
    seconds = time.perf_counter() - started
    print(f"== bench_discord {game} ({look}, hints {'on' if with_hints else 'off'}): {games} match(es), 2 members + AI, {turns} human moves ({buttons} by button) "
          f"in {seconds:.1f} s")
    print(f"   REST requests per human move: median {statistics.median(per_turn):.0f}, max {max(per_turn)}, "
          f"mean {statistics.mean(per_turn):.2f}")
    print(f"   of them to the channel: median {statistics.median(channel):.0f}, max {max(channel)}, "
          f"mean {statistics.mean(channel):.2f}; channel messages left at match end: {left}")
    print(f"   pictures uploaded per human move: median {statistics.median(uploaded) / 1000:.1f} kB, "
          f"max {max(uploaded) / 1000:.1f} kB")
    print(f"   interaction-to-response: p50 {percentile(first, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(first, 0.95) * 1000:.1f} ms, max {max(first) * 1000:.1f} ms")
    print(f"   interaction-to-done: p50 {percentile(done, 0.5) * 1000:.1f} ms, "
          f"p95 {percentile(done, 0.95) * 1000:.1f} ms, max {max(done) * 1000:.1f} ms")
    if hints:
        calls, waits = [c for c, _ in hints], [w for _, w in hints]
        print(f"   hint presses: {len(hints)}, REST requests each: median {statistics.median(calls):.0f}, "
              f"max {max(calls)}; interaction-to-response: p50 {percentile(waits, 0.5) * 1000:.1f} ms, "
              f"p95 {percentile(waits, 0.95) * 1000:.1f} ms, max {max(waits) * 1000:.1f} ms")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="bench.bench_discord")
    parser.add_argument("--dc-games", type=int, default=2)
    parser.add_argument("--dc-ai", type=int, default=2)
    parser.add_argument("--dc-seed", type=int, default=1)
    parser.add_argument("--dc-game", choices=engine_names(), action="append")
    parser.add_argument("--dc-look", default="pictures", help="pictures, text, or both: pictures,text")
    parser.add_argument("--dc-hints", default="off", help="off, on, or both: off,on")
    args, _ = parser.parse_known_args(argv)
    print("== bench_discord: discord.py 2 against the fake Discord REST + gateway on 127.0.0.1, SQLite file store")
    print(f"   machine: {machine()}")
    for game in args.dc_game or engine_names():
        for look in args.dc_look.split(","):
            for hints in args.dc_hints.split(","):
                asyncio.run(_run(game, args.dc_games, args.dc_ai, args.dc_seed, look, hints == "on"))


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
